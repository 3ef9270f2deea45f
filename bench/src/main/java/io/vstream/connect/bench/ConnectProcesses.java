package io.vstream.connect.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.connect.runtime.rest.entities.ConnectorStateInfo;

/**
 * Kafka and Kafka Connect as a user runs them: one KRaft broker ({@code kafka.Kafka}, broker and controller in one
 * process) and one distributed worker ({@code org.apache.kafka.connect.cli.ConnectDistributed}), or several in one
 * group (the stress command kills one and starts it again), each its own JVM started from the Kafka jars of the
 * benchmark's classpath (without our code, which the workers load from the plugin archives on {@code plugin.path}
 * with {@code plugin.discovery=service_load}). Connectors are deployed through a running worker's REST API; topics
 * are made and read with the Kafka clients. Files under its own work directory; the processes are stopped on
 * {@link #close}. Touches nothing else.
 */
final class ConnectProcesses implements AutoCloseable {
    /** The lib directory (Kafka, Connect and their dependencies); bench/run sets it. */
    static final String LIB_PROPERTY = "vstream.bench.lib.dir";

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private final String name;
    private final Path dir;
    private final Process broker;
    private final List<ConnectWorker> workers;
    private final String bootstrap;
    private final Admin admin;
    private final String workerHeap;
    private final String classpath;
    private final Path jfrDir;

    private ConnectProcesses(String name, Path dir, Process broker, List<ConnectWorker> workers, String bootstrap,
                             Admin admin, String workerHeap, String classpath, Path jfrDir) {
        this.name = name;
        this.dir = dir;
        this.broker = broker;
        this.workers = workers;
        this.bootstrap = bootstrap;
        this.admin = admin;
        this.workerHeap = workerHeap;
        this.classpath = classpath;
        this.jfrDir = jfrDir;
    }

    /**
     * Starts the broker, then one worker, and waits until the worker's REST API answers.
     *
     * @param workerHeap the worker's {@code -Xmx} (e.g. {@code 1g}, {@code 256m})
     * @param jfrDir     where the broker and the worker record a JFR profile ({@code <name>-broker.jfr},
     *                   {@code <name>-worker.jfr}), or null for none
     */
    static ConnectProcesses start(String name, Path workDir, Path pluginsDir, String workerHeap, Path jfrDir)
            throws IOException, InterruptedException {
        return start(name, workDir, pluginsDir, workerHeap, jfrDir, 1);
    }

    /**
     * Starts the broker, then {@code workerCount} workers of one group (each its own process and REST port), and
     * waits until every worker's REST API answers.
     */
    static ConnectProcesses start(String name, Path workDir, Path pluginsDir, String workerHeap, Path jfrDir,
                                  int workerCount) throws IOException, InterruptedException {
        if (workerCount < 1) {
            throw new IllegalArgumentException("at least one worker, was " + workerCount);
        }
        Path dir = workDir.resolve("kafka-" + name);
        deleteTree(dir);
        Files.createDirectories(dir);
        String cp = classpath(dir);
        int brokerPort = freePort();
        int controllerPort = freePort();

        Properties b = new Properties();
        b.setProperty("process.roles", "broker,controller");
        b.setProperty("node.id", "1");
        b.setProperty("controller.quorum.voters", "1@127.0.0.1:" + controllerPort);
        b.setProperty("listeners", "PLAINTEXT://127.0.0.1:" + brokerPort + ",CONTROLLER://127.0.0.1:" + controllerPort);
        b.setProperty("advertised.listeners", "PLAINTEXT://127.0.0.1:" + brokerPort);
        b.setProperty("controller.listener.names", "CONTROLLER");
        b.setProperty("inter.broker.listener.name", "PLAINTEXT");
        b.setProperty("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        b.setProperty("log.dirs", dir.resolve("broker-data").toString());
        b.setProperty("num.partitions", "1");
        b.setProperty("offsets.topic.replication.factor", "1");
        b.setProperty("transaction.state.log.replication.factor", "1");
        b.setProperty("transaction.state.log.min.isr", "1");
        b.setProperty("share.coordinator.state.topic.replication.factor", "1");
        b.setProperty("share.coordinator.state.topic.min.isr", "1");
        b.setProperty("group.initial.rebalance.delay.ms", "0");
        b.setProperty("log.segment.delete.delay.ms", "1000");
        b.setProperty("auto.create.topics.enable", "false");
        Path brokerProps = dir.resolve("server.properties");
        store(b, brokerProps);
        Path logs = dir.resolve("logs");
        Files.createDirectories(logs);
        String clusterId = Uuid.randomUuid().toString();
        Process format = new ProcessBuilder(java(), "-Xmx256m", "-cp", cp, "kafka.tools.StorageTool", "format", "-t",
                clusterId, "-c", brokerProps.toString())
                .redirectErrorStream(true).redirectOutput(logs.resolve("format.log").toFile()).start();
        if (!format.waitFor(60, TimeUnit.SECONDS) || format.exitValue() != 0) {
            throw new IllegalStateException("kafka-storage format failed: " + Files.readString(logs.resolve("format.log")));
        }
        long t0 = System.nanoTime();
        List<String> brokerCmd = new ArrayList<>(List.of(java(), "-Xms512m", "-Xmx512m", "-XX:+UseG1GC"));
        brokerCmd.addAll(jfr(jfrDir, name + "-broker.jfr"));
        brokerCmd.addAll(List.of(
                "-Dorg.slf4j.simpleLogger.logFile=" + logs.resolve("broker.log"),
                "-cp", cp, "kafka.Kafka", brokerProps.toString()));
        Process broker = new ProcessBuilder(brokerCmd).redirectErrorStream(true)
                .redirectOutput(logs.resolve("broker.out").toFile()).start();
        String bootstrap = "127.0.0.1:" + brokerPort;
        Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "30000"));
        List<ConnectWorker> workers = new ArrayList<>();
        try {
            awaitBroker(admin, broker, logs, Duration.ofSeconds(60));

            Properties w = new Properties();
            w.setProperty("bootstrap.servers", bootstrap);
            w.setProperty("group.id", "bench-" + name);
            w.setProperty("config.storage.topic", "connect-configs");
            w.setProperty("offset.storage.topic", "connect-offsets");
            w.setProperty("status.storage.topic", "connect-status");
            w.setProperty("config.storage.replication.factor", "1");
            w.setProperty("offset.storage.replication.factor", "1");
            w.setProperty("status.storage.replication.factor", "1");
            w.setProperty("key.converter", "org.apache.kafka.connect.json.JsonConverter");
            w.setProperty("value.converter", "org.apache.kafka.connect.json.JsonConverter");
            w.setProperty("key.converter.schemas.enable", "true");
            w.setProperty("value.converter.schemas.enable", "true");
            w.setProperty("plugin.path", pluginsDir.toAbsolutePath().toString());
            w.setProperty("plugin.discovery", "service_load");
            w.setProperty("offset.flush.interval.ms", "500");
            w.setProperty("scheduled.rebalance.max.delay.ms", "3000");
            w.setProperty("topic.creation.enable", "true");
            for (int i = 0; i < workerCount; i++) {
                int restPort = freePort();
                w.setProperty("listeners", "http://127.0.0.1:" + restPort);
                Path workerProps = dir.resolve(i == 0 ? "connect-distributed.properties"
                        : "connect-distributed-" + i + ".properties");
                store(w, workerProps);
                workers.add(new ConnectWorker(i, workerProps, restPort));
            }
            for (ConnectWorker worker : workers) {
                worker.start(name, cp, logs, workerHeap, jfrDir);
            }
            for (ConnectWorker worker : workers) {
                worker.awaitRest(Duration.ofSeconds(120));
            }
            String pids = workers.stream().map(x -> String.valueOf(x.pid())).collect(Collectors.joining(", "));
            Bench.say(String.format("%s: Kafka broker and %s (-Xmx%s) started as processes in %.1f s"
                    + " (broker pid %d, worker pid%s %s)", name, workerCount == 1 ? "Connect worker"
                    : workerCount + " Connect workers", workerHeap, (System.nanoTime() - t0) / 1e9, broker.pid(),
                    workerCount == 1 ? "" : "s", pids));
            return new ConnectProcesses(name, dir, broker, workers, bootstrap, admin, workerHeap, cp, jfrDir);
        } catch (RuntimeException | IOException | InterruptedException e) {
            admin.close(Duration.ofSeconds(2));
            for (ConnectWorker worker : workers) {
                stop(worker.process());
            }
            stop(broker);
            throw e;
        }
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
        return bootstrap;
    }

    /** The pid of the broker's process. */
    long brokerPid() {
        return broker.pid();
    }

    /** The pid of the (first) worker's process. */
    long workerPid() {
        return workerPid(0);
    }

    long workerPid(int index) {
        return workers.get(index).pid();
    }

    int workerCount() {
        return workers.size();
    }

    /** Worker {@code index}'s REST API, e.g. {@code http://127.0.0.1:41234}. */
    String restUrl(int index) {
        return workers.get(index).rest();
    }

    /** Every worker's REST API, in index order. */
    List<String> restUrls() {
        return workers.stream().map(ConnectWorker::rest).toList();
    }

    /** The worker whose {@code worker_id} (in a connector's status: {@code host:port}) this is, or -1. */
    int workerIndexOf(String workerId) {
        for (ConnectWorker w : workers) {
            if (w.isWorkerId(workerId)) {
                return w.index();
            }
        }
        return -1;
    }

    boolean workerAlive(int index) {
        return workers.get(index).alive();
    }

    /**
     * {@code kill -9} of worker {@code index}'s process (SIGKILL: no shutdown, no offset flush, no leaving the group,
     * as a crashed machine), waiting until it is gone.
     */
    void killWorker(int index) throws InterruptedException {
        workers.get(index).kill();
    }

    /** Starts worker {@code index} again (after {@link #killWorker}), same group and REST port, and waits for its REST API. */
    void restartWorker(int index) throws IOException, InterruptedException {
        ConnectWorker w = workers.get(index);
        w.start(name, classpath, dir.resolve("logs"), workerHeap, jfrDir);
        w.awaitRest(Duration.ofSeconds(120));
    }

    /** Every log file the workers wrote, restarts included. */
    List<Path> workerLogs() {
        List<Path> all = new ArrayList<>();
        workers.forEach(w -> all.addAll(w.logs()));
        return all;
    }

    String workerHeap() {
        return workerHeap;
    }

    /** The (first) worker's log (slf4j-simple), where the connectors' lines go. */
    Path workerLog() {
        return dir.resolve("logs").resolve("connect.log");
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
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.putIfAbsent(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        return new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    /** {@code PUT /connectors/{name}/config}: creates or reconfigures a connector. */
    void deploy(String connector, Map<String, String> config) {
        String body;
        try {
            body = JSON.writeValueAsString(new LinkedHashMap<>(config));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        HttpResponse<String> r = call(HttpRequest.newBuilder(URI.create(rest() + "/connectors/" + connector + "/config"))
                .header("Content-Type", "application/json").PUT(HttpRequest.BodyPublishers.ofString(body)), true);
        if (r.statusCode() != 200 && r.statusCode() != 201) {
            throw new IllegalStateException("PUT /connectors/" + connector + "/config: " + r.statusCode() + " "
                    + r.body());
        }
    }

    /** {@code DELETE /connectors/{name}}. */
    void delete(String connector) {
        HttpResponse<String> r = call(HttpRequest.newBuilder(URI.create(rest() + "/connectors/" + connector)).DELETE(),
                true);
        if (r.statusCode() != 204 && r.statusCode() != 200 && r.statusCode() != 404) {
            throw new IllegalStateException("DELETE /connectors/" + connector + ": " + r.statusCode() + " " + r.body());
        }
    }

    /** {@code GET /connectors/{name}/status}; throws when the connector is not known (yet). */
    ConnectorStateInfo status(String connector) {
        HttpResponse<String> r = call(HttpRequest.newBuilder(URI.create(rest() + "/connectors/" + connector + "/status"))
                .GET(), false);
        if (r.statusCode() != 200) {
            throw new IllegalStateException("GET /connectors/" + connector + "/status: " + r.statusCode());
        }
        try {
            JsonNode n = JSON.readTree(r.body());
            JsonNode c = n.path("connector");
            List<ConnectorStateInfo.TaskState> tasks = new ArrayList<>();
            for (JsonNode t : n.path("tasks")) {
                tasks.add(new ConnectorStateInfo.TaskState(t.path("id").asInt(), t.path("state").asText(),
                        t.path("worker_id").asText(), t.path("trace").asText(null), t.path("version").asText(null)));
            }
            return new ConnectorStateInfo(connector, new ConnectorStateInfo.ConnectorState(c.path("state").asText(),
                    c.path("worker_id").asText(), c.path("trace").asText(null), c.path("version").asText(null)),
                    tasks, null);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The REST API of the first worker whose process runs (the others forward to the group's leader). */
    private String rest() {
        for (ConnectWorker w : workers) {
            if (w.alive()) {
                return w.rest();
            }
        }
        throw new IllegalStateException("no Connect worker of " + name + " is running");
    }

    /** A REST call; with {@code retryConflict}, a 409 (the worker is rebalancing) is retried for up to 30 s. */
    private static HttpResponse<String> call(HttpRequest.Builder request, boolean retryConflict) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            try {
                HttpResponse<String> r = HTTP.send(request.timeout(Duration.ofSeconds(60)).build(),
                        HttpResponse.BodyHandlers.ofString());
                if (retryConflict && r.statusCode() == 409 && System.nanoTime() < deadline) {
                    Thread.sleep(250);
                    continue;
                }
                return r;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            }
        }
    }

    @Override
    public void close() {
        admin.close(Duration.ofSeconds(5));
        for (ConnectWorker w : workers) {
            stop(w.process());
        }
        stop(broker);
        deleteTree(dir.resolve("broker-data"));
    }

    /** SIGTERM, then SIGKILL after 20 s. */
    private static void stop(Process p) {
        if (p == null || !p.isAlive()) {
            return;
        }
        p.destroy();
        try {
            if (!p.waitFor(20, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                p.waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            p.destroyForcibly();
        }
    }

    private static void awaitBroker(Admin admin, Process broker, Path logs, Duration timeout)
            throws InterruptedException, IOException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (!broker.isAlive()) {
                throw new IllegalStateException("the Kafka broker exited " + broker.exitValue() + ": "
                        + tail(logs.resolve("broker.out")));
            }
            try {
                admin.describeCluster().nodes().get(5, TimeUnit.SECONDS);
                return;
            } catch (Exception e) {
                Thread.sleep(200);
            }
        }
        throw new IllegalStateException("the Kafka broker did not answer within " + timeout.toSeconds() + " s: "
                + tail(logs.resolve("broker.out")));
    }

    /**
     * The classpath of the Kafka processes: the jars of the lib directory without our code, the peers' and the plots'
     * (the worker finds our connectors on plugin.path), and a directory with the log settings.
     */
    private static String classpath(Path dir) throws IOException {
        String lib = System.getProperty(LIB_PROPERTY);
        if (lib == null) {
            throw new IllegalStateException("-D" + LIB_PROPERTY + " is not set (bench/run sets it)");
        }
        Path conf = dir.resolve("conf");
        Files.createDirectories(conf);
        try (InputStream in = ConnectProcesses.class.getResourceAsStream("/kafka-simplelogger.properties")) {
            Files.write(conf.resolve("simplelogger.properties"), in.readAllBytes());
        }
        List<String> parts = new ArrayList<>();
        parts.add(conf.toString());
        try (Stream<Path> jars = Files.list(Path.of(lib))) {
            parts.addAll(jars.map(Path::toString).filter(ConnectProcesses::onKafkaClasspath).sorted()
                    .collect(Collectors.toList()));
        }
        return String.join(File.pathSeparator, parts);
    }

    private static boolean onKafkaClasspath(String jar) {
        String f = Path.of(jar).getFileName().toString();
        return f.endsWith(".jar") && !f.startsWith("vstream-") && !f.startsWith("debezium-")
                && !f.startsWith("xchart") && !f.startsWith("mysql-binlog-connector") && !f.endsWith("-test.jar")
                && !f.startsWith("mariadb-java-client") && !f.startsWith("junit") && !f.startsWith("assertj");
    }

    static List<String> jfr(Path dir, String file) {
        return dir == null ? List.of() : List.of("-XX:StartFlightRecording=filename=" + dir.resolve(file).toAbsolutePath()
                + ",settings=profile,dumponexit=true");
    }

    static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            s.setReuseAddress(true);
            return s.getLocalPort();
        }
    }

    private static void store(Properties p, Path file) throws IOException {
        try (var out = Files.newOutputStream(file)) {
            p.store(out, null);
        }
    }

    static String tail(Path file) throws IOException {
        if (!Files.exists(file)) {
            return "";
        }
        String s = Files.readString(file, StandardCharsets.UTF_8);
        return s.length() > 2000 ? s.substring(s.length() - 2000) : s;
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
