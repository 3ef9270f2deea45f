package io.vstream.connect.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.common.Uuid;

/**
 * A single-node Kafka (KRaft, broker and controller in one {@code kafka.Kafka} JVM) on 127.0.0.1, with its data and
 * log under its own directory: formats the storage, starts it, waits for "Kafka Server started". Touches only its
 * own process and directory.
 */
public final class KafkaBroker {
    private final Path dir;
    private final int port;
    private final int controllerPort;
    private final KafkaClasspath classpath;
    private final Path pidDir;
    private final boolean dieWithThisJvm;
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

    public String bootstrapServers() {
        return "127.0.0.1:" + port;
    }

    public Path logFile() {
        return dir.resolve("kafka.log");
    }

    public ManagedProcess process() {
        return process;
    }

    public void start(Duration timeout) {
        Path config = writeConfig();
        Path log4j = KafkaClasspath.writeLogConfig(dir);
        ManagedProcess.run("kafka storage format", classpath.javaCommand("256m", log4j, "kafka.tools.StorageTool",
                        "format", "--standalone", "-t", Uuid.randomUuid().toString(), "-c", config.toString()),
                dir.resolve("format.log"), Duration.ofSeconds(60));
        process = ManagedProcess.start("kafka", classpath.javaCommand("512m", log4j, "kafka.Kafka", config.toString()),
                logFile(), pidDir, dieWithThisJvm);
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!process.logContains("Kafka Server started")) {
            process.checkAlive();
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("Kafka did not start within " + timeout.toSeconds() + " s; log "
                        + logFile() + ":\n" + process.logTail(30));
            }
            Sleeper.sleep(200);
        }
    }

    public void stop() {
        if (process != null) {
            process.stop(Duration.ofSeconds(30));
        }
    }

    private Path writeConfig() {
        Path file = dir.resolve("server.properties");
        try {
            Files.createDirectories(dir);
            Files.writeString(file, String.join("\n", List.of(
                    "# single-node KRaft: broker and controller in one process, for a quickstart only",
                    "process.roles=broker,controller",
                    "node.id=1",
                    "controller.quorum.bootstrap.servers=127.0.0.1:" + controllerPort,
                    "listeners=PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controllerPort,
                    "advertised.listeners=PLAINTEXT://127.0.0.1:" + port,
                    "controller.listener.names=CONTROLLER",
                    "inter.broker.listener.name=PLAINTEXT",
                    "listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT",
                    "log.dirs=" + dir.resolve("data"),
                    "num.partitions=1",
                    "offsets.topic.replication.factor=1",
                    "offsets.topic.num.partitions=5",
                    "transaction.state.log.replication.factor=1",
                    "transaction.state.log.min.isr=1",
                    "transaction.state.log.num.partitions=5",
                    "share.coordinator.state.topic.replication.factor=1",
                    "share.coordinator.state.topic.min.isr=1",
                    "group.initial.rebalance.delay.ms=0",
                    "")));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return file;
    }
}
