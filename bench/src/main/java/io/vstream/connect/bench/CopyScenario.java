package io.vstream.connect.bench;

import io.vstream.connect.testsupport.db.MariaDbServer;
import io.vstream.connect.testsupport.db.MariaDbShards;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The copy scenario: one table of N rows on one shard; alternately, (us) the source connector with
 * {@code start.mode=copy}, timed from deploy until COPY_COMPLETED is in the shard topic, and (peer)
 * {@code mariadb-dump --single-transaction --skip-lock-tables} of the same table to /dev/null. Ours must emit exactly N
 * copy rows; the dump's row count is checked once before the runs.
 */
final class CopyScenario {
    static final double TARGET = 1.0;
    /** Issue #9 sets no target against Debezium's snapshot: as fast is shown. */
    static final double TARGET_DEBEZIUM = 1.0;
    /** Issue #14's targets for the copy as the workflows deploy it: 0.25x mariadb-dump, 1.5x Debezium's snapshot. */
    static final double TARGET_WORKFLOW = 0.25;
    static final double TARGET_WORKFLOW_DEBEZIUM = 1.5;
    /** The example whose record format and producer tuning the workflow-format rounds deploy (a clone's copy). */
    static final String WORKFLOW_EXAMPLE = "clone-source.json";

    private final MariaDbShards shards;
    private final BenchOptions options;
    private final String runId;

    CopyScenario(MariaDbShards shards, BenchOptions options, String runId) {
        this.shards = shards;
        this.options = options;
        this.runId = runId;
    }

    /** The scenario's two results: us against mariadb-dump, and us (the same runs) against Debezium's snapshot. */
    List<ScenarioResult> run() throws Exception {
        int rows = options.scale().copyRows();
        MariaDbServer server = shards.server(0);
        BenchTable table = new BenchTable(server, shards.freshDatabase("copy"), "orders");
        table.create();
        Bench.say(String.format("copy: loading %,d rows into %s.%s", rows, table.database(), table.table()));
        double loadSeconds = table.copyLoad(rows);
        if (table.count() != rows) {
            throw new IllegalStateException("the copy table holds " + table.count() + " rows, not " + rows);
        }
        MariaDbDump dump = new MariaDbDump(server, options.workDir());
        long dumped = dump.countRows(table.database(), table.table());
        if (dumped != rows) {
            throw new IllegalStateException("mariadb-dump produced " + dumped + " rows, not " + rows);
        }
        Bench.say(String.format("copy: %,d rows loaded in %.1f s; an untimed mariadb-dump produced all of them", rows,
                loadSeconds));

        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("table", String.format("%,d rows; 7 columns: BIGINT key, VARCHAR(64), DECIMAL(12,2), INT,"
                + " DATETIME(6), VARCHAR(200) (1 in 7 NULL), VARCHAR(16)", rows));
        settings.put("us", "start.mode=copy, tasks.max=1, copy.* defaults (chunks adapt to copy.chunk.target.ms=500,"
                + " up to copy.chunk.max.rows=50000); timed from the deploy to the broker append time of"
                + " COPY_COMPLETED; ROW records with op=r counted up to it");
        settings.put("peer", MariaDbDump.version() + ": --single-transaction --skip-lock-tables <db> <table> over TCP,"
                + " output to /dev/null; timed from process start to exit (exit 0 required); its row count was"
                + " checked once, untimed, before the runs");

        try (ConnectProcesses connect = Bench.connectCluster("bench-copy", options, Bench.WORKER_HEAP)) {
            SourceRun ours = new SourceRun(connect, server, "bench-" + runId + "-copy", options.converter());
            Map<String, String> config = ours.baseConfig(table.database(), table.table());
            config.putAll(options.sourceProps());
            if (!options.sourceProps().isEmpty()) {
                settings.put("us: settings added (--source-prop)", options.sourceProps().toString());
            }
            config.put("start.mode", "copy");
            DebeziumPeer debezium = new DebeziumPeer(server, options.workDir(), options.converter());
            Plots.Throughput plots = new Plots.Throughput();
            Alternation runs = Alternation.run("copy", "rows", ScenarioResult.Goal.RATE, options.warmups(),
                    options.pairs(),
                    () -> plots.add("us", ours.run(config, ShardLogWatcher.End.copyCompleted(), true,
                            ShardLogWatcher.Result::copyRows, rows, options.runTimeout()), ours::lastTimeline),
                    () -> dump.timed(table.database(), table.table(), rows, options.runTimeout()),
                    () -> plots.add("Debezium snapshot", debezium.snapshot(table.database(), table.table(), rows,
                            options.runTimeout()), debezium::lastTimeline));
            settings.put("bytes per row", ours.bytesPerRow() + " bytes (key and value as serialized,"
                + " average; a ROWS record's shared by its rows)");
            Map<String, String> dbzSettings = new LinkedHashMap<>(settings);
            dbzSettings.put("peer", DebeziumPeer.description(options.converter()) + "; its initial snapshot"
                    + " (snapshot.mode=initial, snapshot settings default, fresh offsets and schema history every run);"
                    + " timed from the engine's start until it has delivered N rows of the table, each with op=r");
            dbzSettings.put("rounds", "each round runs us, mariadb-dump, then Debezium: this table pairs us's run of"
                    + " a round with Debezium's run of the same round; issue #9 sets no target against Debezium's"
                    + " snapshot, 1.0 (as fast) is shown");
            String title = String.format("%,d rows copied from one table of one shard", rows);
            plots.chart("copy", "rows");
            List<ScenarioResult> out = new java.util.ArrayList<>(List.of(new ScenarioResult("copy", title, "rows", "vstream-source copy phase (Connect worker, Kafka)",
                    "mariadb-dump", TARGET, ScenarioResult.Goal.RATE, settings, runs.warmups, runs.pairs),
                    new ScenarioResult("copy vs Debezium", title, "rows",
                            "vstream-source copy phase (Connect worker, Kafka)",
                            "Debezium MariaDB connector initial snapshot (embedded engine)", TARGET_DEBEZIUM,
                            ScenarioResult.Goal.RATE, dbzSettings, runs.warmups2, runs.pairs2)));
            if (options.sourceProps().isEmpty() && options.converter().equals("json-schemas")) {
                out.addAll(workflowFormat(ours, config, dump, debezium, table, rows, settings, dbzSettings, title));
            }
            return out;
        }
    }

    /**
     * The same rounds once more (no warm-up: the worker is warm) with the record format and producer tuning a
     * workflow's source deploys with (config-examples/{@value #WORKFLOW_EXAMPLE}: JsonConverter without schemas, the
     * producer batching and compressing): the copy phase as clones and reshards run it.
     */
    private List<ScenarioResult> workflowFormat(SourceRun ours, Map<String, String> config, MariaDbDump dump,
                                                DebeziumPeer debezium, BenchTable table, int rows,
                                                Map<String, String> settings, Map<String, String> dbzSettings,
                                                String title) throws Exception {
        Map<String, String> tuning = ExampleTuning.of(WORKFLOW_EXAMPLE);
        Map<String, String> workflow = new java.util.HashMap<>(config);
        workflow.putAll(tuning);
        Alternation runs = Alternation.run("copy workflow", "rows", ScenarioResult.Goal.RATE, 0, options.pairs(),
                () -> ours.run(workflow, ShardLogWatcher.End.copyCompleted(), true, ShardLogWatcher.Result::copyRows,
                        rows, options.runTimeout()),
                () -> dump.timed(table.database(), table.table(), rows, options.runTimeout()),
                () -> debezium.snapshot(table.database(), table.table(), rows, options.runTimeout()));
        String what = "the same as copy's us but with config-examples/" + WORKFLOW_EXAMPLE + "'s record format and"
                + " producer: " + ExampleTuning.describe(tuning) + "; run after copy's rounds in the same worker, no"
                + " warm-up";
        Map<String, String> a = new LinkedHashMap<>(settings);
        a.put("us", a.get("us") + "; " + what);
        a.put("bytes per row", ours.bytesPerRow() + " bytes (key and value as serialized,"
                + " average; a ROWS record's shared by its rows)");
        Map<String, String> b = new LinkedHashMap<>(dbzSettings);
        b.put("us", b.get("us") + "; " + what);
        b.put("bytes per row", a.get("bytes per row"));
        return List.of(new ScenarioResult("copy, workflow format", title, "rows",
                        "vstream-source copy phase, workflow format (Connect worker, Kafka)", "mariadb-dump",
                        TARGET_WORKFLOW, ScenarioResult.Goal.RATE, a, List.of(), runs.pairs),
                new ScenarioResult("copy vs Debezium, workflow format", title, "rows",
                        "vstream-source copy phase, workflow format (Connect worker, Kafka)",
                        "Debezium MariaDB connector initial snapshot (embedded engine)", TARGET_WORKFLOW_DEBEZIUM,
                        ScenarioResult.Goal.RATE, b, List.of(), runs.pairs2));
    }
}
