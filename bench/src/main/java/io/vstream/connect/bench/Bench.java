package io.vstream.connect.bench;

import io.vstream.connect.testsupport.db.MariaDbShards;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The benchmark's entry point (run by {@code bench/run}): starts one MariaDB shard (a {@code mariadbd} of its own,
 * under the work directory, on a free port), runs the chosen scenarios, each with its own Kafka broker and Connect
 * worker processes ({@link ConnectProcesses}), and writes the report, its plots and (after a full default run) the
 * generated block of docs/benchmarks.md. Touches only the servers and processes it started.
 */
public final class Bench {
    /** Settings of the shard: room for the tables in the buffer pool; durability relaxed for the loads (not timed). */
    static final String[] SHARD_CONFIG = {
        "innodb_buffer_pool_size=512M",
        "innodb_flush_log_at_trx_commit=2",
        "sync_binlog=0",
        "max_allowed_packet=64M",
    };

    /** The binlog client logs through java.util.logging; only its warnings matter here (held: JUL keeps weak refs). */
    private static final java.util.logging.Logger BINLOG_CLIENT_LOG = java.util.logging.Logger.getLogger(
            "com.github.shyiko.mysql.binlog");
    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss");
    private static volatile long lastProgress;

    private Bench() {
    }

    public static void main(String[] args) {
        BenchOptions options;
        try {
            options = BenchOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.exit(64);
            return;
        }
        BINLOG_CLIENT_LOG.setLevel(java.util.logging.Level.WARNING);
        int status;
        try {
            status = run(options);
        } catch (Throwable t) {
            t.printStackTrace();
            status = 1;
        }
        System.exit(status); // Kafka and Connect leave non-daemon threads behind
    }

    static int run(BenchOptions options) throws Exception {
        long startNanos = System.nanoTime();
        LocalDateTime now = LocalDateTime.now();
        String started = now.format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm"));
        String stamp = now.format(DateTimeFormatter.ofPattern("yyyy-MM-dd-HHmm")) + "-" + options.scale().name();
        String runId = now.format(DateTimeFormatter.ofPattern("HHmmss"));
        Files.createDirectories(options.workDir());
        say("vstream-connect benchmark, scale " + options.scale().name() + ", scenarios " + options.scenarios()
                + ", " + options.warmups() + " warm-up + " + options.pairs() + " counted pairs each");
        List<ScenarioResult> results = new ArrayList<>();
        List<String> errors = new ArrayList<>();
        Footprint footprint = null;
        ShardCurve curve = null;
        FormatCosts formats = null;
        Machine machine;
        try (MariaDbShards shards = MariaDbShards.builder().count(1).name("bench")
                .baseDir(options.workDir().resolve("mariadb")).extraConfig(SHARD_CONFIG).build().start()) {
            String version = shards.server(0).queryString(null, "SELECT VERSION()");
            machine = Machine.probe(version);
            say("machine: " + machine.cpus() + " CPUs, " + machine.memoryMb() + " MB, " + machine.jdk() + ", MariaDB "
                    + version + ", load average " + machine.loadAtStart());
            for (String name : BenchOptions.SCENARIOS) {
                if (!options.scenarios().contains(name)) {
                    continue;
                }
                try {
                    results.addAll(switch (name) {
                        case "cdc" -> {
                            CdcScenario cdc = new CdcScenario(shards, options, runId);
                            try {
                                yield cdc.run();
                            } finally {
                                footprint = cdc.footprint();
                            }
                        }
                        case "copy" -> new CopyScenario(shards, options, runId).run();
                        case "clone" -> List.of(new CloneScenario(shards, options, runId).run());
                        case "ddl" -> List.of(new DdlScenario(shards, options, runId, DdlAlter.TYPE_CHANGE).run());
                        case "ddl-instant" -> List.of(new DdlScenario(shards, options, runId, DdlAlter.ADD_COLUMN)
                                .run());
                        case "curve" -> {
                            curve = new ShardCurve(options, runId);
                            curve.run();
                            curve.charts();
                            yield List.of();
                        }
                        case "formats" -> {
                            formats = new FormatCosts().run();
                            yield List.of();
                        }
                        default -> throw new IllegalStateException("unknown scenario " + name);
                    });
                } catch (Exception e) {
                    say(name + ": FAILED: " + e);
                    e.printStackTrace();
                    errors.add(name + ": " + e);
                }
            }
            machine = machine.withLoadAtEnd();
        }
        Map<String, String> setup = new LinkedHashMap<>();
        setup.put("MariaDB", "one mariadbd started by the benchmark (test-support's MariaDbShards: binlog ROW, FULL"
                + " row image, binlog_row_metadata=FULL, strict GTIDs) with " + String.join(", ", SHARD_CONFIG)
                + "; us and peer read the same server (the clone scenario starts a second one as its target; the ddl"
                + " scenarios alter a fresh table on it for every run)");
        setup.putAll(clusterSettings());
        setup.put("converter", SourceRun.converterDescription(options.converter()) + ", set on the connector");
        Report report = new Report(started, options, machine, setup, results, errors, footprint);
        report.curve(curve);
        report.formats(formats);
        long wall = (System.nanoTime() - startNanos) / 1_000_000_000L + buildSeconds();
        String wallTime = String.format("%d min %02d s", wall / 60, wall % 60);
        report.wallTime(wallTime + (buildSeconds() > 0 ? " with the build (" + buildSeconds() + " s)" : ""));
        Path md = report.write(options.outDir(), stamp);
        say("report: " + md + " (and .json); wall time " + wallTime);
        if (options.docs() != null && (options.fullDefaultRun() || Boolean.getBoolean("vstream.bench.docs.anyRun"))) {
            updateDocs(options.docs(), report.docsBlock(wallTime));
        }
        for (ScenarioResult r : results) {
            Stats ratio = r.ratio();
            String verdict = r.peerMissing() != null ? "no result, peer unavailable"
                    : !r.complete() ? "no result, invalid runs" : r.ratioMet() ? "met" : "not met";
            if (Report.hasWrites(r)) {
                Stats usP99 = DdlScenario.stat(r.valid(true), WriteWindow::p99Ms);
                Stats peerP99 = DdlScenario.stat(r.valid(false), WriteWindow::p99Ms);
                String target = r.hasRatioTarget() ? String.format(java.util.Locale.ROOT, "target at most %.2f: %s",
                        r.targetRatio(), verdict) : "reported, no target";
                say(String.format(java.util.Locale.ROOT, "%s: us %.2f s, peer %.2f s, median ratio us/peer (time)"
                                + " %.3f (%s); write p99 us %.1f ms, peer %.1f ms", r.name(), r.usSeconds().median(),
                        r.peerSeconds().median(), ratio.median(), target, usP99.median(), peerP99.median()));
                for (ScenarioResult.Check c : r.checks()) {
                    say("  " + c.target() + ": " + (c.met() == null ? "no result" : c.met() ? "met" : "not met") + " ("
                            + c.detail() + ")");
                }
                continue;
            }
            if (r.goal() == ScenarioResult.Goal.TIME) {
                say(String.format("%s: us %.2f s, peer %.2f s, median ratio us/peer (time) %.3f (target at most"
                                + " %.2f: %s)", r.name(), r.usSeconds().median(), r.peerSeconds().median(), ratio.median(),
                        r.targetRatio(), verdict));
            } else {
                say(String.format("%s: us %,.0f %s/s, peer %,.0f %s/s, median ratio %.3f (target %.2f: %s)", r.name(),
                        r.usRate().median(), r.unit(), r.peerRate().median(), r.unit(), ratio.median(),
                        r.targetRatio(), verdict));
            }
        }
        // complete: every run that ran is valid (an unavailable peer's runs did not run; the report says so)
        if (footprint != null) {
            Boolean flat = footprint.flat();
            say(String.format(java.util.Locale.ROOT, "footprint: worker -Xmx%s, peak heap used %.0f MB, peak RSS %.0f"
                            + " MB, %d of %d runs valid; RSS end of last run / first %.2f (flat: %s)", Footprint.HEAP,
                    footprint.peakHeapMb(), footprint.peakRssMb(), footprint.runs().stream()
                            .filter(Footprint.Run::valid).count(), footprint.runs().size(), footprint.rssGrowth(),
                    flat == null ? "no result" : flat ? "met" : "not met"));
        }
        boolean complete = errors.isEmpty() && results.stream().allMatch(ScenarioResult::complete);
        return complete ? 0 : 2;
    }

    /**
     * The Kafka broker and Connect worker of one scenario, each its own process ({@link ConnectProcesses}), the worker
     * with a heap of {@code workerHeap} and, with {@code --jfr}, a JFR recording of each into the work directory's
     * parent ({@code bench/target/<name>-worker.jfr}).
     */
    static ConnectProcesses connectCluster(String name, BenchOptions options, String workerHeap) throws Exception {
        Path jfrDir = options.jfr() ? options.workDir().toAbsolutePath().getParent() : null;
        String plugins = System.getProperty("vstream.plugins.dir");
        if (plugins == null) {
            throw new IllegalStateException("-Dvstream.plugins.dir is not set (bench/run sets it)");
        }
        return ConnectProcesses.start(name, options.workDir(), Path.of(plugins), workerHeap, jfrDir);
    }

    /** The worker's heap in every scenario but footprint. */
    static final String WORKER_HEAP = "1g";

    /** Seconds bench/run spent building before this JVM started (it passes them), or 0. */
    private static long buildSeconds() {
        return Long.getLong("vstream.bench.build.seconds", 0L);
    }

    /** Replaces the block between {@link Report#DOCS_START} and {@link Report#DOCS_END} in {@code docs}. */
    private static void updateDocs(Path docs, String block) throws java.io.IOException {
        String text = Files.readString(docs);
        int a = text.indexOf(Report.DOCS_START);
        int b = text.indexOf(Report.DOCS_END);
        if (a < 0 || b < a) {
            say("docs: " + docs + " has no " + Report.DOCS_START + " ... " + Report.DOCS_END + " block: not updated");
            return;
        }
        Files.writeString(docs, text.substring(0, a) + block + text.substring(b + Report.DOCS_END.length()));
        say("docs: " + docs + " updated with this run's tables and plots");
    }

    /** How the Connect cluster runs, for the report. */
    static Map<String, String> clusterSettings() {
        Map<String, String> s = new LinkedHashMap<>();
        s.put("Kafka and Connect", ConnectProcesses.description() + "; one fresh broker and worker per scenario,"
                + " reused by all its runs (each run has its own connector name, topic prefix, binlog server_id and"
                + " topics, which are deleted after it)");
        s.put("worker", "plugin.discovery=service_load, offset.flush.interval.ms=500, scheduled.rebalance.max.delay.ms=3000,"
                + " JsonConverter with schemas as the worker's converter, producer defaults; the shard topic is"
                + " created before the deploy with 1 partition and message.timestamp.type=LogAppendTime (in cdc and"
                + " copy the end time is the broker's append time of the end record; in clone it is read on the"
                + " target, see its settings)");
        return s;
    }

    static void say(String line) {
        System.out.println(LocalDateTime.now().format(CLOCK) + " " + line);
        System.out.flush();
    }

    /** A progress line, at most every 10 s. */
    static void progress(String line) {
        long now = System.nanoTime();
        if (now - lastProgress > 10_000_000_000L) {
            lastProgress = now;
            say(line);
        }
    }
}
