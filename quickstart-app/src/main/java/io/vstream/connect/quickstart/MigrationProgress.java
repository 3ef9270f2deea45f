package io.vstream.connect.quickstart;

import com.fasterxml.jackson.databind.JsonNode;
import io.vstream.connect.local.ConnectRest;
import io.vstream.connect.local.Sleeper;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;

/**
 * Follows the online ALTER until it ends, printing a line every 2 s: the workflow's state (from the status topic),
 * rows in the ghost tables against the table over all shards, the applier's lag, the write load's counts, and the
 * reason when there is one. Fails early when a task of the workflow's connectors fails. Reads the shards, Kafka and
 * the REST API.
 */
final class MigrationProgress {
    private static final List<String> FINAL = List.of("COMPLETE", "FAILED", "CANCELLED");

    private final Console out;
    private final Keyspace keyspace;
    private final ConnectRest rest;
    private final StatusWatcher watcher;
    private final LiveLoad load;

    MigrationProgress(Console out, Keyspace keyspace, ConnectRest rest, StatusWatcher watcher, LiveLoad load) {
        this.out = out;
        this.keyspace = keyspace;
        this.rest = rest;
        this.watcher = watcher;
        this.load = load;
    }

    /** Returns the workflow's last status once it is final; fails after {@code timeout}. */
    StatusWatcher.Status follow(List<String> connectors, Duration timeout, Path workerLog) {
        long deadline = System.nanoTime() + timeout.toNanos();
        String lastReason = null;
        while (true) {
            Sleeper.sleep(2_000);
            StatusWatcher.Status s = watcher.latest();
            String state = s == null ? "(waiting)" : s.state() + (s.step() == null ? "" : "/" + s.step());
            long[] rows = ghostRows();
            String progress = rows[1] == 0 ? "" : String.format("ghost %,7d / %,7d rows (%3d%%)", rows[0], rows[1],
                    Math.min(100, rows[0] * 100 / rows[1]));
            String reason = s == null ? null : s.reason();
            out.step("  %-24s %s  lag %s  load %,d tx, %d failed%s", state, progress,
                    lag(s), load.commits(),
                    load.failures(), reason != null && !reason.equals(lastReason) ? "  (" + reason + ")" : "");
            lastReason = reason;
            if (s != null && FINAL.contains(s.state())) {
                return s;
            }
            failOnFailedTask(connectors);
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the online ALTER did not complete within " + timeout.toSeconds()
                        + " s (last status " + s + "); see " + workerLog);
            }
        }
    }

    /** The applier's lag in seconds (the coordinator's lag_ms), else in transactions. */
    private static String lag(StatusWatcher.Status s) {
        if (s == null) {
            return "-";
        }
        if (s.lagMs() != null) {
            return String.format("%.1f s", s.lagMs() / 1000.0);
        }
        return s.lagTransactions() == null ? "-" : s.lagTransactions() + " tx";
    }

    private void failOnFailedTask(List<String> connectors) {
        for (String connector : connectors) {
            JsonNode status = rest.status(connector);
            if (status == null) {
                continue;
            }
            for (JsonNode task : status.path("tasks")) {
                if ("FAILED".equals(task.path("state").asText())) {
                    throw new IllegalStateException("a task of " + connector + " failed: "
                            + task.path("trace").asText().lines().findFirst().orElse(""));
                }
            }
        }
    }

    /** Rows in the ghost tables and in the tables, over all shards; zeros when there is no ghost (yet, or anymore). */
    private long[] ghostRows() {
        long ghost = 0;
        long total = 0;
        for (MariaDbShard s : keyspace.shards()) {
            try (Connection c = s.connect(SampleData.DB); Statement st = c.createStatement()) {
                try (ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM orders")) {
                    rs.next();
                    total += rs.getLong(1);
                }
                try (ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM _orders_gho")) {
                    rs.next();
                    ghost += rs.getLong(1);
                }
            } catch (SQLException e) {
                return new long[] {0, 0};
            }
        }
        return new long[] {ghost, total};
    }
}
