package io.vstream.connect.bench;

import io.vstream.connect.core.event.EventHeaders;
import io.vstream.connect.core.event.EventType;
import io.vstream.connect.core.event.TopicNames;
import io.vstream.connect.core.position.GtidPosition;
import io.vstream.connect.testsupport.db.MariaDbServer;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.record.TimestampType;

/**
 * "Us" in the clone scenario: the source connector ({@code start.mode=copy}) and the sink connector
 * ({@code mode=clone}) deployed together on the Connect worker process, both loaded from their plugin archives.
 * Timed from the first deploy until the target's applied state for the stream ({@code _vstream.applied}) says the copy
 * has completed and holds a position that contains the source's GTID position after the load: the clone is caught
 * up. The end time is the state row's {@code updated_at} (written in the transaction that made it so; the row is
 * polled every {@value #POLL_MS} ms). Then the target table must have the source's row count and checksum. Each run
 * has its own connector names, topic prefix and topics; both connectors and the topics are deleted after it, and the
 * target is emptied. Touches both servers (as the connectors do) and the Connect cluster.
 */
final class CloneRun {
    static final String SINK_CLASS = "io.vstream.connect.sink.VStreamSinkConnector";
    static final String STATE_DATABASE = "_vstream";
    static final long POLL_MS = 100;
    /** The examples whose record format and client tuning the connectors deploy with. */
    static final String SOURCE_EXAMPLE = "clone-source.json";
    static final String SINK_EXAMPLE = "clone-sink.json";

    private final ConnectProcesses connect;
    private final CloneTarget target;
    private final String runPrefix;
    private final GtidPosition sourcePosition;
    private final SourceRun sourceConfig;
    private int runs;
    private volatile long bytesPerRow;

    /**
     * @param sourcePosition the source's {@code @@gtid_binlog_pos} after the load (Vitess form)
     */
    CloneRun(ConnectProcesses connect, MariaDbServer source, CloneTarget target, String runPrefix,
             GtidPosition sourcePosition) {
        this.connect = connect;
        this.target = target;
        this.runPrefix = runPrefix;
        this.sourcePosition = sourcePosition;
        this.sourceConfig = new SourceRun(connect, source, runPrefix, "json-schemas");
    }

    /** The source connector's configuration (the topic prefix is added per run). */
    Map<String, String> sourceConfig() {
        Map<String, String> c = sourceConfig.baseConfig(target.database(), target.table());
        c.put("start.mode", "copy");
        c.putAll(ExampleTuning.of(SOURCE_EXAMPLE));
        return c;
    }

    /** The sink connector's configuration (the topic is added per run), with config-examples/clone-sink.json's tuning. */
    Map<String, String> sinkConfig() {
        MariaDbServer t = target.server();
        Map<String, String> c = new HashMap<>();
        c.put("connector.class", SINK_CLASS);
        c.put("tasks.max", "1");
        c.put("mode", "clone");
        c.put("target.host", t.host());
        c.put("target.port", String.valueOf(t.port()));
        c.put("target.user", MariaDbServer.USER);
        c.put("target.password", MariaDbServer.PASSWORD);
        c.put("target.binlog", "off");
        c.put("table.create", "true");
        c.put("table.engine", "InnoDB");
        c.put("state.database", STATE_DATABASE);
        c.putAll(ExampleTuning.of(SINK_EXAMPLE));
        return c;
    }

    /** The average serialized size of a ROW record of the last run, or 0. */
    long bytesPerRow() {
        return bytesPerRow;
    }

    Measurement run(Duration timeout) throws InterruptedException {
        int n = ++runs;
        String sourceName = runPrefix + "-" + n + "-source";
        String sinkName = runPrefix + "-" + n + "-sink";
        String prefix = runPrefix.replace('-', '_') + "_" + n;
        String topic = TopicNames.shardTopic(prefix, SourceRun.KEYSPACE, SourceRun.SHARD);
        ConnectProcesses kafka = connect;
        kafka.createTopic(topic, 1, 1, Map.of("message.timestamp.type", "LogAppendTime"));
        Map<String, String> src = sourceConfig();
        src.put("topic.prefix", prefix);
        Map<String, String> sink = sinkConfig();
        sink.put("topics", topic);
        long rows = target.expected().rows();
        Measurement m;
        long t0 = System.currentTimeMillis();
        try {
            connect.deploy(sourceName, src);
            connect.deploy(sinkName, sink);
            Applied done = null;
            String failure = null;
            Applied last = null;
            long deadline = System.nanoTime() + timeout.toNanos();
            long nextStatus = System.nanoTime();
            try (Connection poll = target.server().connect(null)) {
                while (System.nanoTime() < deadline) {
                    Applied a = read(poll, sinkName, topic);
                    if (a != null) {
                        last = a;
                        if (a.caughtUp(sourcePosition)) {
                            done = a;
                            break;
                        }
                    }
                    if (System.nanoTime() >= nextStatus) {
                        nextStatus = System.nanoTime() + 2_000_000_000L;
                        failure = failed(sourceName, sinkName);
                        if (failure != null) {
                            break;
                        }
                        Bench.progress("  us: target state " + (last == null ? "not written yet" : last.brief()));
                    }
                    Thread.sleep(POLL_MS);
                }
            } catch (SQLException e) {
                throw new IllegalStateException("Cannot poll the target's state: " + e.getMessage(), e);
            }
            if (done == null) {
                double elapsed = (System.currentTimeMillis() - t0) / 1000.0;
                return Measurement.invalid("us", elapsed, 0, rows, failure != null ? failure
                        : "not caught up within " + timeout.toSeconds() + " s (target state: "
                        + (last == null ? "none" : last.brief()) + ")");
            }
            long end = Math.min(done.polledAt(), Math.max(t0, done.updatedAt()));
            double seconds = (end - t0) / 1000.0;
            Phases phases = phases(kafka, topic);
            if (phases.rowBytes() > 0) {
                bytesPerRow = phases.rowBytes();
            }
            String breakdown = String.format(Locale.ROOT, "first copy row in Kafka at %s, COPY_COMPLETED in Kafka"
                            + " at %s, target caught up at %.2f s", at(phases.firstRow(), t0),
                    at(phases.copyCompleted(), t0), seconds);
            String diff = target.verify();
            m = diff == null ? new Measurement("us", seconds, rows, rows, Double.NaN, true, breakdown)
                    : Measurement.invalid("us", seconds, 0, rows, diff + " (" + breakdown + ")");
        } finally {
            for (String name : List.of(sinkName, sourceName)) {
                try {
                    connect.delete(name);
                } catch (RuntimeException e) {
                    Bench.say("  (could not delete connector " + name + ": " + e.getMessage() + ")");
                }
            }
            SourceRun.deleteTopic(kafka, topic);
            SourceRun.deleteTopic(kafka, TopicNames.keyspaceTopic(prefix, SourceRun.KEYSPACE));
            target.reset(STATE_DATABASE);
        }
        return m;
    }

    private String failed(String sourceName, String sinkName) {
        for (String name : List.of(sourceName, sinkName)) {
            String trace = SourceRun.failedTask(connect, name);
            if (trace != null) {
                return name + " failed: " + SourceRun.firstLine(trace);
            }
        }
        return null;
    }

    /**
     * One read of the stream's applied state on the target.
     *
     * @param position  the source position the target holds (Vitess form)
     * @param copyState the copy progress ({@code []}: the copy has completed), or null
     * @param updatedAt when the row was last written (ms since the epoch)
     * @param polledAt  when it was read (ms since the epoch)
     */
    record Applied(String position, String copyState, long updatedAt, long polledAt) {
        boolean caughtUp(GtidPosition wanted) {
            if (!"[]".equals(copyState) || position == null || position.isEmpty()) {
                return false;
            }
            try {
                return GtidPosition.parse(position).contains(wanted);
            } catch (IllegalArgumentException e) {
                return false;
            }
        }

        String brief() {
            String copy = copyState == null ? "not started" : copyState.equals("[]") ? "completed"
                    : copyState.length() > 80 ? copyState.substring(0, 80) + "..." : copyState;
            return "position " + position + ", copy " + copy;
        }
    }

    /** The applied row of the stream, or null while the sink has not written it (or its database) yet. */
    private static Applied read(Connection c, String stream, String topic) {
        try (PreparedStatement ps = c.prepareStatement("SELECT position, copy_state, UNIX_TIMESTAMP(updated_at) FROM "
                + STATE_DATABASE + ".applied WHERE stream = ? AND topic = ? AND kafka_partition = 0")) {
            ps.setString(1, stream);
            ps.setString(2, topic);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return null;
                }
                BigDecimal updated = rs.getBigDecimal(3);
                long updatedMs = updated == null ? Long.MAX_VALUE : updated.movePointRight(3).longValue();
                return new Applied(rs.getString(1), rs.getString(2), updatedMs, System.currentTimeMillis());
            }
        } catch (SQLException e) {
            return null; // the state database or table does not exist yet
        }
    }

    /**
     * Where the source side was: broker append times of the first ROW (or ROWS) record and of COPY_COMPLETED in the
     * shard topic (-1 when not found), and the average bytes per row (a ROWS record's shared by its rows). Reads only
     * the topic's first and last records.
     */
    record Phases(long firstRow, long copyCompleted, long rowBytes) {
    }

    private static Phases phases(ConnectProcesses kafka, String topic) {
        Map<String, Object> props = new HashMap<>();
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, "false");
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "2000");
        TopicPartition tp = new TopicPartition(topic, 0);
        long firstRow = -1;
        long copyCompleted = -1;
        long bytes = 0;
        long rowCount = 0;
        try (KafkaConsumer<byte[], byte[]> consumer = kafka.createConsumer(props)) {
            consumer.assign(List.of(tp));
            long end = consumer.endOffsets(List.of(tp)).get(tp);
            // the start of the topic: the first ROW record
            consumer.seekToBeginning(List.of(tp));
            long deadline = System.nanoTime() + 30_000_000_000L;
            while (firstRow < 0 && consumer.position(tp) < end && System.nanoTime() < deadline) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(500))) {
                    EventType type = type(r);
                    if (type == EventType.ROW || type == EventType.ROWS) {
                        bytes += Math.max(0, r.serializedKeySize()) + Math.max(0, r.serializedValueSize());
                        rowCount += type == EventType.ROW ? 1 : rowsOf(r);
                        if (firstRow < 0) {
                            firstRow = appendTime(r);
                        }
                    }
                }
            }
            // the end of the topic: COPY_COMPLETED comes after the last copy chunk, before heartbeats
            consumer.seek(tp, Math.max(0, end - 5000));
            deadline = System.nanoTime() + 30_000_000_000L;
            while (consumer.position(tp) < end && System.nanoTime() < deadline) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(500))) {
                    if (type(r) == EventType.COPY_COMPLETED) {
                        copyCompleted = appendTime(r);
                    }
                }
            }
        } catch (RuntimeException e) {
            Bench.say("  (could not read the phases from " + topic + ": " + e + ")");
        }
        return new Phases(firstRow, copyCompleted, rowCount == 0 ? 0 : bytes / rowCount);
    }

    /** The rows a ROWS record carries (its {@code vstream.rows} header; 1 when it has none). */
    private static long rowsOf(ConsumerRecord<byte[], byte[]> r) {
        Header h = r.headers().lastHeader(EventHeaders.ROWS);
        return h == null ? 1 : Long.parseLong(new String(h.value(), StandardCharsets.UTF_8).strip());
    }

    private static EventType type(ConsumerRecord<byte[], byte[]> r) {
        Header h = r.headers().lastHeader(EventHeaders.EVENT);
        return h == null ? null : EventType.fromHeader(new String(h.value(), StandardCharsets.UTF_8));
    }

    private static long appendTime(ConsumerRecord<byte[], byte[]> r) {
        return r.timestampType() == TimestampType.LOG_APPEND_TIME ? r.timestamp() : -1;
    }

    private static String at(long time, long t0) {
        return time < 0 ? "unknown" : String.format(Locale.ROOT, "%.2f s", (time - t0) / 1000.0);
    }
}
