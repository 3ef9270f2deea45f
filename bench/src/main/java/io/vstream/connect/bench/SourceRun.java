package io.vstream.connect.bench;

import io.vstream.connect.core.event.TopicNames;
import io.vstream.connect.testsupport.connect.ConnectorFailures;
import io.vstream.connect.testsupport.db.MariaDbServer;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.function.ToLongFunction;

/**
 * "Us": one run of the source connector, loaded from its plugin archive by the Connect cluster, against one shard. Each
 * run has its own connector name and topic prefix (so its own binlog server_id, offsets and topics); the shard topic is
 * created first with broker append times, the connector is deployed through REST, and the run ends when the end record
 * is in the topic. The connector and its topics are deleted afterwards. Touches the shard's server (as the connector
 * does) and the Connect cluster.
 */
final class SourceRun {
    static final String CONNECTOR_CLASS = "io.vstream.connect.source.VStreamSourceConnector";
    static final String KEYSPACE = "bench";
    static final String SHARD = "-";

    private final ConnectProcesses connect;
    private final MariaDbServer server;
    private final String runPrefix;
    private int runs;

    private final String converter;
    private volatile long bytesPerRow;
    private volatile Timeline lastTimeline;

    SourceRun(ConnectProcesses connect, MariaDbServer server, String runPrefix, String converter) {
        this.connect = connect;
        this.server = server;
        this.runPrefix = runPrefix;
        this.converter = converter;
    }

    /** The average serialized size (key and value) of a ROW record in the last complete run, or 0. */
    long bytesPerRow() {
        return bytesPerRow;
    }

    /** ROW records over time (broker append times from the deploy) of the last complete run, or null. */
    Timeline lastTimeline() {
        return lastTimeline;
    }

    /** How records are converted, for the report. */
    static String converterDescription(String converter) {
        return converter.equals("json") ? "JsonConverter without schemas (key.converter.schemas.enable=false,"
                + " value.converter.schemas.enable=false)" : "JsonConverter with schemas (the harness's worker default)";
    }

    /** The connector configuration every run shares; a scenario adds its start mode. */
    Map<String, String> baseConfig(String database, String table) {
        return baseConfig(database, table, SHARD + "=" + server.host() + ":" + server.port(), 1, converter);
    }

    /** The same for any topology (shard=host:port,...) and number of tasks. */
    static Map<String, String> baseConfig(String database, String table, String topology, int tasks,
                                          String converter) {
        Map<String, String> c = new HashMap<>();
        c.put("connector.class", CONNECTOR_CLASS);
        c.put("tasks.max", String.valueOf(tasks));
        c.put("keyspace", KEYSPACE);
        c.put("database", database);
        c.put("topology", topology);
        c.put("user", MariaDbServer.USER);
        c.put("password", MariaDbServer.PASSWORD);
        c.put("table.include.list", table);
        c.put("topic.creation.default.partitions", "1");
        c.put("topic.creation.default.replication.factor", "1");
        c.put("key.converter", "org.apache.kafka.connect.json.JsonConverter");
        c.put("value.converter", "org.apache.kafka.connect.json.JsonConverter");
        boolean schemas = !converter.equals("json");
        c.put("key.converter.schemas.enable", String.valueOf(schemas));
        c.put("value.converter.schemas.enable", String.valueOf(schemas));
        return c;
    }

    /**
     * Deploys the connector with {@code config} (a fresh topic prefix is added), waits for the end record and counts
     * what the topic holds up to it.
     *
     * @param counted  what the run moves, from the watcher's counts (ROW records, or copy rows)
     * @param expected how many of those there must be
     */
    Measurement run(Map<String, String> config, ShardLogWatcher.End end, boolean countCopyRows,
                    ToLongFunction<ShardLogWatcher.Result> counted, long expected, Duration timeout)
            throws InterruptedException {
        int n = ++runs;
        String name = runPrefix + "-" + n;
        String prefix = runPrefix.replace('-', '_') + "_" + n;
        String topic = TopicNames.shardTopic(prefix, KEYSPACE, SHARD);
        ConnectProcesses kafka = connect;
        kafka.createTopic(topic, 1, 1, Map.of("message.timestamp.type", "LogAppendTime"));
        Map<String, String> c = new HashMap<>(config);
        c.put("topic.prefix", prefix);
        ShardLogWatcher watcher = new ShardLogWatcher(kafka, topic, end, countCopyRows,
                countCopyRows ? ShardLogWatcher.minRecords(expected, c) : expected).start();
        ShardLogWatcher.Result result = null;
        String failure = null;
        long t0 = System.currentTimeMillis();
        watcher.origin(t0);
        try {
            connect.deploy(name, c);
            long deadline = System.nanoTime() + timeout.toNanos();
            while (result == null && System.nanoTime() < deadline) {
                result = watcher.await(Duration.ofSeconds(2));
                if (result == null) {
                    failure = failedTask(connect, name);
                    if (failure != null) {
                        break;
                    }
                    Bench.progress("  us: " + watcher.progress());
                }
            }
        } finally {
            watcher.close();
            try {
                connect.delete(name);
            } catch (RuntimeException e) {
                Bench.say("  (could not delete connector " + name + ": " + e.getMessage() + ")");
            }
            deleteTopic(kafka, topic);
            deleteTopic(kafka, TopicNames.keyspaceTopic(prefix, KEYSPACE));
        }
        if (result == null) {
            ShardLogWatcher.Result partial = watcher.partial();
            double elapsed = (System.currentTimeMillis() - t0) / 1000.0;
            return Measurement.invalid("us", elapsed, counted.applyAsLong(partial), expected,
                    failure != null ? "task failed: " + firstLine(failure)
                            : "no end record within " + timeout.toSeconds() + " s (" + watcher.progress() + ", "
                            + partial.records() + " read)");
        }
        bytesPerRow = result.bytesPerRow();
        lastTimeline = watcher.rowTimeline();
        double seconds = (result.endAppend() - t0) / 1000.0;
        double stream = result.firstRowAppend() > 0 ? (result.endAppend() - result.firstRowAppend()) / 1000.0
                : Double.NaN;
        long items = counted.applyAsLong(result);
        String note = result.appendTimes() ? "" : "end time taken at the consumer (no broker append times)";
        if (items != expected) {
            return new Measurement("us", seconds, items, expected, stream, false,
                    "counted " + items + ", expected " + expected + " (" + result.perType() + ")");
        }
        return new Measurement("us", seconds, items, expected, stream, true, note);
    }

    /** The stack trace of the connector or of a task of it that FAILED, or null (also before it exists). */
    static String failedTask(ConnectProcesses connect, String name) {
        try {
            return ConnectorFailures.trace(connect.status(name));
        } catch (RuntimeException e) {
            return null; // not created yet
        }
    }

    static void deleteTopic(ConnectProcesses kafka, String topic) {
        try {
            kafka.deleteTopic(topic);
        } catch (RuntimeException e) {
            // it may not exist (the keyspace topic of a run that never started)
        }
    }

    static String firstLine(String trace) {
        int nl = trace.indexOf('\n');
        return nl < 0 ? trace : trace.substring(0, nl);
    }
}
