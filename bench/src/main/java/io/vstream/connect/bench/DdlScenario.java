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
 * A ddl scenario (issues #6 and #9): the same ALTER ({@link DdlAlter}) on the same N-row table under the same write
 * load, on a fresh copy of the table every run, on the benchmark's one shard (a single-shard keyspace {@code -}).
 * Alternately, (us) the online-DDL workflow's three connectors until the coordinator reports COMPLETE
 * ({@link OnlineDdlRun}) and (peer) {@code pt-online-schema-change} ({@link PtOnlineSchemaChange}); once per run,
 * before the pairs, the write load alone for {@value #BASELINE_SECONDS} s (the latency without a migration) and after
 * them the server's own ALTER, {@code ALGORITHM=COPY} for {@code ddl} (the lower bound of wall time; it blocks writes)
 * or {@code ALGORITHM=INSTANT} for {@code ddl-instant}. Every run must leave the table with the new schema and every
 * acknowledged write. Compared as {@link DdlTargets} says: ddl, wall time (us at most 1.0x pt-osc), the write p99
 * during the migration (no worse than pt-osc's), failed writes (none) and the cut-over's write block (under 1 s);
 * ddl instant (applied with ALGORITHM=INSTANT by the coordinator, so no cut-over), our wall time (at most 2 s) and
 * failed writes (none), the ratio to pt-osc reported.
 */
final class DdlScenario {
    static final int BASELINE_SECONDS = 10;

    private final MariaDbShards shards;
    private final BenchOptions options;
    private final String runId;
    private final DdlAlter alter;
    private final String name;

    DdlScenario(MariaDbShards shards, BenchOptions options, String runId, DdlAlter alter) {
        this.shards = shards;
        this.options = options;
        this.runId = runId;
        this.alter = alter;
        this.name = alter.reportName();
    }

    ScenarioResult run() throws Exception {
        int rows = options.scale().ddlRows();
        MariaDbServer server = shards.server(0);
        DdlTable table = new DdlTable(shards, rows, alter);
        PtOnlineSchemaChange peer = new PtOnlineSchemaChange(server, options.workDir(), alter);
        if (peer.unavailable() != null) {
            Bench.say(name + ": the peer is unavailable: " + peer.unavailable());
        }
        String cluster = "bench-" + alter.scenario();
        Map<String, String> settings = settings(table, peer, cluster);

        List<Measurement> singles = new ArrayList<>();
        Bench.say(String.format("%s: %,d-row table, ALTER %s, write load %.0f tx/s; peer %s", name, rows, alter.sql(),
                DdlTable.WRITES_PER_SECOND, peer.version() == null ? "unavailable" : peer.version()));
        singles.add(baseline(table));
        try (ConnectProcesses connect = Bench.connectCluster(cluster, options, Bench.WORKER_HEAP)) {
            ProcessCpu cpu = ProcessCpu.of(server, connect);
            OnlineDdlRun ours = new OnlineDdlRun(connect, server, "bench-" + runId + "-" + alter.scenario(), alter,
                    cpu);
            int[] run = {0};
            Alternation runs = Alternation.run(name, "rows", ScenarioResult.Goal.TIME, options.warmups(),
                    options.pairs(), () -> {
                        try (DdlTable.Run t = prepare(table, alter.hint() + "_us", ++run[0])) {
                            Measurement m = ours.run(t, rows, options.runTimeout());
                            latencies.put("us (last run)", t.latencies());
                            return m;
                        }
                    }, () -> {
                        if (peer.unavailable() != null) {
                            return Measurement.unavailable("peer", rows, peer.unavailable());
                        }
                        try (DdlTable.Run t = prepare(table, alter.hint() + "_ptosc", ++run[0])) {
                            Measurement m = peer.run(t, rows, options.runTimeout(), cpu);
                            latencies.put("pt-online-schema-change (last run)", t.latencies());
                            return m;
                        }
                    });
            singles.add(lowerBound(table, rows));
            latencyChart();
            List<ScenarioResult.Check> checks = DdlTargets.checks(alter, runs.pairs, peer.unavailable());
            String what = alter.instant() ? alter.sql() : "the same ALTER";
            return new ScenarioResult(name, String.format(Locale.ROOT, "%s on a %,d-row table under %.0f"
                            + " writes/s", what, rows, DdlTable.WRITES_PER_SECOND), "rows",
                    "vstream online DDL (3 connectors, Connect worker, Kafka)", "pt-online-schema-change",
                    DdlTargets.ratio(alter), ScenarioResult.Goal.TIME, settings, runs.warmups, runs.pairs, singles,
                    checks, peer.unavailable());
        }
    }

    /** How the runs are set up, for the report. */
    private Map<String, String> settings(DdlTable table, PtOnlineSchemaChange peer, String cluster) {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("table", String.format("%,d rows, a fresh copy for every run (a new database, preloaded by the"
                + " write load's model, ANALYZE TABLE; untimed; dropped after the run): local-runtime's standard load"
                + " table orders (id BIGINT PRIMARY KEY, k INT NOT NULL, v VARCHAR(64) NULL, amount DECIMAL(12,2) NOT"
                + " NULL, updated DATETIME(6) NOT NULL, KEY k (k)), on the benchmark's one shard (a single-shard"
                + " keyspace '-')", table.rows()));
        settings.put("ALTER", alter.sql() + " (" + alter.effect() + ")");
        settings.put("write load", table.loadDescription());
        String connectors = "the three connectors of docs/online-ddl.md deployed together (coordinator, source, sink,"
                + " in that order) with config-examples/online-ddl-*.json's settings for one shard: coordinator"
                + " workflow=online-ddl, cutover.mode=all-at-once, cutover.lock.timeout.ms=3000, poll.interval.ms"
                + " default (1000), ddl.prefer.instant default (true), ddl.copy.start=at-once (the server copy"
                + " starts from the position the coordinator records once the ghost exists); source"
                + " start.mode=migration (it streams from that position), table.include.list=orders,"
                + " heartbeat.interval.ms=200, tasks.max=1, copy settings default; sink mode=ghost, target.topology,"
                + " ghost.migration, target.binlog=on (ghost mode binlogs the ghost's writes in any case, as pt-osc's"
                + " are); the examples' converters and client settings as printed: source "
                + ExampleTuning.describe(ExampleTuning.of(OnlineDdlRun.SOURCE_EXAMPLE)) + "; sink "
                + ExampleTuning.describe(ExampleTuning.of(OnlineDdlRun.SINK_EXAMPLE)) + ". Timed from the first"
                + " deploy to the ts_ms of the coordinator's status record with state COMPLETE";
        String log = "the Connect worker process's log, bench/target/work/kafka-" + cluster + "/worker/connect.log";
        if (alter.instant()) {
            settings.put("us", connectors + ". The coordinator asks the server whether the ALTER can run with"
                    + " ALGORITHM=INSTANT (on an empty probe copy of the table) and then runs it on the shard: no"
                    + " ghost table, copy or cut-over, and the COMPLETE record's reason starts with '"
                    + OnlineDdlRun.APPLIED_INSTANTLY + "' (each run's note says whether it did); the source and sink"
                    + " have nothing to do and are deleted with it after the run (no orders_old is left)");
            settings.put(DdlTables.NO_CUT_OVER, "not applicable: the ALTER runs instantly, with no cut-over (the"
                    + " coordinator's log, " + log + ", is still read: a run that copied instead would show its"
                    + " block)");
        } else {
            settings.put("us", connectors + " (the original is kept as orders_old; drop not timed). The cut-over's"
                    + " write block: the coordinator's own measurement (LOCK TABLES acquired to UNLOCK TABLES"
                    + " returned), read from its log line 'Workflow <name>: shard - attempt <n>: SWAPPED, writes"
                    + " blocked <ms> ms' in " + log + " (neither the status records nor a listener expose it)");
        }
        settings.put("peer", (peer.version() == null ? PtOnlineSchemaChange.BINARY + " (unavailable: "
                + peer.unavailable() + ")" : peer.version()) + ": " + String.join(" ", quoted(peer.command("<db>")))
                + ", other options default (--chunk-time 0.5, triggers, the old table dropped after the swap, in the"
                + " timed window); timed from the process start to its exit (exit 0 required)");
        settings.put("CPU", "each run's note gives the CPU time (user + system, from /proc) its processes used over its"
                + " timed window: the shard's mariadbd, the Connect worker and the Kafka broker (the JVMs' JIT compiler"
                + " threads also apart: a lower bound, as the JVM ends idle compiler threads), and for the peer"
                + " pt-online-schema-change itself; the worker and broker run beside the peer too, idle. Ours is read"
                + " from the first deploy to the status record COMPLETE's arrival at the benchmark (up to 100 ms"
                + " after it), the peer's from its start to its exit");
        settings.put("lower bound", alter.lowerBoundStatement() + " over JDBC, once per run after the pairs, under"
                + " the same load" + (alter.instant() ? ": the server's own instant ALTER (it needs the table's"
                + " metadata lock for a moment; lock_wait_timeout default, so writes wait rather than fail)"
                : ": the server's own table copy, which blocks writes for the whole ALTER (lock_wait_timeout"
                + " default, so writes wait rather than fail)"));
        settings.put("baseline", "the same write load on a fresh table for " + BASELINE_SECONDS + " s with no"
                + " migration, once, before the pairs");
        settings.put("validity", "after every run orders has the new schema (" + alter.schemaDescription() + ")"
                + " and, as after the baseline, holds every acknowledged write of the load:"
                + " WriteLoad.verifyAgainst(connection, \"orders\") compares every row with the load's model");
        return settings;
    }

    /** Each write's latency over its run's window: baseline (before: no migration), us, pt-osc, the lower bound. */
    private void latencyChart() {
        List<Plots.Series> series = new ArrayList<>();
        latencies.forEach((label, points) -> series.add(new Plots.Series(label,
                points.stream().map(p -> p[0]).toList(), points.stream().map(p -> p[1]).toList())));
        Plots.add(new Plots.Chart(alter.scenario() + "-write-latency", name + ": latency of each write, before (the"
                + " load alone) and during the migration", "seconds from the load's start (the write's slot in its"
                + " fixed pace)", "write latency, ms (log scale)", series, true, true));
    }

    private static DdlTable.Run prepare(DdlTable table, String hint, int n) {
        long t0 = System.nanoTime();
        DdlTable.Run t = table.prepare(hint);
        Bench.say(String.format("  run %d: %,d rows preloaded into %s.orders in %.1f s (untimed)", n, table.rows(),
                t.database(), (System.nanoTime() - t0) / 1e9));
        return t;
    }

    /** Each write's {seconds, latency ms} per run shown in the plot: the baseline, the last runs, the lower bound. */
    private final Map<String, List<double[]>> latencies = new LinkedHashMap<>();

    /** The write load alone on a fresh table: what its latency is without a migration. */
    private Measurement baseline(DdlTable table) throws InterruptedException {
        try (DdlTable.Run t = prepare(table, alter.hint() + "_baseline", 0)) {
            WriteWindow w = t.loadAlone(Duration.ofSeconds(BASELINE_SECONDS));
            latencies.put("baseline: the load alone, no migration", t.latencies());
            String wrong = t.verify(false);
            Measurement m = new Measurement("baseline", w.seconds(), table.rows(), table.rows(), Double.NaN,
                    wrong == null, wrong == null ? "" : wrong, w);
            Bench.say(String.format(Locale.ROOT, "%s baseline: write load alone %.1f s: %s", name, w.seconds(),
                    writes(w)));
            return m;
        }
    }

    /**
     * The server's own ALTER under the same load ({@code ALGORITHM=COPY}, or {@code INSTANT} for an instant ALTER),
     * timed around the statement.
     */
    private Measurement lowerBound(DdlTable table, long rows) {
        String what = alter.lowerBoundName();
        try (DdlTable.Run t = prepare(table, alter.hint() + "_" + alter.lowerBound().toLowerCase(Locale.ROOT), 0)) {
            String failure = null;
            double seconds;
            WriteWindow w;
            t.startLoad();
            long t0 = System.nanoTime();
            try (Connection c = t.server().connect(t.database()); Statement st = c.createStatement()) {
                st.execute(alter.lowerBoundStatement());
            } catch (java.sql.SQLException e) {
                failure = "the ALTER failed: " + e.getMessage();
            } finally {
                seconds = (System.nanoTime() - t0) / 1e9;
                w = t.stopLoad();
            }
            latencies.put(what, t.latencies());
            String wrong = failure != null ? failure : t.verify(true);
            Measurement m = new Measurement(what, seconds, rows, rows, Double.NaN, wrong == null,
                    wrong == null ? "" : wrong, w);
            Bench.say(String.format(Locale.ROOT, "%s lower bound: %s %.2f s, %s%s", name, what, seconds, writes(w),
                    wrong == null ? "" : "  INVALID: " + wrong));
            return m;
        }
    }

    static String writes(WriteWindow w) {
        return String.format(Locale.ROOT, "writes p50 %.1f ms, p99 %.1f ms, max %.0f ms, %d of %d over %d ms, %d"
                + " failed", w.p50Ms(), w.p99Ms(), w.maxMs(), w.slow(), w.commits(), WriteWindow.SLOW_MS, w.failed());
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
