package io.vstream.connect.local;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.Uuid;

/**
 * A single-node Kafka (KRaft, broker and controller in one {@code kafka.Kafka} JVM) on 127.0.0.1, with its data and
 * log under its own directory: formats the storage, starts it, waits until it answers a client (the cluster's
 * nodes). Touches only its own process and directory.
 */
public final class KafkaBroker {
    private final Path dir;
    private final int port;
    private final int controllerPort;
    private final KafkaClasspath classpath;
    private final Path pidDir;
    private final boolean dieWithThisJvm;
    private final ProcessOverrides overrides = new ProcessOverrides();
    private ManagedProcess process;

    /** {@code pidDir} may be null (no pid file); {@code dieWithThisJvm}: see {@link ManagedProcess}. */
    public KafkaBroker(Path dir, int port, int controllerPort, KafkaClasspath classpath, Path pidDir,
                       boolean dieWithThisJvm) {
        this.dir = dir;
        this.port = port;
        this.controllerPort = controllerPort;
        this.classpath = classpath;
        this.pidDir = pidDir;
        this.dieWithThisJvm = dieWithThisJvm;
    }

    /** What the caller changes of the broker's defaults (512 MB, the serial collector, log4j2; its properties). */
    public ProcessOverrides overrides() {
        return overrides;
    }

    public String bootstrapServers() {
        return "127.0.0.1:" + port;
    }

    public Path logFile() {
        return dir.resolve("kafka.log");
    }

    /** Where the broker keeps its topics. */
    public Path dataDir() {
        return dir.resolve("data");
    }

    public ManagedProcess process() {
        return process;
    }

    public void start(Duration timeout) {
        Path config = writeConfig();
        Path log4j = KafkaClasspath.writeLogConfig(dir);
        ManagedProcess.run("kafka storage format", classpath.javaCommand(
                        KafkaClasspath.defaultJvmOptions("256m", List.of(), log4j), "kafka.tools.StorageTool", "format",
                        "--standalone", "-t", Uuid.randomUuid().toString(), "-c", config.toString()),
                dir.resolve("format.log"), Duration.ofSeconds(60));
        process = ManagedProcess.start("kafka", overrides.javaCommand(classpath,
                        KafkaClasspath.defaultJvmOptions("512m", List.of(), log4j), "kafka.Kafka", config.toString()),
                logFile(), pidDir, dieWithThisJvm, overrides.ownSession());
        awaitAnswer(timeout);
    }

    public void stop() {
        if (process != null) {
            process.stop(Duration.ofSeconds(30));
        }
    }

    /** Waits until the broker lists the cluster's nodes to a client; fails with its log when it exits first. */
    private void awaitAnswer(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers(),
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "30000"))) {
            while (true) {
                process.checkAlive();
                try {
                    admin.describeCluster().nodes().get(5, TimeUnit.SECONDS);
                    return;
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted", e);
                } catch (Exception e) {
                    if (System.nanoTime() > deadline) {
                        throw new IllegalStateException("Kafka did not start within " + timeout.toSeconds()
                                + " s; log " + logFile() + ":\n" + process.logTail(30));
                    }
                    Sleeper.sleep(200);
                }
            }
        }
    }

    private Path writeConfig() {
        return overrides.writeProperties(dir.resolve("server.properties"), List.of(
                "# single-node KRaft: broker and controller in one process, on this machine only",
                "process.roles=broker,controller",
                "node.id=1",
                "controller.quorum.bootstrap.servers=127.0.0.1:" + controllerPort,
                "listeners=PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controllerPort,
                "advertised.listeners=PLAINTEXT://127.0.0.1:" + port,
                "controller.listener.names=CONTROLLER",
                "inter.broker.listener.name=PLAINTEXT",
                "listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT",
                "log.dirs=" + dataDir(),
                "num.partitions=1",
                "offsets.topic.replication.factor=1",
                "offsets.topic.num.partitions=5",
                "transaction.state.log.replication.factor=1",
                "transaction.state.log.min.isr=1",
                "transaction.state.log.num.partitions=5",
                "share.coordinator.state.topic.replication.factor=1",
                "share.coordinator.state.topic.min.isr=1",
                "group.initial.rebalance.delay.ms=0"));
    }
}
