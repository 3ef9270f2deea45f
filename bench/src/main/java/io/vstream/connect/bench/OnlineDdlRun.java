package io.vstream.connect.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.vstream.connect.core.event.TopicNames;
import io.vstream.connect.testsupport.db.MariaDbServer;
import java.io.IOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;

/**
 * "Us" in the ddl scenarios: one online-DDL migration of the scenario's ALTER ({@link DdlAlter}) by the three
 * connectors of docs/online-ddl.md, deployed together on the Connect worker process (loaded from their plugin
 * archives) as config-examples/online-ddl-*.json configures them, on a single-shard keyspace ({@code -}): the
 * coordinator ({@code workflow=online-ddl}, copying on the shard from the position it records,
 * {@code ddl.copy.start=at-once}), the source ({@code start.mode=migration}: from that position,
 * {@code table.include.list=orders}, {@code heartbeat.interval.ms=200}) and the sink ({@code mode=ghost},
 * {@code target.topology}, {@code ghost.migration}), with the examples' converters and client settings. Timed from the first deploy until the coordinator's status record
 * with state COMPLETE (its {@code ts_ms}, taken by the coordinator when the swap was done); the status topic is read as
 * it grows. The write load runs over the same window. The cut-over's write block is read from the coordinator's log
 * ({@link CutOverLog}). When the ALTER can run with {@code ALGORITHM=INSTANT} ({@code ddl-instant}) the coordinator
 * ({@code ddl.prefer.instant}, default true) runs it directly and reports COMPLETE with no ghost, copy or cut-over; the
 * source and sink then have nothing to do, and the run ends at that record all the same. The connectors and their
 * topics are deleted afterwards. Touches the shard (as the connectors do) and the Connect cluster.
 */
final class OnlineDdlRun {
    static final String COORDINATOR_CLASS = "io.vstream.connect.coordinator.VStreamCoordinatorConnector";
    static final String SINK_CLASS = "io.vstream.connect.sink.VStreamSinkConnector";
    static final String SOURCE_EXAMPLE = "online-ddl-source.json";
    static final String SINK_EXAMPLE = "online-ddl-sink.json";
    /** How the reason of the COMPLETE record starts when the coordinator ran the ALTER with ALGORITHM=INSTANT. */
    static final String APPLIED_INSTANTLY = "applied instantly";
    private static final ObjectMapper STATUS_JSON = new ObjectMapper();

    private final ConnectProcesses connect;
    private final MariaDbServer server;
    private final String runPrefix;
    private final DdlAlter alter;
    private final ProcessCpu cpu;
    private int runs;

    OnlineDdlRun(ConnectProcesses connect, MariaDbServer server, String runPrefix, DdlAlter alter, ProcessCpu cpu) {
        this.connect = connect;
        this.server = server;
        this.runPrefix = runPrefix;
        this.alter = alter;
        this.cpu = cpu;
    }

    private String topology() {
        return SourceRun.SHARD + "=" + server.host() + ":" + server.port();
    }

    /** config-examples/online-ddl-coordinator.json for one shard; other settings default. */
    Map<String, String> coordinatorConfig(String database, String migration, String sinkName, String statusTopic) {
        return coordinatorConfig(topology(), database, DdlTable.TABLE, alter.sql(), migration, sinkName,
                statusTopic);
    }

    /**
     * config-examples/online-ddl-coordinator.json for the shards of {@code topology} ({@code <shard>=<host>:<port>,...})
     * without the watch keys; other settings default.
     */
    static Map<String, String> coordinatorConfig(String topology, String database, String table, String alter,
                                                 String migration, String sinkName, String statusTopic) {
        Map<String, String> c = new LinkedHashMap<>();
        c.put("connector.class", COORDINATOR_CLASS);
        c.put("tasks.max", "1");
        c.put("workflow", "online-ddl");
        c.put("shards", topology);
        c.put("source.user", MariaDbServer.USER);
        c.put("source.password", MariaDbServer.PASSWORD);
        c.put("ddl.database", database);
        c.put("ddl.table", table);
        c.put("ddl.alter", alter);
        c.put("ddl.migration", migration);
        c.put("ddl.copy.start", "at-once"); // the source starts where the copy does (start.mode=migration)
        c.put("applier.stream", sinkName);
        c.put("status.topic", statusTopic);
        c.put("cutover.mode", "all-at-once");
        c.put("cutover.lock.timeout.ms", "3000");
        c.put("handoff.postpone", "false");
        c.put("topic.creation.default.partitions", "1");
        c.put("topic.creation.default.replication.factor", "1");
        return c;
    }

    /** config-examples/online-ddl-source.json for one shard ({@code tasks.max=1}), with its converters and tuning. */
    Map<String, String> sourceConfig(String database, String prefix, String migration) {
        return sourceConfig(topology(), 1, database, DdlTable.TABLE, prefix, migration);
    }

    /**
     * config-examples/online-ddl-source.json for the shards of {@code topology}, keyspace {@value SourceRun#KEYSPACE}:
     * its converters and producer tuning ({@link ExampleTuning}), the benchmark's servers and names.
     */
    static Map<String, String> sourceConfig(String topology, int tasks, String database, String table,
                                            String prefix, String migration) {
        Map<String, String> c = new LinkedHashMap<>();
        c.put("connector.class", SourceRun.CONNECTOR_CLASS);
        c.put("tasks.max", String.valueOf(tasks));
        c.put("keyspace", SourceRun.KEYSPACE);
        c.put("database", database);
        c.put("topology", topology);
        c.put("user", MariaDbServer.USER);
        c.put("password", MariaDbServer.PASSWORD);
        c.put("topic.prefix", prefix);
        // the coordinator copies the rows on the shard (ddl.copy.method=server) from the position it records there
        c.put("start.mode", "migration");
        c.put("start.migration", migration);
        c.put("table.include.list", table);
        c.put("heartbeat.interval.ms", "200");
        c.put("topic.creation.default.partitions", "1");
        c.put("topic.creation.default.replication.factor", "1");
        c.putAll(ExampleTuning.of(SOURCE_EXAMPLE));
        return c;
    }

    /**
     * config-examples/online-ddl-sink.json for one shard, with {@code target.binlog=on} (ghost mode binlogs in any
     * case): the ghost table's writes go to the binlog (and to replicas) as pt-online-schema-change's copy does.
     */
    Map<String, String> sinkConfig(String topic, String migration) {
        return sinkConfig(topology(), 1, topic, migration);
    }

    /** The same for the shards of {@code topology}: {@code topics} lists each shard's topic. */
    static Map<String, String> sinkConfig(String topology, int tasks, String topics, String migration) {
        Map<String, String> c = new LinkedHashMap<>();
        c.put("connector.class", SINK_CLASS);
        c.put("tasks.max", String.valueOf(tasks));
        c.put("topics", topics);
        c.put("mode", "ghost");
        c.put("ghost.migration", migration);
        c.put("target.topology", topology);
        c.put("target.user", MariaDbServer.USER);
        c.put("target.password", MariaDbServer.PASSWORD);
        c.put("target.binlog", "on");
        c.put("consumer.override.metadata.max.age.ms", "10000");
        // each task its own shards: the default range assignment gives partition 0 of every topic to one task
        c.put("consumer.override.partition.assignment.strategy",
                "org.apache.kafka.clients.consumer.RoundRobinAssignor");
        c.putAll(ExampleTuning.of(SINK_EXAMPLE));
        return c;
    }

    /** One status record: its state and the coordinator's clock when it was written. */
    record Status(String state, long tsMs, String reason) {
    }

    Measurement run(DdlTable.Run table, long rows, Duration timeout) throws InterruptedException {
        int n = ++runs;
        String base = runPrefix + "-" + n;
        String coordinator = base + "-coordinator";
        String source = base + "-source";
        String sink = base + "-sink";
        String migration = base;
        String prefix = base.replace('-', '_');
        String topic = TopicNames.shardTopic(prefix, SourceRun.KEYSPACE, SourceRun.SHARD);
        String statusTopic = prefix + "_status";
        ConnectProcesses kafka = connect;
        kafka.createTopic(topic, 1, 1, Map.of("message.timestamp.type", "LogAppendTime"));
        kafka.createTopic(statusTopic, 1, 1, Map.of());
        CutOverLog log = new CutOverLog(connect.workerLog());
        Map<String, Long> firstAt = new LinkedHashMap<>();
        Status done = null;
        String failure = null;
        WriteWindow writes;
        long t0;
        ProcessCpu.Usage used = null;
        try (KafkaConsumer<byte[], byte[]> status = statusConsumer(kafka, statusTopic)) {
            table.startLoad();
            ProcessCpu.Usage cpu0 = cpu.now();
            t0 = System.currentTimeMillis();
            try {
                connect.deploy(coordinator, coordinatorConfig(table.database(), migration, sink, statusTopic));
                connect.deploy(source, sourceConfig(table.database(), prefix, migration));
                connect.deploy(sink, sinkConfig(topic, migration));
                long deadline = System.nanoTime() + timeout.toNanos();
                long nextCheck = System.nanoTime();
                Status last = null;
                while (done == null && failure == null && System.nanoTime() < deadline) {
                    for (ConsumerRecord<byte[], byte[]> r : status.poll(Duration.ofMillis(100))) {
                        Status s = parse(r.value());
                        if (s == null) {
                            continue;
                        }
                        last = s;
                        firstAt.putIfAbsent(s.state(), s.tsMs());
                        if (s.state().equals("COMPLETE")) {
                            done = s;
                        } else if (s.state().equals("FAILED") || s.state().equals("CANCELLED")) {
                            failure = "the workflow ended " + s.state() + ": " + s.reason();
                        }
                    }
                    if (done == null && failure == null && System.nanoTime() >= nextCheck) {
                        nextCheck = System.nanoTime() + 2_000_000_000L;
                        for (String name : List.of(coordinator, source, sink)) {
                            String trace = SourceRun.failedTask(connect, name);
                            if (trace != null && failure == null) {
                                failure = name + " failed: " + SourceRun.firstLine(trace);
                            }
                        }
                        Bench.progress("  us: workflow " + (last == null ? "not started" : last.state()));
                    }
                }
                used = cpu.since(cpu0);
            } finally {
                writes = table.stopLoad();
            }
        } finally {
            for (String name : List.of(sink, source, coordinator)) {
                try {
                    connect.delete(name);
                } catch (RuntimeException e) {
                    Bench.say("  (could not delete connector " + name + ": " + e.getMessage() + ")");
                }
            }
            SourceRun.deleteTopic(kafka, topic);
            SourceRun.deleteTopic(kafka, TopicNames.keyspaceTopic(prefix, SourceRun.KEYSPACE));
            SourceRun.deleteTopic(kafka, statusTopic);
        }
        CutOverLog.Blocks blocks = log.read(coordinator);
        writes = writes.withCutOver(blocks);
        String phases = phases(firstAt, t0);
        if (done == null) {
            double elapsed = (System.currentTimeMillis() - t0) / 1000.0;
            return new Measurement("us", elapsed, 0, rows, Double.NaN, false, (failure != null ? failure
                    : "not COMPLETE within " + timeout.toSeconds() + " s") + " (" + phases + ")", writes);
        }
        double seconds = (done.tsMs() - t0) / 1000.0;
        String note = phases + (alter.instant() ? "; " + instantNote(done) : "")
                + (blocks.attempts() == 0 ? (alter.instant() ? "" : "; no cut-over line in the coordinator's log")
                : "; coordinator: " + blocks.lines()) + "; " + used.describe(null);
        String wrong = table.verify(true);
        return wrong == null ? new Measurement("us", seconds, rows, rows, Double.NaN, true, note, writes)
                : new Measurement("us", seconds, 0, rows, Double.NaN, false, wrong + " (" + note + ")", writes);
    }

    /**
     * Whether the coordinator ran the ALTER with ALGORITHM=INSTANT, from the COMPLETE record's reason: it starts with
     * {@value #APPLIED_INSTANTLY} then (and the run has no cut-over), else the workflow took the copy path.
     */
    static String instantNote(Status complete) {
        String reason = complete.reason() == null ? "" : complete.reason();
        return reason.startsWith(APPLIED_INSTANTLY) ? APPLIED_INSTANTLY + " (the COMPLETE record's reason), no"
                + " cut-over" : "not applied instantly: the workflow copied the table (the COMPLETE record's reason: "
                + (reason.isEmpty() ? "none" : reason) + ")";
    }

    /** When the workflow first reached each state, in seconds from the deploy. */
    static String phases(Map<String, Long> firstAt, long t0) {
        if (firstAt.isEmpty()) {
            return "no status record";
        }
        StringBuilder s = new StringBuilder("states at");
        firstAt.forEach((state, ts) -> s.append(String.format(Locale.ROOT, " %s %.2f s,",
                state.toLowerCase(Locale.ROOT).replace('_', ' '), (ts - t0) / 1000.0)));
        s.setLength(s.length() - 1);
        return s.toString();
    }

    /** A consumer of the status topic's one partition, from its beginning. */
    static KafkaConsumer<byte[], byte[]> statusConsumer(ConnectProcesses kafka, String topic) {
        Map<String, Object> props = new HashMap<>();
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, "false");
        KafkaConsumer<byte[], byte[]> c = kafka.createConsumer(props);
        TopicPartition tp = new TopicPartition(topic, 0);
        c.assign(List.of(tp));
        c.seekToBeginning(List.of(tp));
        return c;
    }

    /** A status record's value (JsonConverter, with or without schemas), or null if it is not one. */
    static Status parse(byte[] value) {
        if (value == null) {
            return null;
        }
        try {
            JsonNode root = STATUS_JSON.readTree(value);
            JsonNode v = root.has("payload") ? root.get("payload") : root;
            if (v == null || !v.hasNonNull("state")) {
                return null;
            }
            return new Status(v.get("state").asText(), v.path("ts_ms").asLong(System.currentTimeMillis()),
                    v.hasNonNull("reason") ? v.get("reason").asText() : null);
        } catch (IOException e) {
            return null;
        }
    }
}
