package io.vstream.connect.bench;

import com.fasterxml.jackson.databind.JsonNode;
import io.vstream.connect.local.ConnectRest;
import io.vstream.connect.local.ConnectWorker;
import io.vstream.connect.local.KafkaBroker;
import io.vstream.connect.local.KafkaClasspath;
import java.io.IOException;
import java.io.InputStream;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.connect.runtime.rest.entities.ConnectorStateInfo;

/**
 * Kafka and Kafka Connect as a user runs them: one KRaft broker ({@code kafka.Kafka}, broker and controller in one
 * process) and one distributed worker ({@code org.apache.kafka.connect.cli.ConnectDistributed}), or several in one
 * group (the stress command kills one and starts it again), each its own JVM started by local-runtime's launchers from
 * the Kafka jars of the benchmark's classpath (without our code, which the workers load from the plugin archives on
 * {@code plugin.path} with {@code plugin.discovery=service_load}), with slf4j-simple's log settings of the benchmark
 * and the G1 collector. Connectors are deployed through a running worker's REST API; topics are made and read with
 * the Kafka clients. Files under its own work directory; the processes are stopped on {@link #close}. Touches
 * nothing else.
 */
final class ConnectProcesses implements AutoCloseable {
    /** The lib directory (Kafka, Connect and their dependencies); bench/run sets it. */
    static final String LIB_PROPERTY = "vstream.bench.lib.dir";

    private final String name;
    private final KafkaBroker broker;
    private final List<ConnectWorker> workers;
    private final Map<ConnectWorker, ConnectRest> rests = new HashMap<>();
    private final Admin admin;
    private final String workerHeap;
    private final Path jfrDir;

    private ConnectProcesses(String name, KafkaBroker broker, List<ConnectWorker> workers, Admin admin,
                             String workerHeap, Path jfrDir) {
        this.name = name;
        this.broker = broker;
        this.workers = workers;
        this.admin = admin;
        this.workerHeap = workerHeap;
        this.jfrDir = jfrDir;
        workers.forEach(w -> rests.put(w, new ConnectRest(w.restUrl())));
    }

    /**
     * Starts the broker, then one worker, and waits until the worker's REST API answers.
     *
     * @param workerHeap the worker's {@code -Xmx} (e.g. {@code 1g}, {@code 256m})
     * @param jfrDir     where the broker and the worker record a JFR profile ({@code <name>-broker.jfr},
     *                   {@code <name>-worker.jfr}), or null for none
     */
    static ConnectProcesses start(String name, Path workDir, Path pluginsDir, String workerHeap, Path jfrDir)
            throws IOException {
        return start(name, workDir, pluginsDir, workerHeap, jfrDir, 1);
    }

    /**
     * Starts the broker, then {@code workerCount} workers of one group (each its own process and REST port), each
     * once the one before answers on its REST API.
     */
    static ConnectProcesses start(String name, Path workDir, Path pluginsDir, String workerHeap, Path jfrDir,
                                  int workerCount) throws IOException {
        if (workerCount < 1) {
            throw new IllegalArgumentException("at least one worker, was " + workerCount);
        }
        Path dir = workDir.resolve("kafka-" + name);
        deleteTree(dir);
        Files.createDirectories(dir);
        KafkaClasspath cp = classpath(dir);
        long t0 = System.nanoTime();
        List<String> brokerJvm = new ArrayList<>(List.of("-Xms512m", "-Xmx512m", "-XX:+UseG1GC"));
        brokerJvm.addAll(jfr(jfrDir, name + "-broker.jfr"));
        KafkaBroker broker = new KafkaBroker(dir.resolve("broker"), freePort(), freePort(), cp, null, true);
        broker.overrides().jvm(brokerJvm).ownSession(false)
                // Kafka's defaults where the launcher's differ, and no topic made by a client's request
                .property("offsets.topic.num.partitions", "50")
                .property("transaction.state.log.num.partitions", "50")
                .property("log.segment.delete.delay.ms", "1000")
                .property("auto.create.topics.enable", "false");
        List<ConnectWorker> workers = new ArrayList<>();
        Admin admin = null;
        try {
            broker.start(Duration.ofSeconds(60));
            admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers(),
                    AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "30000"));
            for (int i = 0; i < workerCount; i++) {
                ConnectWorker w = worker(name, dir.resolve(i == 0 ? "worker" : "worker-" + i), broker, pluginsDir, cp);
                workers.add(w);
                startWorker(w, i, name, workerHeap, jfrDir);
            }
            String pids = workers.stream().map(x -> String.valueOf(x.process().pid()))
                    .collect(Collectors.joining(", "));
            Bench.say(String.format("%s: Kafka broker and %s (-Xmx%s) started as processes in %.1f s"
                    + " (broker pid %d, worker pid%s %s)", name, workerCount == 1 ? "Connect worker"
                    : workerCount + " Connect workers", workerHeap, (System.nanoTime() - t0) / 1e9,
                    broker.process().pid(), workerCount == 1 ? "" : "s", pids));
            return new ConnectProcesses(name, broker, workers, admin, workerHeap, jfrDir);
        } catch (RuntimeException e) {
            if (admin != null) {
                admin.close(Duration.ofSeconds(2));
            }
            workers.forEach(ConnectWorker::stop);
            broker.stop();
            throw e;
        }
    }

    /** A worker of the benchmark's group: the worker settings the report names, Kafka's defaults elsewhere. */
    private static ConnectWorker worker(String name, Path dir, KafkaBroker broker, Path pluginsDir, KafkaClasspath cp)
            throws IOException {
        ConnectWorker worker = new ConnectWorker(dir, freePort(), broker.bootstrapServers(),
                pluginsDir.toAbsolutePath(), dir, cp, null, true);
        worker.overrides().ownSession(false).property("group.id", "bench-" + name)
                .property("config.storage.topic", "connect-configs")
                .property("offset.storage.topic", "connect-offsets")
                .property("status.storage.topic", "connect-status")
                .property("offset.storage.partitions", "25")
                .property("status.storage.partitions", "5")
                .property("key.converter.decimal.format", "BASE64")
                .property("value.converter.decimal.format", "BASE64")
                .property("topic.creation.enable", "true");
        return worker;
    }

    /**
     * Starts (or starts again) worker {@code index} with the benchmark's JVM options and a JFR recording of its own,
     * and waits for its REST API. Its log (slf4j-simple on stderr) is its process's output.
     */
    private static void startWorker(ConnectWorker w, int index, String name, String heap, Path jfrDir) {
        String restart = w.logFiles().isEmpty() ? "" : "-restart" + w.logFiles().size();
        List<String> jvm = new ArrayList<>(List.of("-Xmx" + heap, "-XX:+UseG1GC"));
        jvm.addAll(jfr(jfrDir, name + "-worker" + (index == 0 ? "" : "-" + index) + restart + ".jfr"));
        w.overrides().jvm(jvm);
        w.start(Duration.ofSeconds(120));
    }

    /** How the processes run, for the report. */
    static String description() {
        return "separate processes, as a user runs them: one KRaft broker (kafka.Kafka, broker and controller in one"
                + " JVM, -Xmx512m) and one distributed worker (org.apache.kafka.connect.cli.ConnectDistributed, its own"
                + " JVM, -Xmx1g unless the scenario says otherwise), both Kafka 4.3.1 from Central, started from the"
                + " benchmark's lib directory without our code; the connectors come from their plugin archives on"
                + " plugin.path (plugin.discovery=service_load) and are deployed through the worker's REST API";
    }

    String bootstrapServers() {
        return broker.bootstrapServers();
    }

    /** The pid of the broker's process. */
    long brokerPid() {
        return broker.process().pid();
    }

    /** The pid of the (first) worker's process. */
    long workerPid() {
        return workerPid(0);
    }

    long workerPid(int index) {
        return workers.get(index).process().pid();
    }

    int workerCount() {
        return workers.size();
    }

    /** Worker {@code index}'s REST API, e.g. {@code http://127.0.0.1:41234}. */
    String restUrl(int index) {
        return workers.get(index).restUrl();
    }

    /** Every worker's REST API, in index order. */
    List<String> restUrls() {
        return workers.stream().map(ConnectWorker::restUrl).toList();
    }

    /** The worker whose {@code worker_id} (in a connector's status: {@code host:port}) this is, or -1. */
    int workerIndexOf(String workerId) {
        for (int i = 0; i < workers.size(); i++) {
            if (workers.get(i).workerId().equals(workerId)) {
                return i;
            }
        }
        return -1;
    }

    boolean workerAlive(int index) {
        return workers.get(index).isAlive();
    }

    /**
     * {@code kill -9} of worker {@code index}'s process (SIGKILL: no shutdown, no offset flush, no leaving the group,
     * as a crashed machine), waiting until it is gone.
     */
    void killWorker(int index) {
        workers.get(index).kill();
    }

    /** Starts worker {@code index} again (after {@link #killWorker}), same group and REST port, and waits for its REST API. */
    void restartWorker(int index) {
        startWorker(workers.get(index), index, name, workerHeap, jfrDir);
    }

    /** Every log file the workers wrote, restarts included. */
    List<Path> workerLogs() {
        List<Path> all = new ArrayList<>();
        workers.forEach(w -> all.addAll(w.logFiles()));
        return all;
    }

    String workerHeap() {
        return workerHeap;
    }

    /** The (first) worker's log (slf4j-simple), where the connectors' lines go. */
    Path workerLog() {
        return workers.get(0).logFiles().get(0);
    }

    void createTopic(String topic, int partitions, int replicationFactor, Map<String, String> config) {
        try {
            admin.createTopics(List.of(new NewTopic(topic, partitions, (short) replicationFactor).configs(config)))
                    .all().get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("could not create topic " + topic + ": " + e, e);
        }
    }

    void deleteTopic(String topic) {
        try {
            admin.deleteTopics(List.of(topic)).all().get(30, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof UnknownTopicOrPartitionException)) {
                throw new IllegalStateException("could not delete topic " + topic + ": " + e.getCause(), e);
            }
        } catch (Exception e) {
            throw new IllegalStateException("could not delete topic " + topic + ": " + e, e);
        }
    }

    /** A consumer of byte arrays on this broker; {@code props} adds to (or overrides) the bootstrap servers. */
    KafkaConsumer<byte[], byte[]> createConsumer(Map<String, Object> props) {
        Map<String, Object> p = new HashMap<>(props);
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
        p.putIfAbsent(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        return new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    /** {@code PUT /connectors/{name}/config}: creates or reconfigures a connector. */
    void deploy(String connector, Map<String, String> config) {
        rest().putConfig(connector, config);
    }

    /** {@code DELETE /connectors/{name}}. */
    void delete(String connector) {
        rest().delete(connector);
    }

    /** {@code GET /connectors/{name}/status}; throws when the connector is not known (yet). */
    ConnectorStateInfo status(String connector) {
        JsonNode n = rest().status(connector);
        if (n == null) {
            throw new IllegalStateException("GET /connectors/" + connector + "/status: 404");
        }
        JsonNode c = n.path("connector");
        List<ConnectorStateInfo.TaskState> tasks = new ArrayList<>();
        for (JsonNode t : n.path("tasks")) {
            tasks.add(new ConnectorStateInfo.TaskState(t.path("id").asInt(), t.path("state").asText(),
                    t.path("worker_id").asText(), t.path("trace").asText(null), t.path("version").asText(null)));
        }
        return new ConnectorStateInfo(connector, new ConnectorStateInfo.ConnectorState(c.path("state").asText(),
                c.path("worker_id").asText(), c.path("trace").asText(null), c.path("version").asText(null)),
                tasks, null);
    }

    /** The REST API of the first worker whose process runs (the others forward to the group's leader). */
    private ConnectRest rest() {
        for (ConnectWorker w : workers) {
            if (w.isAlive()) {
                return rests.get(w);
            }
        }
        throw new IllegalStateException("no Connect worker of " + name + " is running");
    }

    @Override
    public void close() {
        admin.close(Duration.ofSeconds(5));
        workers.forEach(ConnectWorker::stop);
        broker.stop();
        deleteTree(broker.dataDir());
    }

    /**
     * The classpath of the Kafka processes: the jars of the lib directory without our code, the peers' and the plots'
     * (the worker finds our connectors on plugin.path), and a directory with the log settings.
     */
    private static KafkaClasspath classpath(Path dir) throws IOException {
        String lib = System.getProperty(LIB_PROPERTY);
        if (lib == null) {
            throw new IllegalStateException("-D" + LIB_PROPERTY + " is not set (bench/run sets it)");
        }
        Path conf = dir.resolve("conf");
        Files.createDirectories(conf);
        try (InputStream in = ConnectProcesses.class.getResourceAsStream("/kafka-simplelogger.properties")) {
            Files.write(conf.resolve("simplelogger.properties"), in.readAllBytes());
        }
        List<Path> parts = new ArrayList<>();
        parts.add(conf);
        try (Stream<Path> jars = Files.list(Path.of(lib))) {
            parts.addAll(jars.filter(ConnectProcesses::onKafkaClasspath).sorted().toList());
        }
        return KafkaClasspath.of(parts);
    }

    private static boolean onKafkaClasspath(Path jar) {
        String f = jar.getFileName().toString();
        return f.endsWith(".jar") && !f.startsWith("vstream-") && !f.startsWith("debezium-")
                && !f.startsWith("xchart") && !f.startsWith("mysql-binlog-connector") && !f.endsWith("-test.jar")
                && !f.startsWith("mariadb-java-client") && !f.startsWith("junit") && !f.startsWith("assertj");
    }

    private static List<String> jfr(Path dir, String file) {
        return dir == null ? List.of() : List.of("-XX:StartFlightRecording=filename=" + dir.resolve(file).toAbsolutePath()
                + ",settings=profile,dumponexit=true");
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            s.setReuseAddress(true);
            return s.getLocalPort();
        }
    }

    private static void deleteTree(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // best effort: the next run starts in a fresh directory anyway
        }
    }
}
