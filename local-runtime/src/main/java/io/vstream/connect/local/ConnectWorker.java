package io.vstream.connect.local;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A Kafka Connect distributed worker in its own JVM ({@code ConnectDistributed}), with Kafka's classpath only and our
 * plugins from {@code plugin.path} ({@code plugin.discovery=service_load}), a {@code FileConfigProvider} for the
 * secrets file, and the REST API on 127.0.0.1. Starts it and waits until the REST API answers; after its process
 * died (a {@link #kill}), starts it again with the same properties, logging to a new file. Touches only its own
 * process and directory.
 */
public final class ConnectWorker {
    private final Path dir;
    private final int restPort;
    private final String bootstrapServers;
    private final Path pluginPath;
    private final Path secretsDir;
    private final KafkaClasspath classpath;
    private final Path pidDir;
    private final boolean dieWithThisJvm;
    private ManagedProcess process;
    private List<String> jvmOptions = List.of();
    private final ProcessOverrides overrides = new ProcessOverrides();
    private final List<Path> logFiles = new ArrayList<>();
    private int starts;

    /** {@code pidDir} may be null (no pid file); {@code dieWithThisJvm}: see {@link ManagedProcess}. */
    public ConnectWorker(Path dir, int restPort, String bootstrapServers, Path pluginPath, Path secretsDir,
                         KafkaClasspath classpath, Path pidDir, boolean dieWithThisJvm) {
        this.dir = dir;
        this.restPort = restPort;
        this.bootstrapServers = bootstrapServers;
        this.pluginPath = pluginPath;
        this.secretsDir = secretsDir;
        this.classpath = classpath;
        this.pidDir = pidDir;
        this.dieWithThisJvm = dieWithThisJvm;
    }

    /** JVM options for the worker's process (e.g. the Prometheus JMX exporter's {@code -javaagent:}); before start. */
    public ConnectWorker jvmOptions(List<String> options) {
        this.jvmOptions = List.copyOf(options);
        return this;
    }

    /** One more worker property (e.g. {@code exactly.once.source.support=enabled}); before start. */
    public ConnectWorker property(String key, String value) {
        overrides.property(key, value);
        return this;
    }

    /**
     * What the caller changes of the worker's defaults (768 MB, {@link #jvmOptions}, the serial collector, log4j2; its
     * properties).
     */
    public ProcessOverrides overrides() {
        return overrides;
    }

    public String restUrl() {
        return "http://127.0.0.1:" + restPort;
    }

    /** The log of its current (or next) process: {@code connect.log}, after a restart {@code connect-restart<n>.log}. */
    public Path logFile() {
        return dir.resolve(starts <= 1 ? "connect.log" : "connect-restart" + (starts - 1) + ".log");
    }

    /** Every log its processes wrote, restarts included. */
    public List<Path> logFiles() {
        return List.copyOf(logFiles);
    }

    /** The {@code worker_id} Connect's statuses give this worker (its advertised REST listener). */
    public String workerId() {
        return "127.0.0.1:" + restPort;
    }

    public boolean isAlive() {
        return process != null && process.isAlive();
    }

    public ManagedProcess process() {
        return process;
    }

    /** Starts the worker and waits until its REST API lists the connectors (the worker has joined its group). */
    public ConnectRest start(Duration timeout) {
        if (isAlive()) {
            throw new IllegalStateException("The Connect worker " + restUrl() + " is still running (" + process + ")");
        }
        Path config = writeConfig();
        Path log4j = KafkaClasspath.writeLogConfig(dir);
        starts++;
        logFiles.add(logFile());
        process = ManagedProcess.start("connect", overrides.javaCommand(classpath,
                        KafkaClasspath.defaultJvmOptions("768m", jvmOptions, log4j),
                        "org.apache.kafka.connect.cli.ConnectDistributed", config.toString()), logFile(), pidDir,
                dieWithThisJvm, overrides.ownSession());
        ConnectRest rest = new ConnectRest(restUrl());
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!rest.isReady()) {
            process.checkAlive();
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("The Connect worker's REST API did not answer within "
                        + timeout.toSeconds() + " s; log " + logFile() + ":\n" + process.logTail(30));
            }
            Sleeper.sleep(250);
        }
        return rest;
    }

    /** SIGKILL (no shutdown, no offset flush, no leaving the group: a crashed machine); {@link #start} again. */
    public void kill() {
        if (isAlive()) {
            process.kill();
        }
    }

    public void stop() {
        if (process != null) {
            process.stop(Duration.ofSeconds(30));
        }
    }

    private Path writeConfig() {
        return overrides.writeProperties(dir.resolve("worker.properties"), List.of(
                "# a Connect worker on this machine",
                "bootstrap.servers=" + bootstrapServers,
                "group.id=vstream-quickstart",
                "listeners=http://127.0.0.1:" + restPort,
                "rest.advertised.host.name=127.0.0.1",
                "rest.advertised.port=" + restPort,
                "config.storage.topic=_connect-configs",
                "offset.storage.topic=_connect-offsets",
                "status.storage.topic=_connect-status",
                "config.storage.replication.factor=1",
                "offset.storage.replication.factor=1",
                "status.storage.replication.factor=1",
                "offset.storage.partitions=5",
                "status.storage.partitions=1",
                "key.converter=org.apache.kafka.connect.json.JsonConverter",
                "value.converter=org.apache.kafka.connect.json.JsonConverter",
                "key.converter.schemas.enable=true",
                "value.converter.schemas.enable=true",
                "# DECIMAL values as JSON numbers rather than base64 bytes, for people reading the topics",
                "key.converter.decimal.format=NUMERIC",
                "value.converter.decimal.format=NUMERIC",
                "# our plugins come from their packaged archives, unpacked here; nothing of ours is on the classpath",
                "plugin.path=" + pluginPath,
                "plugin.discovery=service_load",
                "scheduled.rebalance.max.delay.ms=3000",
                "offset.flush.interval.ms=500",
                "# resolves the ${file:...} passwords of config-examples/",
                "config.providers=file",
                "config.providers.file.class=org.apache.kafka.common.config.provider.FileConfigProvider",
                "config.providers.file.param.allowed.paths=" + secretsDir));
    }
}
