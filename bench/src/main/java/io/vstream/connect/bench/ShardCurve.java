package io.vstream.connect.bench;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vstream.connect.core.event.TopicNames;
import io.vstream.connect.testsupport.db.MariaDbServer;
import io.vstream.connect.testsupport.db.MariaDbShards;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The scale curve (issue #14): how the source connector's throughput and the worker's memory grow with the shards it
 * streams on this one machine. Eight {@code mariadbd} shards each get the same load (a table of rows, then row changes
 * in the binlog); then one source connector in one worker process streams the first 1, 2, 4 and 8 of them with one
 * task per shard: the binlog (CDC from the GTID before the load, until every shard topic holds its last COMMIT) and the
 * copy phase (until every shard topic holds COPY_COMPLETED). Per point: the rows, the time to the last shard's end
 * record (broker append time), rows/s in all and per shard, the worker's heap used and resident set at their peaks
 * during the run. The point is the cost of one more shard, so there is no peer; the report says how far each point is
 * from N times the one-shard rate. Touches its own servers and the worker it starts.
 */
final class ShardCurve {
    static final int[] SHARDS = {1, 2, 4, 8};
    static final String HEAP = "1g";
    private static final String[] SERVER_CONFIG = {
        "innodb_buffer_pool_size=128M",
        "innodb_flush_log_at_trx_commit=2",
        "sync_binlog=0",
        "max_allowed_packet=64M",
    };

    /** One point of the curve. */
    record Point(String mode, int shards, long rows, double seconds, boolean valid, String note, double heapPeakMb,
                 double rssPeakMb, double liveHeapMb, double workerCpu, double brokerCpu) {
        double rate() {
            return seconds > 0 ? rows / seconds : Double.NaN;
        }
    }

    private final BenchOptions options;
    private final String runId;
    private final List<Point> points = new ArrayList<>();
    private List<Long> copyRows = List.of(); // per shard: the rows its table holds (what the copy phase copies)
    private String setup = "";

    ShardCurve(BenchOptions options, String runId) {
        this.options = options;
        this.runId = runId;
    }

    /** Runs the curve; the points (also those of a run that failed, as invalid) are kept for the report. */
    ShardCurve run() throws Exception {
        Scale scale = options.scale();
        int inserts = scale.cdcInsertRows() / 4;
        int updates = scale.cdcUpdateRows() / 4;
        int max = SHARDS[SHARDS.length - 1];
        try (MariaDbShards servers = MariaDbShards.builder().count(max).name("bench-curve")
                .baseDir(options.workDir().resolve("mariadb-curve")).extraConfig(SERVER_CONFIG).build().start()) {
            String db = servers.freshDatabase("curve");
            List<BenchTable.Load> loads = new ArrayList<>();
            List<Long> rows = new ArrayList<>();
            Bench.say(String.format("curve: loading %,d inserts and %,d updates into each of %d shards", inserts,
                    updates, max));
            for (int i = 0; i < max; i++) {
                BenchTable table = new BenchTable(servers.server(i), db, "orders");
                table.create();
                loads.add(table.cdcLoad(inserts, updates, Scale.TXN_ROWS));
                rows.add(table.count());
            }
            copyRows = List.copyOf(rows);
            long perShardChanges = loads.get(0).rowChanges();
            setup = String.format(Locale.ROOT, "%d mariadbd shards (%s), each with the cdc scenario's table and load"
                    + " scaled by 1/4: %,d rows inserted, then %,d updated, %,d row changes in its binlog; the"
                    + " copy phase copies its %,d rows. One source connector per point in one worker process"
                    + " (-Xmx%s), topology = the first N shards, tasks.max = N, other settings as the cdc scenario's"
                    + " (JsonConverter with schemas); a point is timed from the deploy to the last shard's end record"
                    + " (broker append time): its last COMMIT (cdc, start.mode=position at the GTID before the load)"
                    + " or COPY_COMPLETED (copy, start.mode=copy). Heap used (jstat) and resident set sampled every"
                    + " %d ms, peaks during the point. One warm-up point (1 shard, cdc) first, not reported%s",
                    max, String.join(", ", SERVER_CONFIG), inserts, updates, perShardChanges, inserts, HEAP,
                    MemorySampler.INTERVAL_MS, options.sourceProps().isEmpty() ? ""
                            : "; settings added (--source-prop): " + options.sourceProps());
            try (ConnectProcesses connect = Bench.connectCluster("bench-curve", options, HEAP);
                 MemorySampler memory = new MemorySampler(connect.workerPid())) {
                point(connect, memory, servers, db, loads, "cdc", 1, true);
                for (String mode : List.of("cdc", "copy")) {
                    for (int n : SHARDS) {
                        point(connect, memory, servers, db, loads, mode, n, false);
                    }
                }
            }
        }
        return this;
    }

    private int runs;

    private void point(ConnectProcesses connect, MemorySampler memory, MariaDbShards servers, String db,
                       List<BenchTable.Load> loads, String mode, int n, boolean warmup) throws InterruptedException {
        String name = "bench-" + runId + "-curve-" + (++runs);
        String prefix = name.replace('-', '_');
        boolean copy = mode.equals("copy");
        List<String> topology = new ArrayList<>();
        List<String> gtids = new ArrayList<>();
        List<ShardLogWatcher> watchers = new ArrayList<>();
        long expected = 0;
        for (int i = 0; i < n; i++) {
            String shard = shardName(i, n);
            MariaDbServer s = servers.server(i);
            topology.add(shard + "=" + s.host() + ":" + s.port());
            gtids.add("{\"keyspace\":\"" + SourceRun.KEYSPACE + "\",\"shard\":\"" + shard + "\",\"gtid\":\"MariaDB/"
                    + loads.get(i).startGtid() + "\"}");
            String topic = TopicNames.shardTopic(prefix, SourceRun.KEYSPACE, shard);
            connect.createTopic(topic, 1, 1, Map.of("message.timestamp.type", "LogAppendTime"));
            long shardRows = copy ? copyRows.get(i) : loads.get(i).rowChanges();
            expected += shardRows;
            watchers.add(new ShardLogWatcher(connect, topic, copy ? ShardLogWatcher.End.copyCompleted()
                    : ShardLogWatcher.End.commitOf(loads.get(i).lastGtid()), copy,
                    copy ? ShardLogWatcher.minRecords(shardRows, options.sourceProps()) : shardRows).start());
        }
        Map<String, String> c = SourceRun.baseConfig(db, "orders", String.join(",", topology), n, "json-schemas");
        c.put("topic.prefix", prefix);
        c.putAll(options.sourceProps());
        if (copy) {
            c.put("start.mode", "copy");
        } else {
            c.put("start.mode", "position");
            c.put("start.position", "{\"shard_gtids\":[" + String.join(",", gtids) + "]}");
        }
        double startT = memory.now();
        double workerCpu0 = ProcessCpu.seconds(connect.workerPid());
        double brokerCpu0 = ProcessCpu.seconds(connect.brokerPid());
        double live = Double.NaN;
        double workerCpu = Double.NaN;
        double brokerCpu = Double.NaN;
        long t0 = System.currentTimeMillis();
        watchers.forEach(w -> w.origin(t0));
        long lastEnd = 0;
        long counted = 0;
        String note = "";
        boolean valid = true;
        try {
            connect.deploy(name, c);
            long deadline = System.nanoTime() + options.runTimeout().toNanos();
            for (ShardLogWatcher w : watchers) {
                ShardLogWatcher.Result r = null;
                while (r == null && System.nanoTime() < deadline) {
                    r = w.await(Duration.ofSeconds(2));
                    if (r == null) {
                        String failed = SourceRun.failedTask(connect, name);
                        if (failed != null) {
                            throw new IllegalStateException("task failed: " + SourceRun.firstLine(failed));
                        }
                        Bench.progress("  curve " + mode + " " + n + " shard(s): " + w.progress());
                    }
                }
                if (r == null) {
                    throw new IllegalStateException("no end record within " + options.runTimeout().toSeconds()
                            + " s (" + w.progress() + ")");
                }
                lastEnd = Math.max(lastEnd, r.endAppend());
                counted += copy ? r.copyRows() : r.rows();
            }
            if (counted != expected) {
                valid = false;
                note = "counted " + counted + ", expected " + expected;
            }
            double wall = (lastEnd - t0) / 1000.0;
            workerCpu = (ProcessCpu.seconds(connect.workerPid()) - workerCpu0) / wall;
            brokerCpu = (ProcessCpu.seconds(connect.brokerPid()) - brokerCpu0) / wall;
            live = liveHeap(connect.workerPid(), memory); // the connector is still deployed, its tasks idle
        } catch (RuntimeException e) {
            valid = false;
            note = e.getMessage();
            lastEnd = System.currentTimeMillis();
        } finally {
            watchers.forEach(ShardLogWatcher::close);
            try {
                connect.delete(name);
            } catch (RuntimeException e) {
                Bench.say("  (could not delete connector " + name + ": " + e.getMessage() + ")");
            }
            for (int i = 0; i < n; i++) {
                SourceRun.deleteTopic(connect, TopicNames.shardTopic(prefix, SourceRun.KEYSPACE, shardName(i, n)));
            }
            SourceRun.deleteTopic(connect, TopicNames.keyspaceTopic(prefix, SourceRun.KEYSPACE));
        }
        Thread.sleep(2L * MemorySampler.INTERVAL_MS);
        double endT = memory.now();
        double heap = Double.NaN;
        double rss = Double.NaN;
        for (MemorySampler.Sample s : memory.samples()) {
            if (s.t() >= startT && s.t() <= endT) {
                heap = Double.isNaN(heap) ? s.heapUsedMb() : Math.max(heap, s.heapUsedMb());
                rss = Double.isNaN(rss) ? s.rssMb() : Math.max(rss, s.rssMb());
            }
        }
        Point p = new Point(mode, n, valid ? expected : counted, (lastEnd - t0) / 1000.0, valid, note, heap, rss,
                live, workerCpu, brokerCpu);
        Bench.say(String.format(Locale.ROOT, "curve %s%s, %d shard(s): %,d rows in %.2f s, %,.0f rows/s, heap peak"
                        + " %.0f MB, live heap after a GC %.0f MB, RSS peak %.0f MB, CPU worker %.2f broker %.2f%s",
                mode, warmup ? " (warm-up)" : "", n, p.rows(), p.seconds(), p.rate(), heap, live, rss, workerCpu,
                brokerCpu, valid ? "" : " INVALID: " + note));
        if (!warmup) {
            points.add(p);
        }
    }

    /**
     * The worker's heap used right after a full GC ({@code jcmd <pid> GC.run}, then the sampler's next samples): what
     * the deployed connector's tasks keep, without the garbage a peak includes. NaN when jcmd fails.
     */
    static double liveHeap(long pid, MemorySampler memory) throws InterruptedException {
        try {
            Process jcmd = new ProcessBuilder(java.nio.file.Path.of(System.getProperty("java.home"), "bin", "jcmd")
                    .toString(), String.valueOf(pid), "GC.run").redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (!jcmd.waitFor(60, java.util.concurrent.TimeUnit.SECONDS) || jcmd.exitValue() != 0) {
                return Double.NaN;
            }
        } catch (java.io.IOException e) {
            return Double.NaN;
        }
        double after = memory.now();
        Thread.sleep(3L * MemorySampler.INTERVAL_MS);
        double min = Double.NaN;
        for (MemorySampler.Sample s : memory.samples()) {
            if (s.t() >= after && !Double.isNaN(s.heapUsedMb())) {
                min = Double.isNaN(min) ? s.heapUsedMb() : Math.min(min, s.heapUsedMb());
            }
        }
        return min;
    }

    /** The {@code i}-th of {@code n} equal key ranges ("-" for one; "-80", "80-" for two; ...). */
    static String shardName(int i, int n) {
        if (n == 1) {
            return "-";
        }
        int step = 256 / n;
        return (i == 0 ? "" : String.format(Locale.ROOT, "%02x", i * step)) + "-"
                + (i == n - 1 ? "" : String.format(Locale.ROOT, "%02x", (i + 1) * step));
    }

    List<Point> points() {
        return List.copyOf(points);
    }

    /** The report's section: the table, how each point compares with N times one shard, and the plots. */
    void markdown(StringBuilder o) {
        o.append("## scale curve: 1, 2, 4 and 8 shards in one worker\n\n");
        o.append(setup).append(".\n\n");
        o.append("| mode | shards | rows | time | rows/s | rows/s per shard | of N x 1 shard | worker CPU | broker"
                + " CPU | heap used, peak | heap after a GC | RSS, peak |\n");
        o.append("|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (Point p : points) {
            Point one = points.stream().filter(q -> q.mode().equals(p.mode()) && q.shards() == 1 && q.valid())
                    .findFirst().orElse(null);
            String scaling = one == null || !p.valid() ? "-"
                    : String.format(Locale.ROOT, "%.0f%%", 100 * p.rate() / (p.shards() * one.rate()));
            o.append(String.format(Locale.ROOT, "| %s | %d | %,d | %s | %s | %s | %s | %.2f | %.2f | %.0f MB | %.0f MB"
                            + " | %.0f MB |\n",
                    p.mode(), p.shards(), p.rows(), p.valid() ? String.format(Locale.ROOT, "%.2f s", p.seconds())
                            : "invalid: " + p.note(), p.valid() ? String.format(Locale.ROOT, "%,.0f", p.rate()) : "-",
                    p.valid() ? String.format(Locale.ROOT, "%,.0f", p.rate() / p.shards()) : "-", scaling,
                    p.workerCpu(), p.brokerCpu(), p.heapPeakMb(), p.liveHeapMb(), p.rssPeakMb()));
        }
        o.append('\n');
        o.append("Worker and broker CPU: CPU seconds the process used during the point (user + system, from"
                + " /proc/<pid>/stat) over the point's wall time; 1.00 is one core busy, and this machine has ")
                .append(Runtime.getRuntime().availableProcessors()).append(". Heap after a GC: right after `jcmd"
                + " <pid> GC.run` at the end of the point while the connector is still deployed (its tasks idle):"
                + " what N shards' tasks keep. The peak heap of a -Xmx").append(HEAP).append(" worker says little: G1"
                + " lets it grow towards the limit before it collects.\n\n");
    }

    void json(ObjectNode root) {
        ObjectNode curve = root.putObject("scale_curve");
        curve.put("setup", setup);
        ArrayNode arr = curve.putArray("points");
        for (Point p : points) {
            ObjectNode n = arr.addObject().put("mode", p.mode()).put("shards", p.shards()).put("rows", p.rows())
                    .put("seconds", p.seconds()).put("valid", p.valid());
            if (!p.valid()) {
                n.put("note", p.note());
            } else {
                n.put("rows_per_second", p.rate());
            }
            if (!Double.isNaN(p.heapPeakMb())) {
                n.put("heap_peak_mb", p.heapPeakMb());
            }
            if (!Double.isNaN(p.rssPeakMb())) {
                n.put("rss_peak_mb", p.rssPeakMb());
            }
            if (!Double.isNaN(p.liveHeapMb())) {
                n.put("heap_after_gc_mb", p.liveHeapMb());
            }
            if (!Double.isNaN(p.workerCpu())) {
                n.put("worker_cpu_cores", p.workerCpu());
            }
            if (!Double.isNaN(p.brokerCpu())) {
                n.put("broker_cpu_cores", p.brokerCpu());
            }
        }
    }

    /** Two charts: rows/s against shards, and the worker's peak heap and RSS against shards. */
    void charts() {
        List<Plots.Series> rates = new ArrayList<>();
        List<Plots.Series> memory = new ArrayList<>();
        for (String mode : List.of("cdc", "copy")) {
            List<Double> x = new ArrayList<>();
            List<Double> rate = new ArrayList<>();
            List<Double> ideal = new ArrayList<>();
            List<Double> heap = new ArrayList<>();
            List<Double> live = new ArrayList<>();
            List<Double> rss = new ArrayList<>();
            Point one = points.stream().filter(q -> q.mode().equals(mode) && q.shards() == 1 && q.valid()).findFirst()
                    .orElse(null);
            for (Point p : points) {
                if (p.mode().equals(mode) && p.valid()) {
                    x.add((double) p.shards());
                    rate.add(p.rate());
                    ideal.add(one == null ? Double.NaN : one.rate() * p.shards());
                    heap.add(p.heapPeakMb());
                    live.add(p.liveHeapMb());
                    rss.add(p.rssPeakMb());
                }
            }
            rates.add(new Plots.Series(mode + " rows/s", x, rate));
            rates.add(new Plots.Series(mode + ": N x 1 shard", x, ideal));
            memory.add(new Plots.Series(mode + ": heap used, peak", x, heap));
            memory.add(new Plots.Series(mode + ": heap after a GC", x, live));
            memory.add(new Plots.Series(mode + ": RSS, peak", x, rss));
        }
        Plots.add(new Plots.Chart("curve-throughput", "scale curve: rows/s against shards (one worker, tasks ="
                + " shards)", "shards", "rows/s", rates, false));
        Plots.add(new Plots.Chart("curve-memory", "scale curve: the worker's memory against shards (-Xmx" + HEAP + ")",
                "shards", "MB", memory, false));
    }
}
