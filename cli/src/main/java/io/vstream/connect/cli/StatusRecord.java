package io.vstream.connect.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;

/**
 * One record of a coordinator's status topic (schema {@code io.vstream.connect.WorkflowStatus}, keyed by workflow
 * name), as the worker's JsonConverter wrote it, with or without the {@code schema}/{@code payload} envelope. These
 * are all the fields the coordinator publishes ({@code lagMs}: how far the slowest applier is behind what its source has
 * read, absent from older coordinators); anything else {@code vsc status} shows is computed from successive
 * records.
 */
public record StatusRecord(String workflow, String type, String state, String step, String reason,
                           String sourcePosition, String appliedPosition, Long lagTransactions, Integer tablesCopying,
                           int attempts, long tsMs, Rows rows, Long lagMs, Diff diff, java.util.List<Shard> shards,
                           java.util.List<String> connectors) {

    /**
     * One shard as the coordinator measured it in its last round ({@code state}: waiting, copying, streaming); any
     * value may be null.
     */
    public record Shard(String shard, String state, String appliedPosition, Long lagMs, Long lagTransactions,
                        Long rowsCopied, String throttleReason) {
    }

    /**
     * The last on-demand diff the coordinator ran ({@code vsc diff}, {@code diff.request}); absent until one is
     * asked for. {@code state}: RUNNING, EQUAL, DIFFERENT or FAILED.
     */
    public record Diff(String id, String state, String position, Integer tablesDone, Integer tablesTotal,
                       Long rowsCompared, Long rowsTotal, Long etaMs, Long differences, java.util.List<String> details,
                       String reason) {
        public boolean isFinal() {
            return !"RUNNING".equals(state);
        }
    }

    /**
     * The copy's row counts as the coordinator measures them (online DDL: rows copied counted by the applier, total
     * estimated from the server; optional fields, absent from older coordinators and other workflows).
     */
    public record Rows(Long copied, Long total, Double percent, Double perSecond, Long etaMs, String throttleReason) {
        static final Rows NONE = new Rows(null, null, null, null, null, null);
    }

    /** The same record with {@code list} as its shards. */
    public StatusRecord withShards(java.util.List<Shard> list) {
        return new StatusRecord(workflow, type, state, step, reason, sourcePosition, appliedPosition, lagTransactions,
                tablesCopying, attempts, tsMs, rows, lagMs, diff, list, connectors);
    }

    public StatusRecord(String workflow, String type, String state, String step, String reason, String sourcePosition,
                        String appliedPosition, Long lagTransactions, Integer tablesCopying, int attempts, long tsMs) {
        this(workflow, type, state, step, reason, sourcePosition, appliedPosition, lagTransactions, tablesCopying,
                attempts, tsMs, Rows.NONE, null, null, java.util.List.of(), java.util.List.of());
    }

    /** Parses a record value; null for a tombstone or a value that is not a status record. */
    public static StatusRecord fromJson(byte[] value) {
        if (value == null || value.length == 0) {
            return null;
        }
        try {
            return fromJson(ConnectRestClient.JSON.readTree(value));
        } catch (IOException e) {
            return null;
        }
    }

    public static StatusRecord fromJson(JsonNode root) {
        JsonNode v = root != null && root.has("payload") && root.has("schema") ? root.get("payload") : root;
        if (v == null || !v.isObject() || !v.hasNonNull("workflow") || !v.hasNonNull("state")) {
            return null;
        }
        return new StatusRecord(v.get("workflow").asText(), text(v, "type"), v.get("state").asText(),
                text(v, "step"), text(v, "reason"), text(v, "source_position"), text(v, "applied_position"),
                v.hasNonNull("lag_transactions") ? v.get("lag_transactions").asLong() : null,
                v.hasNonNull("tables_copying") ? v.get("tables_copying").asInt() : null,
                v.path("attempts").asInt(0), v.path("ts_ms").asLong(0),
                new Rows(number(v, "rows_copied"), number(v, "rows_total"), decimal(v, "progress_pct"),
                        decimal(v, "rows_per_second"), number(v, "eta_ms"), text(v, "throttle_reason")),
                number(v, "lag_ms"), diff(v), shards(v), texts(v, "connectors"));
    }

    private static java.util.List<Shard> shards(JsonNode v) {
        java.util.List<Shard> out = new java.util.ArrayList<>();
        for (JsonNode s : v.path("shards")) {
            out.add(new Shard(text(s, "shard"), text(s, "state"), text(s, "applied_position"), number(s, "lag_ms"),
                    number(s, "lag_transactions"), number(s, "rows_copied"), text(s, "throttle_reason")));
        }
        return java.util.List.copyOf(out);
    }

    private static java.util.List<String> texts(JsonNode v, String field) {
        java.util.List<String> out = new java.util.ArrayList<>();
        v.path(field).forEach(x -> out.add(x.asText()));
        return java.util.List.copyOf(out);
    }

    private static Diff diff(JsonNode v) {
        if (!v.hasNonNull("diff_id")) {
            return null;
        }
        java.util.List<String> details = new java.util.ArrayList<>();
        v.path("diff_details").forEach(d -> details.add(d.asText()));
        return new Diff(v.get("diff_id").asText(), text(v, "diff_state"), text(v, "diff_position"),
                v.hasNonNull("diff_tables_done") ? v.get("diff_tables_done").asInt() : null,
                v.hasNonNull("diff_tables_total") ? v.get("diff_tables_total").asInt() : null,
                number(v, "diff_rows_compared"), number(v, "diff_rows_total"), number(v, "diff_eta_ms"),
                number(v, "diff_differences"), java.util.List.copyOf(details), text(v, "diff_reason"));
    }

    private static Long number(JsonNode v, String field) {
        return v.hasNonNull(field) ? v.get(field).asLong() : null;
    }

    private static Double decimal(JsonNode v, String field) {
        return v.hasNonNull(field) ? v.get(field).asDouble() : null;
    }

    private static String text(JsonNode v, String field) {
        return v.hasNonNull(field) ? v.get(field).asText() : null;
    }

    /** Whether the state is one a workflow never leaves. */
    public boolean isFinal() {
        return isFinal(state);
    }

    public static boolean isFinal(String state) {
        return "COMPLETE".equals(state) || "CANCELLED".equals(state) || "FAILED".equals(state)
                || "REVERTED".equals(state);
    }
}
