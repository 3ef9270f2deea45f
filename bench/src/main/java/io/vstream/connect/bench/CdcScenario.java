package io.vstream.connect.bench;

import io.vstream.connect.testsupport.db.MariaDbServer;
import io.vstream.connect.testsupport.db.MariaDbShards;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The CDC scenario: a load of row changes is written to one shard's binlog first; then, alternately, (us) the source
 * connector deployed with {@code start.mode=position} at the GTID before the load, timed from deploy until the shard
 * topic holds the COMMIT of the load's last transaction, and (peer) the bare binlog client reading the same binlog from
 * the same GTID until that transaction commits. Both must count exactly the load's row changes.
 */
final class CdcScenario {
    static final double TARGET = 0.7;
    /** Issue #9: at least as fast as Debezium's MariaDB connector. */
    static final double TARGET_DEBEZIUM = 1.0;

    private final MariaDbShards shards;
    private final BenchOptions options;
    private final String runId;
    private Footprint footprint;

    CdcScenario(MariaDbShards shards, BenchOptions options, String runId) {
        this.shards = shards;
        this.options = options;
        this.runId = runId;
    }

    /**
     * The same rounds once more (no warm-up: the worker is warm) with {@code extra} over cdc's settings, reported as
     * {@code "cdc, <variant>"} and {@code "cdc vs Debezium, <variant>"}: a setting the profile points at, measured in
     * the same run.
     */
    private List<ScenarioResult> variant(String variant, Map<String, String> extra, String what, SourceRun ours,
                                         Map<String, String> config, BareBinlogReader peer, DebeziumPeer debezium,
                                         BenchTable table, BenchTable.Load load, Map<String, String> settings,
                                         Map<String, String> dbzSettings, String title) throws Exception {
        Map<String, String> changed = new java.util.HashMap<>(config);
        changed.putAll(extra);
        long expected = load.rowChanges();
        Alternation runs = Alternation.run("cdc " + variant, "row changes", ScenarioResult.Goal.RATE, 0,
                options.pairs(),
                () -> ours.run(changed, ShardLogWatcher.End.commitOf(load.lastGtid()), false,
                        ShardLogWatcher.Result::rows, expected, options.runTimeout()),
                () -> peer.read(table.database(), table.table(), load.startGtid(), load.lastGtid(), expected,
                        options.runTimeout()),
                () -> debezium.stream(table.database(), table.table(), load.lastGtid(), expected,
                        options.runTimeout()));
        String described = "the same as cdc's us but for " + what + ": " + ExampleTuning.describe(extra)
                + "; run after cdc's rounds in the same worker, no warm-up";
        Map<String, String> a = new LinkedHashMap<>(settings);
        a.put("us", a.get("us") + "; " + described);
        a.put("bytes per row", ours.bytesPerRow() + " bytes (key and value as serialized, average)");
        Map<String, String> b = new LinkedHashMap<>(dbzSettings);
        b.put("us", b.get("us") + "; " + described);
        b.put("bytes per row", a.get("bytes per row"));
        String us = "vstream-source, " + variant + " (Connect worker, Kafka)";
        return List.of(new ScenarioResult("cdc, " + variant, title, "row changes", us, "bare binlog client", TARGET,
                        ScenarioResult.Goal.RATE, a, List.of(), runs.pairs),
                new ScenarioResult("cdc vs Debezium, " + variant, title, "row changes", us,
                        "Debezium MariaDB connector (embedded engine)", TARGET_DEBEZIUM, ScenarioResult.Goal.RATE, b,
                        List.of(), runs.pairs2));
    }

    /** The example whose settings the "examples' settings" runs deploy. */
    static final String EXAMPLE = "cdc-source.json";

    /** The producer settings of the "producer batched" runs (not a default of ours: an experiment the report shows). */
    static final Map<String, String> BATCHED_PRODUCER = new java.util.TreeMap<>(Map.of(
            "producer.override.batch.size", "1048576",
            "producer.override.linger.ms", "20",
            "producer.override.compression.type", "lz4"));

    /** The worker's footprint over the scenario, or null before {@link #run} or when it failed. */
    Footprint footprint() {
        return footprint;
    }

    /** The scenario's two results: us against the bare binlog client, and us (the same runs) against Debezium. */
    List<ScenarioResult> run() throws Exception {
        Scale scale = options.scale();
        MariaDbServer server = shards.server(0);
        BenchTable table = new BenchTable(server, shards.freshDatabase("cdc"), "orders");
        table.create();
        DebeziumPeer debezium = new DebeziumPeer(server, options.workDir(), options.converter());
        Bench.say("cdc: starting Debezium once on the empty table to keep its start offset (before the load)");
        debezium.prepareStream(table.database(), table.table(), options.runTimeout());
        Bench.say(String.format("cdc: loading %,d inserts and %,d updates in transactions of %d rows into %s.%s",
                scale.cdcInsertRows(), scale.cdcUpdateRows(), Scale.TXN_ROWS, table.database(), table.table()));
        BenchTable.Load load = table.cdcLoad(scale.cdcInsertRows(), scale.cdcUpdateRows(), Scale.TXN_ROWS);
        if (load.rowChanges() != scale.cdcRowChanges()) {
            throw new IllegalStateException("the load wrote " + load.rowChanges() + " row changes, not "
                    + scale.cdcRowChanges());
        }
        Bench.say(String.format("cdc: %,d row changes in %,d transactions (GTIDs after %s up to %s) in %.1f s",
                load.rowChanges(), load.transactions(), load.startGtid(), load.lastGtid(), load.seconds()));

        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("load", String.format("%,d INSERT transactions of %d rows, %,d UPDATE transactions of %d rows;"
                        + " %,d row changes in %,d transactions", scale.cdcInsertRows() / Scale.TXN_ROWS, Scale.TXN_ROWS,
                scale.cdcUpdateRows() / Scale.TXN_ROWS, Scale.TXN_ROWS, load.rowChanges(), load.transactions()));
        settings.put("table", "7 columns: BIGINT key, VARCHAR(64), DECIMAL(12,2), INT, DATETIME(6), VARCHAR(200)"
                + " (1 in 7 NULL), VARCHAR(16)");
        settings.put("us", "start.mode=position at MariaDB/" + load.startGtid() + ", tasks.max=1, other settings"
                + " default; the worker process runs with -Xmx" + Footprint.HEAP + " (the footprint section); timed from the deploy (PUT /connectors/{name}/config) to the broker append time of the"
                + " COMMIT of " + load.lastGtid() + "; ROW records counted up to it");
        settings.put("peer", "BinaryLogClient (mysql-binlog-connector-java), default deserializers with"
                + " DATE_AND_TIME_AS_LONG_MICRO and CHAR_AND_BINARY_AS_BYTE_ARRAY, from GTID " + load.startGtid()
                + "; timed from connect() to the XID of " + load.lastGtid() + "; row changes of the table counted");

        try (ConnectProcesses connect = Bench.connectCluster("bench-cdc", options, Footprint.HEAP);
             MemorySampler memory = new MemorySampler(connect.workerPid())) {
            List<Footprint.Run> footprintRuns = new ArrayList<>();
            SourceRun ours = new SourceRun(connect, server, "bench-" + runId + "-cdc", options.converter());
            BareBinlogReader peer = new BareBinlogReader(server);
            Map<String, String> config = ours.baseConfig(table.database(), table.table());
            config.putAll(options.sourceProps());
            if (!options.sourceProps().isEmpty()) {
                settings.put("us: settings added (--source-prop)", options.sourceProps().toString());
            }
            config.put("start.mode", "position");
            config.put("start.position", "{\"shard_gtids\":[{\"keyspace\":\"" + SourceRun.KEYSPACE + "\",\"shard\":\""
                    + SourceRun.SHARD + "\",\"gtid\":\"MariaDB/" + load.startGtid() + "\"}]}");
            long expected = load.rowChanges();
            Plots.Throughput plots = new Plots.Throughput();
            Alternation runs = Alternation.run("cdc", "row changes", ScenarioResult.Goal.RATE, options.warmups(),
                    options.pairs(),
                    () -> {
                        double start = memory.now();
                        MemorySampler.Sample before = memory.at(start);
                        Measurement m = ours.run(config, ShardLogWatcher.End.commitOf(load.lastGtid()), false,
                                ShardLogWatcher.Result::rows, expected, options.runTimeout());
                        Thread.sleep(2 * MemorySampler.INTERVAL_MS);
                        double end = memory.now();
                        MemorySampler.Sample after = memory.at(end);
                        footprintRuns.add(new Footprint.Run((footprintRuns.size() < options.warmups() ? "warm-up "
                                : "pair ") + (footprintRuns.size() < options.warmups() ? footprintRuns.size() + 1
                                : footprintRuns.size() - options.warmups() + 1), start, end, m.valid(), m.rate(),
                                after == null ? Double.NaN : after.heapUsedMb(),
                                after == null ? Double.NaN : after.oldUsedMb(),
                                after == null ? Double.NaN : after.rssMb(),
                                after == null ? Double.NaN : after.gcSeconds() - (before == null ? 0 : before.gcSeconds())));
                        return plots.add("us", m, ours::lastTimeline);
                    },
                    () -> plots.add("binlog client", peer.read(table.database(), table.table(), load.startGtid(),
                            load.lastGtid(), expected, options.runTimeout()), peer::lastTimeline),
                    () -> plots.add("Debezium", debezium.stream(table.database(), table.table(), load.lastGtid(),
                            expected, options.runTimeout()), debezium::lastTimeline));
            settings.put("bytes per row", ours.bytesPerRow() + " bytes (key and value as serialized,"
                + " average; a ROWS record's shared by its rows)");
            Map<String, String> dbzSettings = new LinkedHashMap<>(settings);
            dbzSettings.remove("peer");
            dbzSettings.put("peer", DebeziumPeer.description(options.converter()) + "; started once before the"
                    + " load with snapshot.mode=no_data until a marker row came through, and every run from a copy of"
                    + " that offset and schema history (so from the same place in the binlog as the others); timed"
                    + " from the engine's start to the delivery of the load's last row change, which must be of "
                    + load.lastGtid() + "; the table's row changes counted");
            dbzSettings.put("rounds", "each round runs us, the bare binlog client, then Debezium: this table pairs"
                    + " us's run of a round with Debezium's run of the same round");
            String title = String.format("%,d row changes read from one shard's binlog", load.rowChanges());
            ScenarioResult binlog = new ScenarioResult("cdc", title, "row changes",
                    "vstream-source (Connect worker, Kafka)", "bare binlog client", TARGET, ScenarioResult.Goal.RATE,
                    settings, runs.warmups, runs.pairs);
            ScenarioResult dbz = new ScenarioResult("cdc vs Debezium", title, "row changes",
                    "vstream-source (Connect worker, Kafka)", "Debezium MariaDB connector (embedded engine)",
                    TARGET_DEBEZIUM, ScenarioResult.Goal.RATE, dbzSettings, runs.warmups2, runs.pairs2);
            plots.chart("cdc", "row changes");
            plots.lagChart("cdc", "row changes", expected);
            footprint = new Footprint(footprintRuns, memory.samples());
            Plots.add(footprint.chart());
            List<ScenarioResult> out = new ArrayList<>(List.of(binlog, dbz));
            if (options.sourceProps().isEmpty()) {
                out.addAll(variant("producer batched", BATCHED_PRODUCER, "the producer of the connector"
                                + " (connector-level producer.override.*; the defaults are batch.size=16384,"
                                + " linger.ms=5, no compression)", ours, config, peer, debezium, table, load,
                        settings, dbzSettings, title));
                Map<String, String> examples = ExampleTuning.of(EXAMPLE);
                out.addAll(variant("examples' settings", examples, "the producer and converter settings of"
                                + " config-examples/" + EXAMPLE + " (SchemaCachingJsonConverter: JsonConverter's"
                                + " bytes with schemas, each schema's JSON kept; consumers read them with"
                                + " JsonConverter)", ours, config, peer, debezium, table, load, settings,
                        dbzSettings, title));
            }
            return out;
        }
    }
}
