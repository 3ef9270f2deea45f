package io.vstream.connect.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vstream.connect.cli.ConnectorConfig.Role;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Renders one workflow for {@code vsc status}: as text for people (state, progress bar, rates, ETA, lag, throttle,
 * cut-over attempts, failure, the Connect status of its connectors) or as JSON for scripts. What the status record
 * does not carry is shown as {@code -}. No I/O.
 */
public final class StatusView {
    static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss'Z'")
            .withZone(ZoneOffset.UTC);
    private static final ProgressBar BAR = new ProgressBar(30);

    /** A workflow as shown: its connectors, the computed progress, and each connector's Connect status (or null). */
    public record Row(Workflows.Info info, WorkflowProgress progress, Map<Role, JsonNode> connectStatus) {
    }

    private StatusView() {
    }

    public static String text(Row row, long nowMs, boolean showAge) {
        Workflows.Info i = row.info();
        WorkflowProgress p = row.progress();
        StatusRecord r = p.latest();
        StringBuilder sb = new StringBuilder();
        String state = r == null ? "(no status record yet)" : r.state() + (r.step() == null ? "" : " / step " + r.step());
        sb.append(i.name()).append("  ").append(i.type()).append("  ").append(state).append('\n');
        String copy = p.copyDone() == null || p.copyTotal() == null ? ""
                : "  " + p.copyDone() + "/" + p.copyTotal() + (i.shardCount() > 0 ? " shards copied" : " tables copied");
        line(sb, "progress", BAR.render(p.copyFraction()) + copy);
        StatusRecord.Rows rows = r == null || r.rows() == null ? StatusRecord.Rows.NONE : r.rows();
        line(sb, "rows", "copied " + (rows.copied() == null ? "-" : String.format(Locale.ROOT, "%,d", rows.copied())
                + (rows.total() == null ? "" : String.format(Locale.ROOT, " of ~%,d", rows.total())))
                + "   rows/s " + (rows.perSecond() == null ? "-" : String.format(Locale.ROOT, "%,.0f",
                rows.perSecond())));
        line(sb, "applied", (p.appliedPerSecond() == null ? "-" : String.format(Locale.ROOT, "%.1f", p.appliedPerSecond()))
                + " tx/s   lag " + lag(r)
                + "   ETA " + eta(p));
        line(sb, "throttle", p.throttle() == null ? "-" : p.throttle());
        line(sb, "cut-over", "attempts " + (r == null ? "-" : r.attempts()) + (i.postponed() ? "   postponed by config"
                : "") + (i.cancelled() ? "   cancel requested" : ""));
        if (p.failure() != null) {
            line(sb, "FAILED", p.failure());
        }
        if (p.note() != null) {
            line(sb, "reason", p.note());
        }
        if (r != null) {
            boolean firstShard = true;
            for (StatusRecord.Shard s : r.shards()) {
                line(sb, firstShard ? "shards" : "", shard(s));
                firstShard = false;
            }
        }
        if (r != null && r.diff() != null) {
            line(sb, "diff", diff(r.diff()));
        }
        if (r != null) {
            line(sb, "updated", TIME.format(Instant.ofEpochMilli(r.tsMs()))
                    + (showAge ? " (" + Math.max(0, (nowMs - r.tsMs()) / 1000) + " s ago)" : ""));
        }
        boolean first = true;
        for (Role role : Role.values()) {
            String name = name(i, role);
            JsonNode s = row.connectStatus() == null ? null : row.connectStatus().get(role);
            String label = first ? "connectors" : "";
            first = false;
            line(sb, label, String.format(Locale.ROOT, "%-11s %-28s %s", role.label(), name == null ? "(not found)" : name,
                    connect(name, s)));
        }
        return sb.toString();
    }

    private static void line(StringBuilder sb, String label, String value) {
        sb.append(String.format(Locale.ROOT, "  %-10s %s%n", label, value));
    }

    /** The applier's lag: in time when the coordinator measures it, else in (server-wide) transactions. */
    static String lag(StatusRecord r) {
        if (r == null) {
            return "-";
        }
        if (r.lagMs() != null) {
            return String.format(Locale.ROOT, "%.1f s", r.lagMs() / 1000.0);
        }
        return r.lagTransactions() == null ? "-" : r.lagTransactions() + " tx";
    }

    /** One line per shard: its state, where its applier is and how far behind, its copy, its throttle. */
    static String shard(StatusRecord.Shard s) {
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "%-8s %-10s", s.shard(),
                s.state() == null ? "-" : s.state()));
        sb.append("lag ").append(s.lagMs() == null ? "-" : String.format(Locale.ROOT, "%.1f s", s.lagMs() / 1000.0));
        if (s.lagTransactions() != null) {
            sb.append(" (").append(s.lagTransactions()).append(" tx)");
        }
        if (s.rowsCopied() != null) {
            sb.append(String.format(Locale.ROOT, "   copied %,d", s.rowsCopied()));
        }
        if (s.appliedPosition() != null) {
            sb.append("   at ").append(s.appliedPosition());
        }
        if (s.throttleReason() != null) {
            sb.append("   throttled: ").append(s.throttleReason());
        }
        return sb.toString();
    }

    /** One line for the last on-demand diff: its id, state, counts and progress or result. */
    static String diff(StatusRecord.Diff d) {
        StringBuilder sb = new StringBuilder(d.id()).append("  ").append(d.state());
        if (d.rowsCompared() != null) {
            sb.append(String.format(Locale.ROOT, "  %,d", d.rowsCompared()));
            if (d.rowsTotal() != null && d.rowsTotal() > 0 && "RUNNING".equals(d.state())) {
                sb.append(String.format(Locale.ROOT, " of ~%,d", d.rowsTotal()));
            }
            sb.append(" rows");
        }
        if (d.tablesTotal() != null && d.tablesTotal() > 0) {
            sb.append(", ").append(d.tablesDone()).append('/').append(d.tablesTotal()).append(" tables");
        }
        if (d.differences() != null && d.differences() > 0) {
            sb.append(", ").append(d.differences()).append(d.differences() == 1 ? " difference" : " differences");
        }
        if (d.etaMs() != null) {
            sb.append(", ETA ").append(Math.max(1, d.etaMs() / 1000)).append(" s");
        }
        if (d.position() != null) {
            sb.append(", at ").append(d.position());
        }
        if (d.reason() != null) {
            sb.append(" (").append(d.reason()).append(')');
        }
        return sb.toString();
    }

    static ObjectNode diffJson(StatusRecord.Diff d) {
        ObjectNode n = ConnectRestClient.JSON.createObjectNode();
        n.put("id", d.id());
        n.put("state", d.state());
        n.put("position", d.position());
        n.put("tables_done", d.tablesDone());
        n.put("tables_total", d.tablesTotal());
        n.put("rows_compared", d.rowsCompared());
        n.put("rows_total", d.rowsTotal());
        n.put("eta_ms", d.etaMs());
        n.put("differences", d.differences());
        ArrayNode details = n.putArray("details");
        d.details().forEach(details::add);
        n.put("reason", d.reason());
        return n;
    }

    static String eta(WorkflowProgress p) {
        if (p.etaSeconds() == null) {
            return "-";
        }
        long s = p.etaSeconds();
        String t = s >= 3600 ? String.format(Locale.ROOT, "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60)
                : String.format(Locale.ROOT, "%d:%02d", s / 60, s % 60);
        return p.etaBasis() == null ? t : t + " (" + p.etaBasis() + ")";
    }

    private static String connect(String name, JsonNode s) {
        if (name == null) {
            return "";
        }
        if (s == null) {
            return "MISSING";
        }
        StringBuilder sb = new StringBuilder(s.path("connector").path("state").asText("?"));
        JsonNode tasks = s.path("tasks");
        if (tasks.isEmpty()) {
            sb.append("  no tasks");
        }
        for (JsonNode t : tasks) {
            sb.append("  task ").append(t.path("id").asInt()).append(' ').append(t.path("state").asText("?"));
            if (t.hasNonNull("trace")) {
                String first = t.get("trace").asText().lines().findFirst().orElse("");
                sb.append(" (").append(first.length() > 160 ? first.substring(0, 160) + "..." : first).append(')');
            }
        }
        return sb.toString();
    }

    static String name(Workflows.Info i, Role role) {
        return switch (role) {
            case COORDINATOR -> i.coordinator();
            case SOURCE -> i.source();
            case SINK -> i.sink();
        };
    }

    public static ObjectNode json(Row row) {
        Workflows.Info i = row.info();
        WorkflowProgress p = row.progress();
        StatusRecord r = p.latest();
        ObjectNode n = ConnectRestClient.JSON.createObjectNode();
        n.put("workflow", i.name());
        n.put("type", i.type());
        n.put("state", r == null ? null : r.state());
        n.put("step", r == null ? null : r.step());
        n.put("reason", r == null ? null : r.reason());
        n.put("failure", p.failure());
        n.put("throttle", p.throttle());
        n.put("attempts", r == null ? null : r.attempts());
        n.put("lag_transactions", r == null ? null : r.lagTransactions());
        n.put("lag_ms", r == null ? null : r.lagMs());
        n.put("tables_copying", r == null ? null : r.tablesCopying());
        n.put("copy_done", p.copyDone());
        n.put("copy_total", p.copyTotal());
        n.put("progress_percent", p.copyFraction() == null ? null : (int) Math.floor(p.copyFraction() * 100));
        StatusRecord.Rows rowCounts = r == null || r.rows() == null ? StatusRecord.Rows.NONE : r.rows();
        n.put("rows_copied", rowCounts.copied());
        n.put("rows_total", rowCounts.total());
        n.put("rows_per_second", rowCounts.perSecond());
        n.put("applied_transactions_per_second", p.appliedPerSecond());
        n.put("eta_seconds", p.etaSeconds());
        n.put("source_position", r == null ? null : r.sourcePosition());
        n.put("applied_position", r == null ? null : r.appliedPosition());
        n.put("ts_ms", r == null ? null : r.tsMs());
        n.put("postponed_by_config", i.postponed());
        n.put("cancel_requested", i.cancelled());
        n.put("status_topic", i.statusTopic());
        if (r != null && r.diff() != null) {
            n.set("diff", diffJson(r.diff()));
        }
        ArrayNode shardNodes = n.putArray("shards");
        if (r != null) {
            for (StatusRecord.Shard s : r.shards()) {
                ObjectNode sn = shardNodes.addObject();
                sn.put("shard", s.shard());
                sn.put("state", s.state());
                sn.put("applied_position", s.appliedPosition());
                sn.put("lag_ms", s.lagMs());
                sn.put("lag_transactions", s.lagTransactions());
                sn.put("rows_copied", s.rowsCopied());
                sn.put("throttle_reason", s.throttleReason());
            }
        }
        ArrayNode seen = n.putArray("connectors_seen_by_coordinator");
        if (r != null) {
            r.connectors().forEach(seen::add);
        }
        ObjectNode connectors = n.putObject("connectors");
        for (Role role : Role.values()) {
            ObjectNode c = connectors.putObject(role.label());
            String name = name(i, role);
            c.put("name", name);
            JsonNode s = row.connectStatus() == null ? null : row.connectStatus().get(role);
            c.put("state", name == null ? null : s == null ? "MISSING" : s.path("connector").path("state").asText(null));
            ArrayNode tasks = c.putArray("tasks");
            if (s != null) {
                for (JsonNode t : s.path("tasks")) {
                    ObjectNode tn = tasks.addObject();
                    tn.put("id", t.path("id").asInt());
                    tn.put("state", t.path("state").asText(null));
                    if (t.hasNonNull("trace")) {
                        tn.put("trace", t.get("trace").asText());
                    }
                }
            }
        }
        return n;
    }

    /** The connectors' Connect status, by role, as {@code GET /connectors/{name}/status} returns it. */
    static Map<Role, JsonNode> connectStatus(ConnectRestClient rest, Workflows.Info i) {
        Map<Role, JsonNode> out = new LinkedHashMap<>();
        for (Role role : Role.values()) {
            String name = name(i, role);
            if (name != null) {
                JsonNode s = rest.status(name);
                if (s != null) {
                    out.put(role, s);
                }
            }
        }
        return out;
    }
}
