package io.vstream.connect.bench;

import io.vstream.connect.core.position.GtidPosition;
import io.vstream.connect.testsupport.db.MariaDbServer;
import io.vstream.connect.testsupport.db.MariaDbShards;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The clone scenario: one table of N rows on the shard (the copy scenario's table and load) and a second, empty
 * {@code mariadbd} as the target; alternately, (us) the source connector ({@code start.mode=copy}) and the sink
 * connector ({@code mode=clone}) deployed together, timed until the target is a caught-up clone (see
 * {@link CloneRun}), and (peer) {@code mariadb-dump | mariadb} of the same table into the target (see
 * {@link DumpRestore}). Both must leave the target table equal to the source's by row count and checksum; the target
 * is emptied after every run. The target is time: us at most 1.5x the peer's time.
 */
final class CloneScenario {
    static final double TARGET = 1.5;

    private final MariaDbShards shards;
    private final BenchOptions options;
    private final String runId;

    CloneScenario(MariaDbShards shards, BenchOptions options, String runId) {
        this.shards = shards;
        this.options = options;
        this.runId = runId;
    }

    ScenarioResult run() throws Exception {
        int rows = options.scale().copyRows();
        MariaDbServer source = shards.server(0);
        BenchTable table = new BenchTable(source, shards.freshDatabase("clone"), "orders");
        table.create();
        Bench.say(String.format("clone: loading %,d rows into %s.%s", rows, table.database(), table.table()));
        double loadSeconds = table.copyLoad(rows);
        String sourceGtids = source.gtidBinlogPos();
        BenchTable.Checksum expected = table.checksum();
        if (expected.rows() != rows) {
            throw new IllegalStateException("the clone table holds " + expected.rows() + " rows, not " + rows);
        }
        GtidPosition wanted = GtidPosition.parse("MariaDB/" + sourceGtids);
        Bench.say(String.format("clone: %,d rows loaded in %.1f s; source at GTID %s; %s", rows, loadSeconds,
                sourceGtids, expected));

        long t0 = System.nanoTime();
        try (MariaDbShards targets = MariaDbShards.builder().count(1).name("bench-target")
                .baseDir(options.workDir().resolve("mariadb")).extraConfig(Bench.SHARD_CONFIG).build().start()) {
            MariaDbServer targetServer = targets.server(0);
            Bench.say(String.format("clone: target server started in %.1f s (port %d)", (System.nanoTime() - t0) / 1e9,
                    targetServer.port()));
            CloneTarget target = new CloneTarget(source, targetServer, table.database(), table.table(), expected);
            target.reset(CloneRun.STATE_DATABASE);
            MariaDbDump dump = new MariaDbDump(source, options.workDir());
            DumpRestore peer = new DumpRestore(dump, target, options.workDir());

            Map<String, String> settings = new LinkedHashMap<>();
            settings.put("table", String.format("%,d rows (the copy scenario's table and load); 7 columns: BIGINT key,"
                    + " VARCHAR(64), DECIMAL(12,2), INT, DATETIME(6), VARCHAR(200) (1 in 7 NULL), VARCHAR(16); the"
                    + " source's GTID position after the load: %s", rows, sourceGtids));
            settings.put("target", "a second mariadbd started by the benchmark with the shard's settings ("
                    + String.join(", ", Bench.SHARD_CONFIG) + "), empty at the start of every run: after each run"
                    + " the cloned database and the sink's state database (" + CloneRun.STATE_DATABASE + ") are"
                    + " dropped, once no client is connected to either server");
            settings.put("us", "the source connector (start.mode=copy, tasks.max=1, copy.* defaults; from"
                    + " config-examples/" + CloneRun.SOURCE_EXAMPLE + ": "
                    + ExampleTuning.describe(ExampleTuning.of(CloneRun.SOURCE_EXAMPLE)) + ") and the sink"
                    + " connector (mode=clone, tasks.max=1, table.engine=InnoDB, target.binlog=off, other settings"
                    + " default; from config-examples/" + CloneRun.SINK_EXAMPLE + ": "
                    + ExampleTuning.describe(ExampleTuning.of(CloneRun.SINK_EXAMPLE)) + ") deployed together, as the"
                    + " examples deploy them (--converter does not apply); timed from the first deploy until the target's "
                    + CloneRun.STATE_DATABASE + ".applied row of the stream says the copy has completed and its"
                    + " position contains the source's (the updated_at of that row, polled every " + CloneRun.POLL_MS
                    + " ms); then the target table's COUNT(*) and BIT_XOR(CRC32(CONCAT_WS(...))) over all columns"
                    + " must equal the source's");
            settings.put("peer", MariaDbDump.version() + ": --single-transaction --skip-lock-tables <db> <table>"
                    + " piped (an OS pipe, no shell) into `mariadb --init-command='SET SESSION sql_log_bin=0' <db>`"
                    + " on the target, both over TCP, into a database created (untimed) just before; timed from the"
                    + " start of both processes until both exit (exit 0 required); then the same count and checksum"
                    + " check");

            try (ConnectProcesses connect = Bench.connectCluster("bench-clone", options, Bench.WORKER_HEAP)) {
                CloneRun ours = new CloneRun(connect, source, target, "bench-" + runId + "-clone", wanted);
                Alternation runs = Alternation.run("clone", "rows", ScenarioResult.Goal.TIME, options.warmups(),
                        options.pairs(), () -> ours.run(options.runTimeout()),
                        () -> peer.run(options.runTimeout()));
                settings.put("bytes per row", ours.bytesPerRow() + " bytes (key and value as serialized, average"
                        + " of the first records of the topic; a ROWS record's shared by its rows)");
                return new ScenarioResult("clone", String.format("a caught-up clone of one %,d-row table into an"
                        + " empty server", rows), "rows", "vstream source + sink (Connect worker, Kafka)",
                        "mariadb-dump | mariadb", TARGET, ScenarioResult.Goal.TIME, settings, runs.warmups,
                        runs.pairs);
            }
        }
    }
}
