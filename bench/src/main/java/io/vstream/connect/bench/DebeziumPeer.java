package io.vstream.connect.bench;

import io.debezium.engine.ChangeEvent;
import io.debezium.engine.DebeziumEngine;
import io.debezium.engine.format.Json;
import io.vstream.connect.testsupport.db.MariaDbServer;
import io.vstream.connect.testsupport.db.ServerIds;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The second peer of the cdc and copy scenarios: Debezium's MariaDB connector ({@code debezium-connector-mariadb}
 * 3.5.0.Final) in its embedded engine ({@code debezium-embedded}, the async engine that {@code DebeziumEngine.create}
 * builds), in the benchmark's JVM, with the {@code Json} format: every record goes through Kafka's JsonConverter (with
 * schemas unless {@code --converter json}), as ours does, but to a callback that counts it instead of a producer and a
 * broker. Offsets in a file, schema history in a file ({@code FileSchemaHistory}), both under the work directory.
 * Reads the shard's binlog and tables with its own server_id; touches nothing else.
 *
 * <p>cdc: Debezium cannot be told a GTID to start at, so {@link #prepareStream} runs it once before the load with
 * {@code snapshot.mode=no_data} until a marker row inserted after its start arrives, and keeps its offset and schema
 * history: every timed run starts from copies of them, so it reads the load from the same place as the others.
 */
final class DebeziumPeer {
    static final String CONNECTOR = "io.debezium.connector.mariadb.MariaDbConnector";
    static final String MARKER_TABLE = "bench_marker";
    /** One name for every run: the engine keys its offsets by it, so a run finds the prepared offset. */
    static final String ENGINE_NAME = "bench-dbz";

    private final MariaDbServer server;
    private final Path dir;
    private final String converter;
    private int runs;
    private volatile Timeline lastTimeline;

    DebeziumPeer(MariaDbServer server, Path workDir, String converter) throws IOException {
        this.server = server;
        this.dir = workDir.resolve("debezium");
        this.converter = converter;
        Files.createDirectories(dir);
    }

    /** The version of the connector, for the report. */
    static String version() {
        Package p = io.debezium.connector.mariadb.MariaDbConnector.class.getPackage();
        return p.getImplementationVersion() != null ? p.getImplementationVersion() : "3.5.0.Final";
    }

    /** Events over time of the last run (seconds from its start), or null. */
    Timeline lastTimeline() {
        return lastTimeline;
    }

    /**
     * Runs the engine once with {@code snapshot.mode=no_data} on {@code database} before the load: waits until a row
     * inserted into a marker table after it started comes through, then stops it. Its offset (just after the marker)
     * and schema history are what every {@link #stream} run starts from.
     */
    void prepareStream(String database, String table, Duration timeout) throws Exception {
        server.execute(database, "CREATE TABLE " + MARKER_TABLE + " (id INT PRIMARY KEY)");
        Path offsets = dir.resolve("stream-start.offsets");
        Path history = dir.resolve("stream-start.history");
        Files.deleteIfExists(offsets);
        Files.deleteIfExists(history);
        CountDownLatch marker = new CountDownLatch(1);
        CountDownLatch started = new CountDownLatch(1);
        Properties p = properties(ENGINE_NAME, database, table, offsets, history, "no_data");
        try (Engine e = new Engine(p, event -> {
            if (event.destination().endsWith("." + MARKER_TABLE) && event.value() != null) {
                marker.countDown();
            }
        }, started)) {
            if (!started.await(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException("Debezium's task did not start within " + timeout.toSeconds() + " s"
                        + e.failureText());
            }
            long deadline = System.nanoTime() + timeout.toNanos();
            int id = 0;
            // the task may still be taking its no_data snapshot: insert markers until one comes through
            while (!marker.await(1, TimeUnit.SECONDS)) {
                if (System.nanoTime() > deadline || e.failed()) {
                    throw new IllegalStateException("Debezium did not stream the marker within " + timeout.toSeconds()
                            + " s" + e.failureText());
                }
                server.execute(database, "INSERT INTO " + MARKER_TABLE + " VALUES (" + (++id) + ")");
            }
        }
        if (!Files.exists(offsets) || !Files.exists(history)) {
            throw new IllegalStateException("Debezium left no offset or schema history in " + dir);
        }
    }

    /**
     * One timed cdc run: the engine from the prepared offset until it has delivered {@code expected} row changes of the
     * table; the last must be of the transaction {@code lastGtid}. Timed from the engine's start.
     */
    Measurement stream(String database, String table, String lastGtid, long expected, Duration timeout)
            throws Exception {
        int n = ++runs;
        Path offsets = dir.resolve("run-" + n + ".offsets");
        Path history = dir.resolve("run-" + n + ".history");
        Files.copy(dir.resolve("stream-start.offsets"), offsets, StandardCopyOption.REPLACE_EXISTING);
        Files.copy(dir.resolve("stream-start.history"), history, StandardCopyOption.REPLACE_EXISTING);
        Properties p = properties(ENGINE_NAME, database, table, offsets, history, "no_data");
        String needle = "\"gtid\":\"" + lastGtid + "\"";
        Measurement m = timed(p, table, expected, timeout, last -> last.contains(needle) ? null
                : "the last row change is not of transaction " + lastGtid, null);
        Files.deleteIfExists(offsets);
        Files.deleteIfExists(history);
        return m;
    }

    /**
     * One timed copy run: the engine's initial snapshot ({@code snapshot.mode=initial}, fresh offsets and history)
     * until it has delivered {@code expected} rows of the table, each a read ({@code op=r}). Timed from its start.
     */
    Measurement snapshot(String database, String table, long expected, Duration timeout) throws Exception {
        int n = ++runs;
        Path offsets = dir.resolve("run-" + n + ".offsets");
        Path history = dir.resolve("run-" + n + ".history");
        Files.deleteIfExists(offsets);
        Files.deleteIfExists(history);
        Properties p = properties(ENGINE_NAME, database, table, offsets, history, "initial");
        Measurement m = timed(p, table, expected, timeout, last -> null, "\"op\":\"r\"");
        Files.deleteIfExists(offsets);
        Files.deleteIfExists(history);
        return m;
    }

    /** A check of the last counted event's value: null when it is right, else why not. */
    private interface LastCheck {
        String check(String lastValue);
    }

    private Measurement timed(Properties p, String table, long expected, Duration timeout, LastCheck lastCheck,
                              String mustContain) throws Exception {
        String suffix = "." + table;
        AtomicLong count = new AtomicLong();
        AtomicLong wrong = new AtomicLong();
        AtomicLong firstNanos = new AtomicLong();
        AtomicLong endNanos = new AtomicLong();
        AtomicReference<String> last = new AtomicReference<>();
        CountDownLatch done = new CountDownLatch(1);
        Timeline timeline = new Timeline();
        long t0 = System.nanoTime();
        timeline.start(t0);
        try (Engine e = new Engine(p, event -> {
            if (event.value() == null || !event.destination().endsWith(suffix)) {
                return;
            }
            long c = count.incrementAndGet();
            if (c == 1) {
                firstNanos.set(System.nanoTime());
            }
            if (mustContain != null && !event.value().contains(mustContain)) {
                wrong.incrementAndGet();
            }
            timeline.add(System.nanoTime(), 1);
            if (c == expected) {
                endNanos.set(System.nanoTime());
                last.set(event.value());
                done.countDown();
            }
        }, null)) {
            long deadline = System.nanoTime() + timeout.toNanos();
            while (!done.await(500, TimeUnit.MILLISECONDS)) {
                if (e.failed() || System.nanoTime() > deadline) {
                    double s = (System.nanoTime() - t0) / 1e9;
                    return Measurement.invalid("debezium", s, count.get(), expected, e.failed()
                            ? "engine failed" + e.failureText()
                            : "only " + count.get() + " of " + expected + " within " + timeout.toSeconds() + " s");
                }
                Bench.progress("  debezium: " + count.get() + " of " + expected);
            }
            // anything beyond the expected count would be a wrong answer: give it a moment to show up
            Thread.sleep(300);
        }
        lastTimeline = timeline;
        double seconds = (endNanos.get() - t0) / 1e9;
        double stream = (endNanos.get() - firstNanos.get()) / 1e9;
        if (count.get() != expected) {
            return new Measurement("debezium", seconds, count.get(), expected, stream, false,
                    "counted " + count.get() + ", expected " + expected);
        }
        if (wrong.get() > 0) {
            return new Measurement("debezium", seconds, count.get(), expected, stream, false,
                    wrong.get() + " events without " + mustContain);
        }
        String why = lastCheck.check(last.get());
        return new Measurement("debezium", seconds, count.get(), expected, stream, why == null,
                why == null ? "" : why);
    }

    private Properties properties(String name, String database, String table, Path offsets, Path history,
                                  String snapshotMode) {
        Properties p = new Properties();
        p.setProperty("name", name);
        p.setProperty("connector.class", CONNECTOR);
        p.setProperty("topic.prefix", "bench_dbz");
        p.setProperty("database.hostname", server.host());
        p.setProperty("database.port", String.valueOf(server.port()));
        p.setProperty("database.user", MariaDbServer.USER);
        p.setProperty("database.password", MariaDbServer.PASSWORD);
        p.setProperty("database.server.id", String.valueOf(ServerIds.next()));
        p.setProperty("database.include.list", database);
        p.setProperty("table.include.list", database + "." + table + "," + database + "." + MARKER_TABLE);
        p.setProperty("snapshot.mode", snapshotMode);
        p.setProperty("include.schema.changes", "false");
        p.setProperty("tombstones.on.delete", "false");
        // Kafka 4's WorkerConfig requires it; the embedded engine with file offsets never connects to it
        p.setProperty("bootstrap.servers", "127.0.0.1:9");
        p.setProperty("offset.storage", "org.apache.kafka.connect.storage.FileOffsetBackingStore");
        p.setProperty("offset.storage.file.filename", offsets.toString());
        p.setProperty("offset.flush.interval.ms", "0");
        p.setProperty("schema.history.internal", "io.debezium.storage.file.history.FileSchemaHistory");
        p.setProperty("schema.history.internal.file.filename", history.toString());
        boolean schemas = !converter.equals("json");
        p.setProperty("converter.schemas.enable", String.valueOf(schemas));
        p.setProperty("key.converter.schemas.enable", String.valueOf(schemas));
        p.setProperty("value.converter.schemas.enable", String.valueOf(schemas));
        return p;
    }

    /** What the report says about this peer's setup. */
    static String description(String converter) {
        return "Debezium's MariaDB connector " + version() + " in its embedded engine (debezium-embedded, the async"
                + " engine of DebeziumEngine.create(Json.class)) in the benchmark's JVM, defaults otherwise;"
                + " JsonConverter " + (converter.equals("json") ? "without" : "with") + " schemas into a callback that"
                + " counts (no producer, no broker); offsets and schema history in files";
    }

    /** One engine on its own thread; closing stops it. */
    private static final class Engine implements AutoCloseable {
        private final DebeziumEngine<ChangeEvent<String, String>> engine;
        private final ExecutorService executor = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "bench-debezium");
            t.setDaemon(true);
            return t;
        });
        private final AtomicReference<Throwable> error = new AtomicReference<>();
        private final AtomicReference<String> message = new AtomicReference<>();
        private final CountDownLatch finished = new CountDownLatch(1);
        private volatile boolean failed;

        Engine(Properties props, java.util.function.Consumer<ChangeEvent<String, String>> consumer,
               CountDownLatch started) {
            this.engine = DebeziumEngine.create(Json.class)
                    .using(props)
                    .using(new DebeziumEngine.ConnectorCallback() {
                        @Override
                        public void taskStarted() {
                            if (started != null) {
                                started.countDown();
                            }
                        }
                    })
                    .using((success, msg, err) -> {
                        if (!success) {
                            failed = true;
                            message.set(msg);
                            error.set(err);
                        }
                        finished.countDown();
                    })
                    .notifying(consumer::accept)
                    .build();
            executor.execute(engine);
        }

        boolean failed() {
            return failed;
        }

        String failureText() {
            Throwable t = error.get();
            String m = message.get();
            return m == null && t == null ? "" : ": " + (m != null ? m : "") + (t != null ? " (" + t + ")" : "");
        }

        @Override
        public void close() throws Exception {
            engine.close();
            finished.await(30, TimeUnit.SECONDS);
            executor.shutdownNow();
        }
    }
}
