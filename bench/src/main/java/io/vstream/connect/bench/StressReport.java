package io.vstream.connect.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Writes a stress run as {@code <stamp>.md} (for people) and {@code <stamp>.json} (every migration's numbers, for
 * tools), as {@link Report} does for the benchmark: how many migrations ran, completed and failed, the mismatches
 * (must be 0), the failed writes by MariaDB error code, the longest write, and per migration its ALTER, wall time and
 * the worker kill (which, in which state). Writes files only.
 */
final class StressReport {
    /** The MariaDB error codes a write load meets around a cut-over, and what they mean. */
    private static final Map<Integer, String> CODES = Map.ofEntries(
            Map.entry(0, "no server code: the connection was lost or the driver failed"),
            Map.entry(1020, "record has changed since last read"),
            Map.entry(1054, "unknown column"),
            Map.entry(1146, "table doesn't exist"),
            Map.entry(1180, "error during COMMIT"),
            Map.entry(1205, "lock wait timeout exceeded"),
            Map.entry(1213, "deadlock found"),
            Map.entry(1317, "query execution was interrupted"),
            Map.entry(1412, "table definition has changed, retry the transaction"),
            Map.entry(1927, "connection was killed"),
            Map.entry(2006, "server has gone away"),
            Map.entry(2013, "lost connection during query"));

    private final String started;
    private final StressOptions options;
    private final Machine machine;
    private final Map<String, String> setup;
    private final List<MigrationResult> results;
    private final List<String> errors;
    private final String wallTime;

    StressReport(String started, StressOptions options, Machine machine, Map<String, String> setup,
                 List<MigrationResult> results, List<String> errors, String wallTime) {
        this.started = started;
        this.options = options;
        this.machine = machine;
        this.setup = setup;
        this.results = results;
        this.errors = errors;
        this.wallTime = wallTime;
    }

    /** Every migration ran and completed with the new schema, no row differed, no error stopped the run. */
    boolean passed() {
        return errors.isEmpty() && results.size() == options.migrations()
                && results.stream().allMatch(MigrationResult::ok);
    }

    long completed() {
        return results.stream().filter(r -> r.outcome() == MigrationResult.Outcome.COMPLETE).count();
    }

    long mismatches() {
        return results.stream().mapToLong(MigrationResult::mismatches).sum();
    }

    SortedMap<Integer, Long> failedWritesByCode() {
        SortedMap<Integer, Long> all = new TreeMap<>();
        results.forEach(r -> r.errorsByCode().forEach((code, n) -> all.merge(code, n, Long::sum)));
        return all;
    }

    /** The migration with the slowest acknowledged write, or null. */
    MigrationResult longestWrite() {
        MigrationResult best = null;
        for (MigrationResult r : results) {
            if (best == null || r.writes().maxMs() > best.writes().maxMs()) {
                best = r;
            }
        }
        return best;
    }

    /** Writes both files and returns the Markdown one. */
    Path write(Path dir, String stamp) throws IOException {
        Files.createDirectories(dir);
        String name = stamp;
        for (int n = 2; Files.exists(dir.resolve(name + ".md")) || Files.exists(dir.resolve(name + ".json")); n++) {
            name = stamp + "-" + n;
        }
        Path md = dir.resolve(name + ".md");
        Files.writeString(md, markdown(), StandardCharsets.UTF_8);
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(dir.resolve(name + ".json").toFile(),
                json());
        return md;
    }

    /** The lines the command prints at its end. */
    List<String> summaryLines() {
        List<String> out = new ArrayList<>();
        out.add(String.format(Locale.ROOT, "stress: %d of %d migrations run, %d completed, %d failed; mismatches %d;"
                        + " failed writes %s; longest write %s", results.size(), options.migrations(), completed(),
                results.size() - completed(), mismatches(), codes(failedWritesByCode()), longest()));
        out.add("stress: " + (passed() ? "PASSED" : "FAILED" + (errors.isEmpty() ? "" : " (" + errors.size()
                + " error(s): " + String.join("; ", errors) + ")")));
        return out;
    }

    /** One line for a migration's end. */
    static String summary(MigrationResult r) {
        WriteWindow w = r.writes();
        return String.format(Locale.ROOT, "%s in %.1f s%s; writes %,d acknowledged, %d failed%s, max %.0f ms;"
                        + " mismatches %d%s%s", r.outcome(), r.seconds(), r.reason() == null ? "" : " (" + r.reason()
                        + ")", w.commits(), w.failed(), r.errorsByCode().isEmpty() ? "" : " " + codes(r.errorsByCode()),
                w.maxMs(), r.mismatches(), r.kill() == null ? r.killNote().isEmpty() ? "" : "; " + r.killNote()
                        : "; " + r.kill().describe(), r.schemaProblems() == null ? "" : "; SCHEMA: "
                        + r.schemaProblems());
    }

    private String longest() {
        MigrationResult r = longestWrite();
        return r == null ? "-" : String.format(Locale.ROOT, "%.0f ms (migration %d)", r.writes().maxMs(), r.number());
    }

    private static String codes(Map<Integer, Long> byCode) {
        if (byCode.isEmpty()) {
            return "none";
        }
        List<String> parts = new ArrayList<>();
        byCode.forEach((code, n) -> parts.add(n + " x " + code + (CODES.containsKey(code) ? " (" + CODES.get(code)
                + ")" : "")));
        return String.join(", ", parts);
    }

    String markdown() {
        StringBuilder o = new StringBuilder();
        o.append("# vstream-connect stress, ").append(started).append("\n\n");
        o.append("Generated by `").append(options.commandLine()).append("` (docs/benchmarks.md, \"Stress: consecutive"
                + " migrations under load\"): consecutive online migrations of one table on two MariaDB shards under"
                + " a write load, a Connect worker process killed in some of them; after each, every shard's table"
                + " is compared with the writers' model.\n\n");
        o.append("**Machine**: ").append(machine.cpus()).append(" CPUs (").append(machine.cpuModel()).append("), ")
                .append(String.format(Locale.ROOT, "%,d", machine.memoryMb())).append(" MB RAM; ").append(machine.jdk())
                .append("; ").append(machine.os()).append("; MariaDB ").append(machine.mariadb()).append(".\n");
        o.append("**Wall time**: ").append(wallTime).append(".\n");
        o.append("Load average (1/5/15 min) at start ").append(machine.loadAtStart()).append(", at end ")
                .append(machine.loadAtEnd()).append(". The machine may be shared with other work: wall times are"
                        + " noisy.\n\n");

        o.append("## Result: ").append(passed() ? "PASSED" : "FAILED").append("\n\n");
        long failed = results.size() - completed();
        long differences = results.stream().mapToLong(MigrationResult::tableDifferences).sum();
        long writerMismatches = results.stream().mapToLong(MigrationResult::writerMismatches).sum();
        long commits = results.stream().mapToLong(r -> r.writes().commits()).sum();
        long failedWrites = results.stream().mapToLong(r -> r.writes().failed()).sum();
        long kills = results.stream().filter(r -> r.kill() != null).count();
        long schema = results.stream().filter(r -> r.schemaProblems() != null).count();
        o.append("| | |\n|---|---|\n");
        o.append("| migrations run | ").append(results.size()).append(" of ").append(options.migrations()).append(" |\n");
        o.append("| completed | ").append(completed()).append(" |\n");
        o.append("| failed | ").append(failed).append(failed == 0 ? "" : " (see the notes)").append(" |\n");
        o.append("| **mismatches** (must be 0) | **").append(mismatches()).append("**: ").append(differences)
                .append(" row(s) of the tables differ from the writers' model, ").append(writerMismatches)
                .append(" write(s) met a row state the model did not expect |\n");
        o.append("| new schema missing after COMPLETE | ").append(schema).append(" migration(s) |\n");
        o.append("| writes | ").append(String.format(Locale.ROOT, "%,d", commits)).append(" acknowledged, ")
                .append(failedWrites).append(" failed |\n");
        o.append("| failed writes by MariaDB error code | ").append(codes(failedWritesByCode())).append(" |\n");
        o.append("| longest write block (slowest acknowledged write) | ").append(longest()).append(" |\n");
        o.append("| longest cut-over write block (coordinator's log) | ").append(longestCutOver()).append(" |\n");
        o.append("| Connect worker killed (kill -9) | ").append(kills).append(" migration(s) |\n");
        if (!errors.isEmpty()) {
            o.append("| errors that stopped the run | ").append(errors.size()).append(" (see below) |\n");
        }
        o.append('\n');

        o.append("## Migrations\n\n");
        o.append("| # | ALTER | result | wall time | worker killed | writes: acknowledged / failed | write p99 / max"
                + " | cut-over block | mismatches |\n");
        o.append("|---|---|---|---|---|---|---|---|---|\n");
        for (MigrationResult r : results) {
            WriteWindow w = r.writes();
            o.append("| ").append(r.number()).append(" | `").append(r.alter()).append("` | ").append(r.outcome())
                    .append(r.schemaProblems() == null ? "" : ", schema missing").append(" | ")
                    .append(String.format(Locale.ROOT, "%.1f s", r.seconds())).append(" | ")
                    .append(r.kill() == null ? r.killNote().isEmpty() ? "-" : "planned, not reached"
                            : String.format(Locale.ROOT, "worker %d at %.1f s, in %s", r.kill().worker(),
                            r.kill().atSeconds(), r.kill().state())).append(" | ")
                    .append(String.format(Locale.ROOT, "%,d / %d", w.commits(), w.failed())).append(" | ")
                    .append(String.format(Locale.ROOT, "%.1f / %.0f ms", w.p99Ms(), w.maxMs())).append(" | ")
                    .append(Double.isNaN(w.blockMs()) ? "-" : String.format(Locale.ROOT, "%.0f ms", w.blockMs()))
                    .append(" | ").append(r.mismatches()).append(" |\n");
        }
        o.append('\n');

        o.append("## Notes\n\n");
        for (MigrationResult r : results) {
            o.append("- migration ").append(r.number()).append(": ").append(r.states());
            if (r.reason() != null) {
                o.append("; **").append(r.outcome()).append("**: ").append(oneLine(r.reason()));
            }
            if (!r.stalls().isEmpty()) {
                o.append("; stalled ").append(oneLine(r.stalls()));
            }
            if (r.kill() != null) {
                o.append("; ").append(r.kill().describe());
            } else if (!r.killNote().isEmpty()) {
                o.append("; ").append(r.killNote());
            }
            if (!r.errorsByCode().isEmpty()) {
                o.append("; failed writes ").append(codes(r.errorsByCode()));
                if (r.writes().firstError() != null) {
                    o.append(" (first: ").append(oneLine(r.writes().firstError())).append(")");
                }
            }
            if (r.writerMismatches() > 0) {
                o.append("; **").append(r.writerMismatches()).append(" write(s) met an unexpected row state**");
            }
            if (!r.differences().isEmpty()) {
                o.append("; **").append(oneLine(r.differences())).append("**");
            }
            if (r.schemaProblems() != null) {
                o.append("; **schema: ").append(oneLine(r.schemaProblems())).append("**");
            }
            if (!r.skipped().isEmpty()) {
                o.append("; ").append(r.skipped());
            }
            if (r.cutOver().attempts() > 0) {
                o.append("; coordinator: ").append(oneLine(r.cutOver().lines()));
            }
            o.append("; ").append(r.cleanup()).append('\n');
        }
        o.append('\n');

        o.append("## Setup\n\n");
        setup.forEach((k, v) -> o.append("- ").append(k).append(": ").append(v).append('\n'));
        o.append('\n');
        if (!errors.isEmpty()) {
            o.append("## Errors\n\n");
            errors.forEach(e -> o.append("- ").append(oneLine(e)).append('\n'));
            o.append('\n');
        }
        return o.toString();
    }

    private String longestCutOver() {
        MigrationResult best = null;
        for (MigrationResult r : results) {
            if (!Double.isNaN(r.writes().blockMs()) && (best == null || r.writes().blockMs() > best.writes().blockMs())) {
                best = r;
            }
        }
        return best == null ? "-" : String.format(Locale.ROOT, "%.0f ms (migration %d)", best.writes().blockMs(),
                best.number());
    }

    private static String oneLine(String s) {
        return s.replace("\n", " ").replace("|", "\\|");
    }

    private ObjectNode json() {
        ObjectMapper m = new ObjectMapper();
        ObjectNode root = m.createObjectNode();
        root.put("started", started);
        root.put("command", options.commandLine());
        root.put("wall_time", wallTime);
        root.put("passed", passed());
        ObjectNode opts = root.putObject("options");
        opts.put("migrations", options.migrations());
        opts.put("kill_share", options.killShare());
        opts.put("seed", options.seed());
        opts.put("rows_per_shard", options.rows());
        opts.put("write_interval_ms", options.writeIntervalMs());
        opts.put("migration_timeout_s", options.migrationTimeout().toSeconds());
        machine.json(root.putObject("machine"));
        ObjectNode st = root.putObject("setup");
        setup.forEach(st::put);
        ObjectNode sum = root.putObject("summary");
        sum.put("migrations_run", results.size());
        sum.put("completed", completed());
        sum.put("failed", results.size() - completed());
        sum.put("mismatches", mismatches());
        sum.put("table_differences", results.stream().mapToLong(MigrationResult::tableDifferences).sum());
        sum.put("writer_mismatches", results.stream().mapToLong(MigrationResult::writerMismatches).sum());
        sum.put("schema_missing", results.stream().filter(r -> r.schemaProblems() != null).count());
        sum.put("writes_acknowledged", results.stream().mapToLong(r -> r.writes().commits()).sum());
        sum.put("writes_failed", results.stream().mapToLong(r -> r.writes().failed()).sum());
        codes(sum.putObject("failed_writes_by_code"), failedWritesByCode());
        MigrationResult lw = longestWrite();
        if (lw == null) {
            sum.putNull("longest_write_ms");
        } else {
            number(sum, "longest_write_ms", lw.writes().maxMs());
            sum.put("longest_write_migration", lw.number());
        }
        sum.put("worker_kills", results.stream().filter(r -> r.kill() != null).count());
        ArrayNode arr = root.putArray("migrations");
        for (MigrationResult r : results) {
            ObjectNode n = arr.addObject();
            n.put("number", r.number());
            n.put("alter", r.alter());
            n.put("outcome", r.outcome().name());
            n.put("ok", r.ok());
            n.put("reason", r.reason());
            number(n, "seconds", r.seconds());
            n.put("states", r.states());
            n.put("stalls", r.stalls());
            n.put("skipped", r.skipped());
            if (r.kill() == null) {
                n.putNull("kill");
                n.put("kill_note", r.killNote());
            } else {
                ObjectNode k = n.putObject("kill");
                k.put("worker", r.kill().worker());
                k.put("pid", r.kill().pid());
                number(k, "at_seconds", r.kill().atSeconds());
                k.put("state", r.kill().state());
                k.put("ran", r.kill().ran());
                number(k, "restart_seconds", r.kill().restartSeconds());
                k.put("restart_error", r.kill().error());
            }
            WriteWindow w = r.writes();
            ObjectNode wn = n.putObject("writes");
            number(wn, "seconds", w.seconds());
            wn.put("acknowledged", w.commits());
            wn.put("failed", w.failed());
            codes(wn.putObject("failed_by_code"), r.errorsByCode());
            number(wn, "p50_ms", w.p50Ms());
            number(wn, "p99_ms", w.p99Ms());
            number(wn, "max_ms", w.maxMs());
            wn.put("slow", w.slow());
            wn.put("slow_ms", WriteWindow.SLOW_MS);
            wn.put("first_error", w.firstError());
            n.put("writer_mismatches", r.writerMismatches());
            n.put("table_differences", r.tableDifferences());
            n.put("differences", r.differences());
            n.put("schema_problems", r.schemaProblems());
            n.put("cutover_attempts", r.cutOver().attempts());
            number(n, "cutover_block_ms", r.cutOver().maxMs());
            n.put("cutover_lines", r.cutOver().lines());
            n.put("cleanup", r.cleanup());
        }
        ArrayNode err = root.putArray("errors");
        errors.forEach(err::add);
        return root;
    }

    private static void codes(ObjectNode n, Map<Integer, Long> byCode) {
        byCode.forEach((code, count) -> n.put(String.valueOf(code), count));
    }

    private static void number(ObjectNode n, String key, double v) {
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            n.putNull(key);
        } else {
            n.put(key, Math.round(v * 1000.0) / 1000.0);
        }
    }
}
