package io.vstream.connect.testsupport.connect;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.BooleanSupplier;
import org.apache.kafka.connect.runtime.rest.entities.ConfigInfos;
import org.apache.kafka.connect.runtime.rest.entities.ConnectorStateInfo;
import org.apache.kafka.connect.util.clusters.EmbeddedConnectCluster;
import org.apache.kafka.connect.util.clusters.WorkerHandle;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real Kafka Connect cluster in-process: Kafka's {@link EmbeddedConnectCluster} (KRaft broker, distributed
 * workers, real REST API) with our plugins loaded from their packaged archives on {@code plugin.path} through
 * {@code plugin.discovery=service_load}. Connectors are deployed and inspected through the REST API, as users do.
 *
 * <p>The plugin directory is the system property {@code vstream.plugins.dir} (set by the integration-tests build to
 * the unpacked plugin archives) unless given explicitly.
 */
public final class ConnectCluster implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ConnectCluster.class);
    public static final String PLUGINS_DIR_PROPERTY = "vstream.plugins.dir";

    private final EmbeddedConnectCluster connect;

    private ConnectCluster(EmbeddedConnectCluster connect) {
        this.connect = connect;
    }

    /** Options of a cluster: worker count, extra worker properties, broker properties. */
    public static final class Builder {
        private int workers = 1;
        private Path pluginsDir = defaultPluginsDir();
        private final Map<String, String> workerProps = new HashMap<>();
        private final Properties brokerProps = new Properties();
        private String name = "vstream-it";

        public Builder workers(int workers) {
            this.workers = workers;
            return this;
        }

        public Builder name(String name) {
            this.name = name;
            return this;
        }

        public Builder pluginsDir(Path dir) {
            this.pluginsDir = dir;
            return this;
        }

        public Builder workerProp(String key, String value) {
            workerProps.put(key, value);
            return this;
        }

        public Builder brokerProp(String key, String value) {
            brokerProps.put(key, value);
            return this;
        }

        /** Enables Kafka Connect's exactly-once source support on every worker (and on the broker side what it needs). */
        public Builder exactlyOnceSource() {
            return workerProp("exactly.once.source.support", "enabled");
        }

        public ConnectCluster start() {
            Map<String, String> props = new HashMap<>(); // mutable: startConnect() adds to it
            props.put("plugin.discovery", "service_load");
            props.put("scheduled.rebalance.max.delay.ms", "3000");
            props.put("offset.flush.interval.ms", "500");
            props.put("key.converter", "org.apache.kafka.connect.json.JsonConverter");
            props.put("value.converter", "org.apache.kafka.connect.json.JsonConverter");
            props.put("key.converter.schemas.enable", "true");
            props.put("value.converter.schemas.enable", "true");
            if (pluginsDir != null) {
                if (!Files.isDirectory(pluginsDir)) {
                    throw new IllegalStateException("Plugin directory " + pluginsDir + " does not exist; build the"
                            + " plugin archives first (mvn package) or run the tests through 'mvn verify'");
                }
                props.put("plugin.path", pluginsDir.toAbsolutePath().toString());
            }
            props.putAll(workerProps);
            brokerProps.putIfAbsent("transaction.state.log.replication.factor", "1");
            brokerProps.putIfAbsent("transaction.state.log.min.isr", "1");
            long t0 = System.nanoTime();
            EmbeddedConnectCluster cluster = new EmbeddedConnectCluster.Builder()
                    .name(name)
                    .numWorkers(workers)
                    .numBrokers(1)
                    .workerProps(props)
                    .brokerProps(brokerProps)
                    .maskExitProcedures(true)
                    .build();
            cluster.start();
            LOG.info("Connect cluster '{}' with {} worker(s) started in {} ms (plugin.path={})", name, workers,
                    (System.nanoTime() - t0) / 1_000_000, pluginsDir);
            return new ConnectCluster(cluster);
        }
    }

    public static Builder builder() {
        return new Builder();
    }

    static Path defaultPluginsDir() {
        String dir = System.getProperty(PLUGINS_DIR_PROPERTY);
        return dir == null ? null : Paths.get(dir);
    }

    public EmbeddedConnectCluster embedded() {
        return connect;
    }

    public String bootstrapServers() {
        return connect.kafka().bootstrapServers();
    }

    /** The REST endpoint of one running worker, e.g. {@code http://127.0.0.1:34567}. */
    public String restUrl() {
        return connect.endpointForResource("").replaceAll("/$", "");
    }

    /** {@code PUT /connectors/{name}/config}: creates or reconfigures a connector through the REST API. */
    public void deploy(String name, Map<String, String> config) {
        connect.configureConnector(name, new HashMap<>(config));
    }

    /** {@code PUT /connector-plugins/{class}/config/validate}. */
    public ConfigInfos validate(String connectorClass, Map<String, String> config) {
        Map<String, String> c = new HashMap<>(config);
        c.put("connector.class", connectorClass);
        c.putIfAbsent("name", "validate");
        return connect.validateConnectorConfig(connectorClass, c);
    }

    public ConnectorStateInfo status(String name) {
        return connect.connectorStatus(name);
    }

    public void delete(String name) {
        connect.deleteConnector(name);
    }

    /** Waits until the connector and exactly {@code tasks} tasks are RUNNING. */
    public void awaitRunning(String name, int tasks, Duration timeout) {
        await("connector " + name + " RUNNING with " + tasks + " task(s)", timeout, () -> {
            ConnectorStateInfo s = safeStatus(name);
            return s != null && "RUNNING".equals(s.connector().state()) && s.tasks().size() == tasks
                    && s.tasks().stream().allMatch(t -> "RUNNING".equals(t.state()));
        }, () -> String.valueOf(safeStatus(name)));
    }

    /** Waits until some task of the connector is FAILED and returns its trace. */
    public String awaitTaskFailure(String name, Duration timeout) {
        String[] trace = new String[1];
        await("a FAILED task of " + name, timeout, () -> {
            ConnectorStateInfo s = safeStatus(name);
            if (s == null) {
                return false;
            }
            for (ConnectorStateInfo.TaskState t : s.tasks()) {
                if ("FAILED".equals(t.state())) {
                    trace[0] = t.trace();
                    return true;
                }
            }
            return false;
        }, () -> String.valueOf(safeStatus(name)));
        return trace[0];
    }

    /** Waits until the connector or one of its tasks is FAILED and returns its trace ({@link ConnectorFailures}). */
    public String awaitFailure(String name, Duration timeout) {
        String[] trace = new String[1];
        await(name + " or a task of it FAILED", timeout, () -> {
            trace[0] = ConnectorFailures.trace(safeStatus(name));
            return trace[0] != null;
        }, () -> String.valueOf(safeStatus(name)));
        return trace[0];
    }

    private ConnectorStateInfo safeStatus(String name) {
        try {
            return connect.connectorStatus(name);
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** Removes (stops) one worker, as a crash of its process would; its tasks move to the others. */
    public void removeWorkerRunning(String connector, int task) {
        ConnectorStateInfo s = connect.connectorStatus(connector);
        String workerId = s.tasks().stream().filter(t -> t.id() == task).findFirst()
                .orElseThrow(() -> new IllegalStateException("no task " + task + " of " + connector)).workerId();
        for (WorkerHandle w : connect.workers()) {
            if (workerId.contains(w.url().getHost() + ":" + w.url().getPort())) {
                LOG.info("Stopping worker {} that runs {}-{}", w.url(), connector, task);
                connect.removeWorker(w);
                return;
            }
        }
        throw new IllegalStateException("No worker matches " + workerId);
    }

    public WorkerHandle addWorker() {
        return connect.addWorker();
    }

    public List<WorkerHandle> workers() {
        return new ArrayList<>(connect.workers());
    }

    /** A reader of topics as a consumer application would see them. */
    public TopicReader topics() {
        return new TopicReader(connect.kafka());
    }

    static void await(String what, Duration timeout, BooleanSupplier done, java.util.function.Supplier<String> state) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (done.getAsBoolean()) {
                return;
            }
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted waiting for " + what, e);
            }
        }
        throw new AssertionError("Timed out after " + timeout + " waiting for " + what + "; last state: " + state.get());
    }

    @Override
    public void close() {
        connect.stop();
    }
}
