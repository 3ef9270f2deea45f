package io.vstream.connect.bench;

import io.vstream.connect.testsupport.db.MariaDbServer;
import io.vstream.connect.testsupport.db.MariaDbShards;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * The ddl scenario (issues #6 and #9): the same ALTER on the same N-row table under the same write load, on a fresh
 * copy of the table every run, on the benchmark's one shard (a single-shard keyspace {@code -}). Alternately, (us) the
 * online-DDL workflow's three connectors until the coordinator reports COMPLETE ({@link OnlineDdlRun}) and (peer)
 * {@code pt-online-schema-change} ({@link PtOnlineSchemaChange}); once per run, before the pairs, the write load alone
 * for {@value #BASELINE_SECONDS} s (the latency without a migration) and after them the server's own
 * {@code ALTER TABLE ... ALGORITHM=COPY} (the lower bound of wall time; it blocks writes). Every run must leave the
 * table with the new schema and every acknowledged write. Compared: wall time (us at most 1.0x pt-osc), the write
 * p99 during the migration (no worse than pt-osc's), failed writes (none) and the cut-over's write block (under 1 s).
 */
final class DdlScenario {
    static final double TARGET = 1.0;
    static final double BLOCK_TARGET_MS = 1000;
    static final int BASELINE_SECONDS = 10;

    private final MariaDbShards shards;
    private final BenchOptions options;
    private final String runId;

    DdlScenario(MariaDbShards shards, BenchOptions options, String runId) {
        this.shards = shards;
        this.options = options;
        this.runId = runId;
    }

    ScenarioResult run() throws Exception {
        int rows = options.scale().ddlRows();
        MariaDbServer server = shards.server(0);
        DdlTable table = new DdlTable(shards, rows);
        PtOnlineSchemaChange peer = new PtOnlineSchemaChange(server, options.workDir());
        if (peer.unavailable() != null) {
            Bench.say("ddl: the peer is unavailable: " + peer.unavailable());
        }

        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("table", String.format("%,d rows, a fresh copy for every run (a new database, preloaded by the"
                + " write load's model, ANALYZE TABLE; untimed; dropped after the run): test-support's standard load"
                + " table orders (id BIGINT PRIMARY KEY, k INT NOT NULL, v VARCHAR(64) NULL, amount DECIMAL(12,2) NOT"
                + " NULL, updated DATETIME(6) NOT NULL, KEY k (k)), on the benchmark's one shard (a single-shard"
                + " keyspace '-')", rows));
        settings.put("ALTER", DdlTable.ALTER + " (the column's type changes: every tool copies the table)");
        settings.put("write load", table.loadDescription());
        settings.put("us", "the three connectors of docs/online-ddl.md deployed together (coordinator, source, sink,"
                + " in that order) with config-examples/online-ddl-*.json's settings for one shard: coordinator"
                + " workflow=online-ddl, cutover.mode=all-at-once, cutover.lock.timeout.ms=3000, poll.interval.ms"
                + " default (1000); source start.mode=current (server copy by the coordinator), table.include.list=orders, heartbeat.interval.ms=200,"
                + " tasks.max=1, copy settings default; sink mode=ghost, target.topology, ghost.migration,"
                + " target.binlog=on (ghost mode binlogs the ghost's writes in any case, as pt-osc's are); JsonConverter with schemas."
                + " Timed from the first deploy to the ts_ms of the coordinator's status record with state COMPLETE"
                + " (the original is kept as orders_old; drop not timed). The cut-over's write block: the"
                + " coordinator's own measurement (LOCK TABLES acquired to UNLOCK TABLES returned), read from its"
                + " log line 'Workflow <name>: shard - attempt <n>: SWAPPED, writes blocked <ms> ms' in"
                + " the Connect worker process's log, bench/target/work/kafka-bench-ddl/logs/connect.log (neither the status records nor a listener expose it)");
        settings.put("peer", (peer.version() == null ? PtOnlineSchemaChange.BINARY + " (unavailable: "
                + peer.unavailable() + ")" : peer.version()) + ": " + String.join(" ", quoted(peer.command("<db>")))
                + ", other options default (--chunk-time 0.5, triggers, the old table dropped after the swap, in the"
                + " timed window); timed from the process start to its exit (exit 0 required)");
        settings.put("lower bound", "ALTER TABLE orders " + DdlTable.ALTER + ", ALGORITHM=COPY over JDBC, once per"
                + " run after the pairs, under the same load: the server's own table copy, which blocks writes for"
                + " the whole ALTER (lock_wait_timeout default, so writes wait rather than fail)");
        settings.put("baseline", "the same write load on a fresh table for " + BASELINE_SECONDS + " s with no"
                + " migration, once, before the pairs");
        settings.put("validity", "after every run (and the baseline) orders has the new schema (amount"
                + " decimal(14,2), index k_amount (k, amount)) and holds every acknowledged write of the load:"
                + " WriteLoad.verifyAgainst(connection, \"orders\") compares every row with the load's model");

        List<Measurement> singles = new ArrayList<>();
        Bench.say(String.format("ddl: %,d-row table, ALTER %s, write load %.0f tx/s; peer %s", rows, DdlTable.ALTER,
                DdlTable.WRITES_PER_SECOND, peer.version() == null ? "unavailable" : peer.version()));
        singles.add(baseline(table));
        try (ConnectProcesses connect = Bench.connectCluster("bench-ddl", options, Bench.WORKER_HEAP)) {
            OnlineDdlRun ours = new OnlineDdlRun(connect, server, "bench-" + runId + "-ddl");
            int[] run = {0};
            Alternation runs = Alternation.run("ddl", "rows", ScenarioResult.Goal.TIME, options.warmups(),
                    options.pairs(), () -> {
                        try (DdlTable.Run t = prepare(table, "ddl_us", ++run[0])) {
                            Measurement m = ours.run(t, rows, options.runTimeout());
                            latencies.put("us (last run)", t.latencies());
                            return m;
                        }
                    }, () -> {
                        if (peer.unavailable() != null) {
                            return Measurement.unavailable("peer", rows, peer.unavailable());
                        }
                        try (DdlTable.Run t = prepare(table, "ddl_ptosc", ++run[0])) {
                            Measurement m = peer.run(t, rows, options.runTimeout());
                            latencies.put("pt-online-schema-change (last run)", t.latencies());
                            return m;
                        }
                    });
            singles.add(alterCopy(table, rows));
            latencyChart();
            List<ScenarioResult.Check> checks = checks(runs.pairs, peer.unavailable());
            return new ScenarioResult("ddl", String.format(Locale.ROOT, "the same ALTER on a %,d-row table under %.0f"
                            + " writes/s", rows, DdlTable.WRITES_PER_SECOND), "rows",
                    "vstream online DDL (3 connectors, Connect worker, Kafka)", "pt-online-schema-change", TARGET,
                    ScenarioResult.Goal.TIME, settings, runs.warmups, runs.pairs, singles, checks,
                    peer.unavailable());
        }
    }

    /** Each write's latency over its run's window: baseline (before: no migration), us, pt-osc, ALGORITHM=COPY. */
    private void latencyChart() {
        List<Plots.Series> series = new ArrayList<>();
        latencies.forEach((name, points) -> series.add(new Plots.Series(name,
                points.stream().map(p -> p[0]).toList(), points.stream().map(p -> p[1]).toList())));
        Plots.add(new Plots.Chart("ddl-write-latency", "ddl: latency of each write, before (the load alone) and during"
                + " the migration", "seconds from the load's start (the write's slot in its fixed pace)",
                "write latency, ms (log scale)", series, true, true));
    }

    private static DdlTable.Run prepare(DdlTable table, String hint, int n) {
        long t0 = System.nanoTime();
        DdlTable.Run t = table.prepare(hint);
        Bench.say(String.format("  run %d: %,d rows preloaded into %s.orders in %.1f s (untimed)", n, table.rows(),
                t.database(), (System.nanoTime() - t0) / 1e9));
        return t;
    }

    /** The write load alone on a fresh table: what its latency is without a migration. */
    private final Map<String, List<double[]>> latencies = new LinkedHashMap<>();

    private Measurement baseline(DdlTable table) throws InterruptedException {
        try (DdlTable.Run t = prepare(table, "ddl_baseline", 0)) {
            WriteWindow w = t.loadAlone(Duration.ofSeconds(BASELINE_SECONDS));
            latencies.put("baseline: the load alone, no migration", t.latencies());
            String wrong = t.verify(false);
            Measurement m = new Measurement("baseline", w.seconds(), table.rows(), table.rows(), Double.NaN,
                    wrong == null, wrong == null ? "" : wrong, w);
            Bench.say(String.format(Locale.ROOT, "ddl baseline: write load alone %.1f s: %s", w.seconds(), writes(w)));
            return m;
        }
    }

    /** The server's own ALTER ... ALGORITHM=COPY under the same load, timed around the statement. */
    private Measurement alterCopy(DdlTable table, long rows) {
        try (DdlTable.Run t = prepare(table, "ddl_copy", 0)) {
            String failure = null;
            double seconds;
            WriteWindow w;
            t.startLoad();
            long t0 = System.nanoTime();
            try (Connection c = t.server().connect(t.database()); Statement st = c.createStatement()) {
                st.execute("ALTER TABLE " + DdlTable.TABLE + " " + DdlTable.ALTER + ", ALGORITHM=COPY");
            } catch (java.sql.SQLException e) {
                failure = "the ALTER failed: " + e.getMessage();
            } finally {
                seconds = (System.nanoTime() - t0) / 1e9;
                w = t.stopLoad();
            }
            latencies.put("ALTER TABLE ... ALGORITHM=COPY", t.latencies());
            String wrong = failure != null ? failure : t.verify(true);
            Measurement m = new Measurement("ALTER TABLE ... ALGORITHM=COPY", seconds, rows, rows, Double.NaN,
                    wrong == null, wrong == null ? "" : wrong, w);
            Bench.say(String.format(Locale.ROOT, "ddl lower bound: ALTER TABLE ... ALGORITHM=COPY %.2f s, %s%s",
                    seconds, writes(w), wrong == null ? "" : "  INVALID: " + wrong));
            return m;
        }
    }

    static String writes(WriteWindow w) {
        return String.format(Locale.ROOT, "writes p50 %.1f ms, p99 %.1f ms, max %.0f ms, %d of %d over %d ms, %d"
                + " failed", w.p50Ms(), w.p99Ms(), w.maxMs(), w.slow(), w.commits(), WriteWindow.SLOW_MS, w.failed());
    }

    /** The targets of issue #9 besides the wall-time ratio. */
    static List<ScenarioResult.Check> checks(List<ScenarioResult.Pair> pairs, String peerMissing) {
        List<Measurement> us = new ArrayList<>();
        List<Measurement> peer = new ArrayList<>();
        for (ScenarioResult.Pair p : pairs) {
            if (p.us().valid()) {
                us.add(p.us());
            }
            if (p.peer().valid()) {
                peer.add(p.peer());
            }
        }
        List<ScenarioResult.Check> checks = new ArrayList<>();
        Stats usP99 = stat(us, w -> w.p99Ms());
        Stats peerP99 = stat(peer, w -> w.p99Ms());
        if (us.isEmpty() || peer.isEmpty()) {
            checks.add(new ScenarioResult.Check("write p99 during the migration no worse than pt-osc's", null,
                    peerMissing != null ? "pt-online-schema-change unavailable" : "no valid runs to compare"));
        } else {
            checks.add(new ScenarioResult.Check("write p99 during the migration no worse than pt-osc's",
                    usP99.median() <= peerP99.median(), String.format(Locale.ROOT, "median p99 us %.1f ms, pt-osc"
                    + " %.1f ms", usP99.median(), peerP99.median())));
        }
        long failed = 0;
        long writes = 0;
        for (ScenarioResult.Pair p : pairs) {
            if (p.us().writes() != null) {
                failed += p.us().writes().failed();
                writes += p.us().writes().commits() + p.us().writes().failed();
            }
        }
        checks.add(new ScenarioResult.Check("zero failed writes", us.isEmpty() ? null : failed == 0,
                String.format(Locale.ROOT, "%,d failed of %,d in our %d counted runs", failed, writes, pairs.size())));
        double maxBlock = Double.NaN;
        boolean unknown = us.isEmpty();
        for (Measurement m : us) {
            double b = m.writes().blockMs();
            if (Double.isNaN(b)) {
                unknown = true;
            } else {
                maxBlock = Double.isNaN(maxBlock) ? b : Math.max(maxBlock, b);
            }
        }
        checks.add(new ScenarioResult.Check("cut-over write block under 1 s", unknown ? null
                : maxBlock < BLOCK_TARGET_MS, unknown ? "not found in the coordinator's log"
                : String.format(Locale.ROOT, "longest %.0f ms (coordinator's log)", maxBlock)));
        return checks;
    }

    static Stats stat(List<Measurement> runs, ToDoubleFunction<WriteWindow> f) {
        List<Double> v = new ArrayList<>();
        for (Measurement m : runs) {
            if (m.writes() != null) {
                v.add(f.applyAsDouble(m.writes()));
            }
        }
        return Stats.of(v);
    }

    private static List<String> quoted(List<String> command) {
        List<String> out = new ArrayList<>();
        for (String a : command) {
            out.add(a.contains(" ") ? "\"" + a + "\"" : a);
        }
        return out;
    }
}
