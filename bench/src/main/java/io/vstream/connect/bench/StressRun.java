package io.vstream.connect.bench;

import io.vstream.connect.core.event.TopicNames;
import io.vstream.connect.local.load.LoadStats;
import io.vstream.connect.local.load.LoadTable;
import io.vstream.connect.local.load.Target;
import io.vstream.connect.local.load.WriteLoad;
import io.vstream.connect.local.load.WriteLoadBuilder;
import io.vstream.connect.testsupport.db.MariaDbServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;

/**
 * One migration of the stress command at a time, on the one table of two shards ({@code -80}, {@code 80-}): a write
 * load of its own (local-runtime's {@link WriteLoad}, continuing the previous migration's model), the three connectors
 * of docs/online-ddl.md deployed through REST with the coordinator watching the other two, the wait for the status
 * record COMPLETE (or FAILED), a planned {@code kill -9} of a Connect worker at its moment ({@link WorkerKiller}),
 * then, with the load stopped and the connectors deleted, the checks and the clean-up ({@link StressCheck}). Writes
 * to the shards (the load, the clean-up) and deploys on the Connect workers.
 */
final class StressRun {
    static final String TABLE = "orders";
    /** The coordinator's default ghost name ({@code ddl.ghost.name.format}). */
    static final String GHOST = "_orders_gho";
    static final List<String> SHARDS = List.of("-80", "80-");
    /** How long the load keeps writing after COMPLETE: writes to the new table, before the check. */
    private static final long AFTER_COMPLETE_MS = 2_000;
    private static final double DELETE_RATIO = 0.25;

    private final ConnectProcesses connect;
    private final List<MariaDbServer> servers;
    private final String database;
    private final StressOptions options;
    private final String runPrefix;
    private final WorkerKiller killer;
    private WriteLoad model;

    StressRun(ConnectProcesses connect, List<MariaDbServer> servers, String database, StressOptions options,
              String runPrefix) {
        this.connect = connect;
        this.servers = servers;
        this.database = database;
        this.options = options;
        this.runPrefix = runPrefix;
        this.killer = new WorkerKiller(connect);
    }

    static int threads() {
        return Runtime.getRuntime().availableProcessors();
    }

    double transactionsPerSecond() {
        return threads() * 1000.0 / options.writeIntervalMs();
    }

    private int keySpace() {
        int preloaded = 2 * options.rows();
        return preloaded + preloaded / 10;
    }

    /** How the load writes, for the report. */
    String loadDescription() {
        return String.format(Locale.ROOT, "local-runtime's WriteLoad, one per migration (each continues the previous"
                + " one's model of acknowledged writes): %d writer threads (the CPUs), each one transaction every %d ms"
                + " (%.0f transactions/s in all, a fixed pace), 1-3 single-row statements per transaction on keys"
                + " 1..%,d routed to a shard by key modulo 2 (%,d preloaded per shard): INSERT of a key the model"
                + " has not, else UPDATE of every column but the key or (%.0f%%) DELETE; failOnError(false): a failed"
                + " write is counted by its MariaDB error code and the load goes on. It starts with the deploy and"
                + " stops %.0f s after COMPLETE (writes to the new table), then the shards are compared with the"
                + " model. A duplicate key or an UPDATE/DELETE that finds no row is a write that met a row state the"
                + " model did not expect (a mismatch)", threads(), options.writeIntervalMs(), transactionsPerSecond(),
                keySpace(), options.rows(), DELETE_RATIO * 100, AFTER_COMPLETE_MS / 1000.0);
    }

    String topology() {
        List<String> entries = new ArrayList<>();
        for (int i = 0; i < servers.size(); i++) {
            entries.add(SHARDS.get(i) + "=" + servers.get(i).host() + ":" + servers.get(i).port());
        }
        return String.join(",", entries);
    }

    private WriteLoadBuilder load(int migration) {
        return WriteLoad.builder(Target.byModulo(servers, database)).table(LoadTable.standard(TABLE))
                .threads(threads()).keySpace(keySpace()).statementsPerTransaction(1, 3).deleteRatio(DELETE_RATIO)
                .transactionsPerSecond(transactionsPerSecond()).failOnError(false)
                .seed(options.seed() * 1_000L + migration);
    }

    /** Creates the table on both shards and preloads {@code rows} per shard (untimed). */
    void prepare() {
        model = load(0).build();
        model.createTables().preload(2 * options.rows());
        servers.forEach(s -> s.execute(database, "ANALYZE TABLE " + TABLE));
    }

    /** Whether {@code alter} applies to the table as it is on every shard. */
    boolean applies(StressAlters.Alter alter) {
        return StressCheck.holds(servers, database, TABLE, alter.pre());
    }

    MigrationResult migrate(int n, StressAlters.Choice choice, WorkerKiller.Plan plan) throws InterruptedException {
        String base = runPrefix + "-" + n;
        String coordinator = base + "-coordinator";
        String source = base + "-source";
        String sink = base + "-sink";
        String prefix = base.replace('-', '_');
        List<String> topics = SHARDS.stream().map(s -> TopicNames.shardTopic(prefix, SourceRun.KEYSPACE, s)).toList();
        String statusTopic = prefix + "_status";
        topics.forEach(t -> connect.createTopic(t, 1, 1, Map.of()));
        connect.createTopic(statusTopic, 1, 1, Map.of());
        Map<String, String> roles = new LinkedHashMap<>();
        roles.put("coordinator", coordinator);
        roles.put("source", source);
        roles.put("sink", sink);
        Map<String, String> coordinatorConfig = OnlineDdlRun.coordinatorConfig(topology(), database, TABLE,
                choice.alter().sql(), base, sink, statusTopic);
        // the stress exercises the copy and the cut-over under kills: an ALTER the server could run instantly
        // (ADD COLUMN, DROP COLUMN, ...) is copied here too
        coordinatorConfig.put("ddl.prefer.instant", "false");
        coordinatorConfig.put("watch.connect.url", String.join(",", connect.restUrls()));
        coordinatorConfig.put("watch.connectors", source + "," + sink);
        Map<Path, Long> logOffsets = new HashMap<>();
        connect.workerLogs().forEach(p -> logOffsets.put(p, CutOverLog.sizeOf(p)));

        WriteLoad load = load(n).continueFrom(model).build();
        model = load;
        Map<String, Long> firstAt = new LinkedHashMap<>();
        OnlineDdlRun.Status done = null;
        String failure = null;
        MigrationResult.Outcome outcome = MigrationResult.Outcome.TIMED_OUT;
        WorkerKiller.Kill kill = null;
        int stalls = 0;
        String firstStall = null;
        String last = "not started";
        long reachedAt = 0;
        long t0 = System.currentTimeMillis();
        LoadStats stats;
        try (KafkaConsumer<byte[], byte[]> status = OnlineDdlRun.statusConsumer(connect, statusTopic)) {
            load.start();
            t0 = System.currentTimeMillis();
            try {
                connect.deploy(coordinator, coordinatorConfig);
                connect.deploy(source, OnlineDdlRun.sourceConfig(topology(), SHARDS.size(), database, TABLE, prefix,
                        base));
                connect.deploy(sink, OnlineDdlRun.sinkConfig(topology(), SHARDS.size(), String.join(",", topics),
                        base));
                long deadline = System.nanoTime() + options.migrationTimeout().toNanos();
                long nextCheck = System.nanoTime();
                while (done == null && failure == null && System.nanoTime() < deadline) {
                    for (ConsumerRecord<byte[], byte[]> r : status.poll(Duration.ofMillis(100))) {
                        OnlineDdlRun.Status s = OnlineDdlRun.parse(r.value());
                        if (s == null) {
                            continue;
                        }
                        if (s.state().equals("STALLED") && !last.equals("STALLED")) {
                            stalls++;
                            firstStall = firstStall == null ? s.reason() : firstStall;
                        }
                        last = s.state();
                        firstAt.putIfAbsent(s.state(), s.tsMs());
                        if (plan != null && reachedAt == 0 && plan.state().reachedBy(s.state())) {
                            reachedAt = System.currentTimeMillis();
                        }
                        switch (s.state()) {
                            case "COMPLETE" -> {
                                done = s;
                                outcome = MigrationResult.Outcome.COMPLETE;
                            }
                            case "FAILED", "CANCELLED" -> {
                                failure = "the workflow ended " + s.state() + ": " + s.reason();
                                outcome = s.state().equals("FAILED") ? MigrationResult.Outcome.FAILED
                                        : MigrationResult.Outcome.CANCELLED;
                            }
                            default -> {
                            }
                        }
                    }
                    double elapsed = (System.currentTimeMillis() - t0) / 1000.0;
                    if (plan != null && kill == null && done == null && failure == null && reachedAt > 0
                            && System.currentTimeMillis() - reachedAt >= plan.delaySeconds() * 1000) {
                        kill = killer.kill(plan, elapsed, last.toLowerCase(Locale.ROOT).replace('_', ' '), roles);
                    }
                    if (done == null && failure == null && System.nanoTime() >= nextCheck) {
                        nextCheck = System.nanoTime() + 2_000_000_000L;
                        String trace = SourceRun.failedTask(connect, coordinator);
                        if (trace != null) {
                            failure = "the coordinator failed: " + SourceRun.firstLine(trace);
                            outcome = MigrationResult.Outcome.FAILED;
                        }
                        Bench.progress(String.format(Locale.ROOT, "  migration %d: %s, %.0f s, %s", n,
                                last.toLowerCase(Locale.ROOT).replace('_', ' '), elapsed, load.stats()));
                    }
                }
                if (done != null) {
                    Thread.sleep(AFTER_COMPLETE_MS);
                }
            } finally {
                stats = load.stop();
            }
        }
        double seconds = ((done != null ? done.tsMs() : System.currentTimeMillis()) - t0) / 1000.0;
        if (done == null && failure == null) {
            failure = "not COMPLETE within " + options.migrationTimeout().toSeconds() + " s (last state "
                    + last.toLowerCase(Locale.ROOT).replace('_', ' ') + ")";
        }
        if (done == null) {
            cancel(coordinator, coordinatorConfig, statusTopic);
        }
        removeConnectors(List.of(sink, source, coordinator), topics, statusTopic, prefix);
        CutOverLog.Blocks cutOver = CutOverLog.Blocks.UNKNOWN;
        for (Path log : connect.workerLogs()) {
            cutOver = cutOver.plus(new CutOverLog(log, logOffsets.getOrDefault(log, 0L)).read(coordinator));
        }
        servers.forEach(s -> CloneTarget.awaitIdle(s, Duration.ofSeconds(60)));
        StressCheck.Result check = StressCheck.run(load, servers, SHARDS, database, TABLE, GHOST, choice.alter(),
                done != null);
        String killNote = plan == null || kill != null ? "" : "a kill was planned (" + plan.describe() + "); the"
                + " migration " + (done != null ? "completed" : "ended") + " first";
        String skipped = choice.skipped().isEmpty() ? "" : "skipped (their precondition did not hold): "
                + String.join("; ", choice.skipped().stream().map(StressAlters.Alter::sql).toList());
        return new MigrationResult(n, choice.alter().sql(), skipped, outcome, done == null ? failure : null, seconds,
                OnlineDdlRun.phases(firstAt, t0), stalls == 0 ? "" : stalls + " (first: " + firstStall + ")", kill,
                killNote, WriteWindow.of(stats, load.committedTransactions()).withCutOver(cutOver),
                load.errorsByCode(), stats.mismatches(), check.differences(), check.detail(), check.schemaProblems(),
                cutOver, check.cleanup());
    }

    /** {@code workflow.cancel=true} on the coordinator (drops its ghosts and plans), waiting up to 60 s for CANCELLED. */
    private void cancel(String coordinator, Map<String, String> config, String statusTopic) {
        Map<String, String> c = new LinkedHashMap<>(config);
        c.put("workflow.cancel", "true");
        try (KafkaConsumer<byte[], byte[]> status = OnlineDdlRun.statusConsumer(connect, statusTopic)) {
            connect.deploy(coordinator, c);
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (System.nanoTime() < deadline) {
                for (ConsumerRecord<byte[], byte[]> r : status.poll(Duration.ofMillis(200))) {
                    OnlineDdlRun.Status s = OnlineDdlRun.parse(r.value());
                    if (s != null && s.state().equals("CANCELLED")) {
                        return;
                    }
                }
            }
            Bench.say("  (the workflow did not reach CANCELLED within 60 s; its connectors are deleted anyway)");
        } catch (RuntimeException e) {
            Bench.say("  (could not cancel the workflow: " + e.getMessage() + ")");
        }
    }

    private void removeConnectors(List<String> names, List<String> topics, String statusTopic, String prefix) {
        for (String name : names) {
            try {
                connect.delete(name);
            } catch (RuntimeException e) {
                Bench.say("  (could not delete connector " + name + ": " + e.getMessage() + ")");
            }
        }
        topics.forEach(t -> SourceRun.deleteTopic(connect, t));
        SourceRun.deleteTopic(connect, TopicNames.keyspaceTopic(prefix, SourceRun.KEYSPACE));
        SourceRun.deleteTopic(connect, statusTopic);
    }
}
