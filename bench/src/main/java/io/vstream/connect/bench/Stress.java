package io.vstream.connect.bench;

import io.vstream.connect.testsupport.db.MariaDbShards;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * The stress command's entry point (run by {@code bench/stress}), in the spirit of Vitess's
 * {@code onlineddl_vrepl_stress} test: N consecutive online migrations of one table on two MariaDB shards
 * ({@code -80}, {@code 80-}, {@code mariadbd}s of its own under the work directory), each a different ALTER
 * ({@link StressAlters}), under a write load from one thread per CPU; in a share of them one of the two Connect worker
 * processes is killed with SIGKILL at a random moment and started again ({@link WorkerKiller}). After each migration
 * every shard's table is compared with the writers' model and the new schema is checked ({@link StressRun},
 * {@link StressCheck}). Writes {@code <date>-<time>-stress.md} and {@code .json} ({@link StressReport}) and exits 2
 * when a migration did not complete or a row differed. Touches only the servers and processes it started.
 */
public final class Stress {
    private Stress() {
    }

    public static void main(String[] args) {
        StressOptions options;
        try {
            options = StressOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.exit(64);
            return;
        }
        int status;
        try {
            status = run(options);
        } catch (Throwable t) {
            t.printStackTrace();
            status = 1;
        }
        System.exit(status); // Kafka clients leave non-daemon threads behind
    }

    static int run(StressOptions options) throws Exception {
        long startNanos = System.nanoTime();
        LocalDateTime now = LocalDateTime.now();
        String started = now.format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm"));
        String stamp = now.format(DateTimeFormatter.ofPattern("yyyy-MM-dd-HHmm")) + "-stress";
        String runId = now.format(DateTimeFormatter.ofPattern("HHmmss"));
        Files.createDirectories(options.workDir());
        Random random = new Random(options.seed());
        Set<Integer> killed = killedMigrations(random, options);
        Bench.say(String.format(Locale.ROOT, "vstream-connect stress: %d consecutive online migrations of one table on"
                        + " 2 shards, %,d rows per shard, kill share %s (%d migration(s): %s), seed %d",
                options.migrations(), options.rows(), options.killShare(), killed.size(), sorted(killed),
                options.seed()));
        List<MigrationResult> results = new ArrayList<>();
        List<String> errors = new ArrayList<>();
        Map<String, String> setup = new LinkedHashMap<>();
        Machine machine;
        try (MariaDbShards shards = MariaDbShards.builder().count(2).name("stress")
                .baseDir(options.workDir().resolve("mariadb")).extraConfig(Bench.SHARD_CONFIG).build().start()) {
            String version = shards.server(0).queryString(null, "SELECT VERSION()");
            machine = Machine.probe(version);
            Bench.say("machine: " + machine.cpus() + " CPUs, " + machine.memoryMb() + " MB, " + machine.jdk()
                    + ", MariaDB " + version + ", load average " + machine.loadAtStart());
            String plugins = System.getProperty("vstream.plugins.dir");
            if (plugins == null) {
                throw new IllegalStateException("-Dvstream.plugins.dir is not set (bench/stress sets it)");
            }
            try (ConnectProcesses connect = ConnectProcesses.start("stress", options.workDir(), Path.of(plugins),
                    Bench.WORKER_HEAP, null, 2)) {
                String db = shards.freshDatabase("stress");
                StressRun run = new StressRun(connect, shards.servers(), db, options, "stress-" + runId);
                setup(setup, run, db);
                long t0 = System.nanoTime();
                run.prepare();
                Bench.say(String.format(Locale.ROOT, "%s.%s: %,d rows per shard preloaded in %.1f s (untimed)", db,
                        StressRun.TABLE, options.rows(), (System.nanoTime() - t0) / 1e9));
                int position = -1;
                for (int n = 1; n <= options.migrations(); n++) {
                    StressAlters.Choice choice = StressAlters.next(position, run::applies);
                    if (choice == null) {
                        errors.add("migration " + n + ": no ALTER of the cycle applies to the table as it is");
                        break;
                    }
                    position = choice.position();
                    WorkerKiller.Plan plan = killed.contains(n) ? plan(random, connect.workerCount()) : null;
                    Bench.say(String.format(Locale.ROOT, "migration %d/%d: ALTER TABLE %s %s%s", n,
                            options.migrations(), StressRun.TABLE, choice.alter().sql(), plan == null ? ""
                                    : "; kill -9 planned: " + plan.describe()));
                    MigrationResult r;
                    try {
                        r = run.migrate(n, choice, plan);
                    } catch (RuntimeException e) {
                        e.printStackTrace();
                        errors.add("migration " + n + ": " + e);
                        break; // the cluster's state is unknown: the report says how far it got
                    }
                    results.add(r);
                    Bench.say("migration " + n + ": " + StressReport.summary(r));
                }
            }
            machine = machine.withLoadAtEnd();
        }
        long wall = (System.nanoTime() - startNanos) / 1_000_000_000L;
        long build = Long.getLong("vstream.bench.build.seconds", 0L);
        String wallTime = String.format(Locale.ROOT, "%d min %02d s", wall / 60, wall % 60)
                + (build > 0 ? " (and " + build + " s of build before it)" : "");
        StressReport report = new StressReport(started, options, machine, setup, results, errors, wallTime);
        Path md = report.write(options.outDir(), stamp);
        Bench.say("report: " + md + " (and .json); wall time " + wallTime);
        for (String line : report.summaryLines()) {
            Bench.say(line);
        }
        return report.passed() ? 0 : 2;
    }

    /** Which migrations (1-based) see a kill: {@link StressOptions#kills()} of them, drawn by the seeded random. */
    static Set<Integer> killedMigrations(Random random, StressOptions options) {
        List<Integer> all = new ArrayList<>();
        for (int n = 1; n <= options.migrations(); n++) {
            all.add(n);
        }
        Collections.shuffle(all, random);
        return new HashSet<>(all.subList(0, Math.min(options.kills(), all.size())));
    }

    /**
     * A kill: a worker, a phase of the workflow (copying, catching up, cutting over: one each in turn at random) and a
     * delay after the workflow reaches it, uniform up to the phase's {@link WorkerKiller.Phase#maxDelaySeconds}.
     */
    static WorkerKiller.Plan plan(Random random, int workers) {
        WorkerKiller.Phase[] phases = WorkerKiller.Phase.values();
        WorkerKiller.Phase phase = phases[random.nextInt(phases.length)];
        return new WorkerKiller.Plan(random.nextInt(workers), phase, random.nextDouble() * phase.maxDelaySeconds);
    }

    private static String sorted(Set<Integer> s) {
        List<Integer> l = new ArrayList<>(s);
        Collections.sort(l);
        return l.isEmpty() ? "none" : l.toString();
    }

    private static void setup(Map<String, String> setup, StressRun run, String db) {
        setup.put("MariaDB", "two mariadbd started by the stress command (test-support's MariaDbShards: binlog ROW,"
                + " FULL row image, binlog_row_metadata=FULL, strict GTIDs) with " + String.join(", ",
                Bench.SHARD_CONFIG) + ", as the shards -80 and 80- of one keyspace (" + run.topology() + ")");
        setup.put("table", "local-runtime's standard load table " + db + "." + StressRun.TABLE + " (id BIGINT PRIMARY"
                + " KEY, k INT NOT NULL, v VARCHAR(64) NULL, amount DECIMAL(12,2) NOT NULL, updated DATETIME(6) NOT"
                + " NULL, KEY k (k)) on both shards; its schema changes with every migration");
        setup.put("write load", run.loadDescription());
        setup.put("Kafka and Connect", "separate processes: one KRaft broker (kafka.Kafka, -Xmx512m) and two"
                + " distributed workers of one group (ConnectDistributed, -Xmx" + Bench.WORKER_HEAP + " each, their"
                + " own REST ports), Kafka 4.3.1, the connectors from their plugin archives on plugin.path;"
                + " offset.flush.interval.ms=500, scheduled.rebalance.max.delay.ms=3000; connectors deployed through"
                + " REST");
        setup.put("one migration", "the three connectors of docs/online-ddl.md, new names, topics and migration id"
                + " each time: coordinator workflow=online-ddl, ddl.prefer.instant=false (every ALTER copied), cutover.mode=all-at-once, cutover.lock.timeout.ms=3000,"
                + " watch.connect.url = both workers' REST APIs, watch.connectors = the source and the sink; source"
                + " start.mode=migration (the coordinator copies on the shard from the position it records,"
                + " ddl.copy.start=at-once), tasks.max=2, heartbeat.interval.ms=200; sink mode=ghost, tasks.max=2,"
                + " target.binlog=on; the converters and client settings of config-examples/online-ddl-*.json. Wall"
                + " time from the first deploy to the"
                + " ts_ms of the status record COMPLETE; FAILED or CANCELLED (or no COMPLETE within the timeout) is a"
                + " failed migration, which is then cancelled (workflow.cancel=true). Then the connectors and topics"
                + " are deleted, the shards compared with the load's model, the ALTER's schema checked, orders_old"
                + " dropped (and the ghost table of a migration that did not complete)");
        setup.put("ALTERs", "a cycle of " + StressAlters.CYCLE.size() + ", migration n runs the next one that"
                + " applies to the table as it is: " + String.join(" | ", StressAlters.CYCLE.stream()
                .map(StressAlters.Alter::sql).toList()));
        setup.put("worker kills", "in round(kill share x migrations) migrations drawn by the seeded random (at least"
                + " one when the share is above 0), one of the two workers, drawn too, is killed with SIGKILL"
                + " (Process.destroyForcibly) in a phase of the workflow drawn too (copying, catching up or cutting"
                + " over), a drawn delay after the workflow reached it (up to 10, 5 and 2 s; a skipped phase counts as"
                + " reached with the next one), and started again at once (same group and REST port); a migration"
                + " that ends first sees no kill (the report says so)");
    }
}
