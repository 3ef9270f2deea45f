package io.vstream.connect.it;

import static io.vstream.connect.it.LocalPorts.freePort;
import static io.vstream.connect.it.LocalPorts.freshDir;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.vstream.connect.core.event.TopicNames;
import io.vstream.connect.quickstart.ConfigExamples;
import io.vstream.connect.local.ConnectRest;
import io.vstream.connect.local.ConnectWorker;
import io.vstream.connect.local.KafkaBroker;
import io.vstream.connect.local.KafkaClasspath;
import io.vstream.connect.testsupport.db.MariaDbServer;
import io.vstream.connect.testsupport.db.MariaDbShards;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Our plugin archives in a Kafka Connect worker of its own, as users run one: a KRaft broker ({@code kafka.Kafka}) and
 * a distributed worker ({@code ConnectDistributed}), each a separate JVM started with Kafka's and Connect's jars only
 * (checked: no class of ours on the worker's classpath), with the unpacked archives on {@code plugin.path} and
 * {@code plugin.discovery=service_load}. The worker lists our three connectors with their version, and the CDC example
 * ({@code config-examples/cdc-source.json}: the topology pointed at one local shard, the secrets file and the user's
 * password resolved by the worker's {@code FileConfigProvider}, replication factor 1) deployed through REST streams the
 * rows written afterwards to the shard's topic. The launchers are the ones {@code ./quickstart} uses.
 */
class PackagedWorkerIT {
    @RegisterExtension
    static final MariaDbShards SHARDS = MariaDbShards.builder().count(1).name("PackagedWorkerIT").build();

    private static final List<String> OUR_CONNECTORS = List.of("io.vstream.connect.source.VStreamSourceConnector",
            "io.vstream.connect.sink.VStreamSinkConnector",
            "io.vstream.connect.coordinator.VStreamCoordinatorConnector");
    private static final String PASSWORD = DocumentedGrants.PASSWORD; // docs/grants.md's placeholder

    @Test
    void theCdcExampleStreamsThroughAWorkerInItsOwnJvm() throws Exception {
        assertThatThrownBy(() -> Class.forName(OUR_CONNECTORS.get(0)))
                .as("the connector is not on the test classpath either").isInstanceOf(ClassNotFoundException.class);
        KafkaClasspath classpath = KafkaClasspath.load();
        assertThat(classpath.entriesWithOurClasses()).as("classpath entries of the Kafka JVMs holding our classes")
                .isEmpty();
        Path dir = freshDir(Path.of("target", "packaged-worker").toAbsolutePath());
        Path plugins = Path.of(System.getProperty("vstream.plugins.dir", "target/plugins")).toAbsolutePath();
        Path secrets = dir.resolve("secrets");
        Files.createDirectories(secrets);
        Path secretsFile = secrets.resolve("secrets.properties");
        Files.writeString(secretsFile, "vstream.password=" + PASSWORD + "\n");

        KafkaBroker broker = new KafkaBroker(dir.resolve("kafka"), freePort(), freePort(), classpath, null, true);
        ConnectWorker worker = new ConnectWorker(dir.resolve("connect"), freePort(), broker.bootstrapServers(),
                plugins, secrets, classpath, null, true);
        Thread reaper = new Thread(() -> stopAll(worker, broker), "packaged-worker-reaper");
        Runtime.getRuntime().addShutdownHook(reaper);
        try {
            broker.start(Duration.ofSeconds(60));
            ConnectRest rest = worker.start(Duration.ofSeconds(60));
            assertThat(classpathOf(worker.process().pid())).as("the running worker's -cp").isEqualTo(
                    classpath.asArgument());

            JsonNode listed = rest.connectorPlugins();
            String version = System.getProperty("project.version", "0.1.0-SNAPSHOT");
            for (String connector : OUR_CONNECTORS) {
                assertThat(listed.findValuesAsText("class")).as("GET /connector-plugins").contains(connector);
                for (JsonNode p : listed) {
                    if (p.path("class").asText().equals(connector)) {
                        assertThat(p.path("version").asText()).as("version of %s", connector).isEqualTo(version);
                    }
                }
            }

            MariaDbServer shard = SHARDS.server(0);
            prepareShard(shard);
            Map<String, String> config = ConfigExamples.load(Path.of("../config-examples/cdc-source.json"),
                    Map.of("-80=127.0.0.1:3307,80-=127.0.0.1:3308", "-=" + shard.host() + ":" + shard.port(),
                            "/etc/kafka-connect/secrets.properties", secretsFile.toString()),
                    Map.of("topic.creation.default.replication.factor", "1"));
            assertThat(config.get("password")).startsWith("${file:" + secretsFile);
            rest.putConfig("commerce-cdc", config);
            rest.awaitRunning("commerce-cdc", 1, Duration.ofSeconds(60));

            String topic = TopicNames.shardTopic("vstream", "commerce", "-");
            try (KafkaConsumer<String, String> consumer = consumer(broker.bootstrapServers())) {
                awaitRecords(consumer, topic, 1, Set.of(), Duration.ofSeconds(60)); // streaming: a heartbeat arrived
                try (Connection c = shard.connect("commerce"); Statement st = c.createStatement()) {
                    c.setAutoCommit(false);
                    for (int i = 1; i <= 3; i++) {
                        st.executeUpdate("INSERT INTO customer VALUES (" + i + ", 'user" + i + "@example.com')");
                    }
                    st.executeUpdate("INSERT INTO corder VALUES (10, 1, 'SKU-1001', 30.00)");
                    c.commit();
                    st.executeUpdate("UPDATE customer SET email = 'changed2@example.com' WHERE customer_id = 2");
                    c.commit();
                }
                List<JsonNode> rows = awaitRecords(consumer, topic, 5, Set.of("user1@example.com", "user3@example.com",
                        "SKU-1001", "changed2@example.com"), Duration.ofSeconds(60));
                List<String> ops = new ArrayList<>();
                for (JsonNode r : rows) {
                    JsonNode payload = r.path("payload");
                    if (payload.has("op")) {
                        ops.add(payload.path("source").path("table").asText() + ":" + payload.path("op").asText());
                    }
                }
                assertThat(ops).containsExactly("customer:c", "customer:c", "customer:c", "corder:c", "customer:u");
            }
            assertThat(rest.status("commerce-cdc").path("tasks").get(0).path("worker_id").asText())
                    .as("the task runs in the separate worker").endsWith(":" + worker.restUrl().replaceAll(".*:", ""));
        } finally {
            stopAll(worker, broker);
            Runtime.getRuntime().removeShutdownHook(reaper);
        }
    }

    private static void prepareShard(MariaDbServer shard) {
        // the account docs/grants.md prints for change data capture, as printed
        shard.execute(null, "CREATE DATABASE commerce");
        shard.execute(null, DocumentedGrants.statements("cdc source", "commerce").toArray(String[]::new));
        shard.execute("commerce", "CREATE TABLE customer (customer_id BIGINT PRIMARY KEY, email VARCHAR(128) NOT NULL)",
                "CREATE TABLE corder (order_id BIGINT PRIMARY KEY, customer_id BIGINT NOT NULL, sku VARCHAR(32),"
                        + " price DECIMAL(10,2))");
    }

    /** Reads the topic from the start until it holds {@code min} records and each needle; the row records' values. */
    private static List<JsonNode> awaitRecords(KafkaConsumer<String, String> consumer, String topic, int min,
                                               Set<String> needles, Duration timeout) throws IOException {
        ObjectMapper json = new ObjectMapper();
        long deadline = System.nanoTime() + timeout.toNanos();
        List<JsonNode> rows = new ArrayList<>();
        int count = 0;
        Set<String> missing = new HashSet<>(needles);
        while (System.nanoTime() < deadline) {
            if (consumer.assignment().isEmpty()) {
                if (consumer.partitionsFor(topic, Duration.ofSeconds(2)).isEmpty()) {
                    continue;
                }
                consumer.assign(List.of(new TopicPartition(topic, 0)));
                consumer.seekToBeginning(consumer.assignment());
                rows.clear();
                count = 0;
                missing = new HashSet<>(needles);
            }
            for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(500))) {
                count++;
                missing.removeIf(n -> r.value() != null && r.value().contains(n));
                JsonNode v = r.value() == null ? null : json.readTree(r.value());
                if (v != null && v.path("payload").has("op")) {
                    rows.add(v);
                }
            }
            if (count >= min && missing.isEmpty()) {
                consumer.unsubscribe();
                return rows;
            }
        }
        throw new AssertionError(topic + " has " + count + " record(s) after " + timeout.toSeconds()
                + " s; missing " + missing);
    }

    private static KafkaConsumer<String, String> consumer(String bootstrap) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        p.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, "false");
        return new KafkaConsumer<>(p, new StringDeserializer(), new StringDeserializer());
    }

    /** The {@code -cp} argument of a running JVM, from its command line in /proc. */
    private static String classpathOf(long pid) throws IOException {
        String[] args = Files.readString(Path.of("/proc", Long.toString(pid), "cmdline")).split("\0");
        for (int i = 0; i < args.length - 1; i++) {
            if (args[i].equals("-cp") || args[i].equals("-classpath")) {
                return args[i + 1];
            }
        }
        throw new AssertionError("no -cp in " + List.of(args));
    }

    private static void stopAll(ConnectWorker worker, KafkaBroker broker) {
        worker.stop();
        broker.stop();
    }
}
