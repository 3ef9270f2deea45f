package io.vstream.connect.source;

import io.vstream.connect.core.Version;
import io.vstream.connect.core.topology.ShardAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigValue;
import org.apache.kafka.connect.connector.Task;
import org.apache.kafka.connect.source.ConnectorTransactionBoundaries;
import org.apache.kafka.connect.source.ExactlyOnceSupport;
import org.apache.kafka.connect.source.SourceConnector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The keyspace source connector: validates the configuration and spreads the shards of the topology over at most
 * {@code tasks.max} tasks. Offsets are keyed by shard, so any spread resumes every shard where it was.
 */
public class VStreamSourceConnector extends SourceConnector {
    private static final Logger LOG = LoggerFactory.getLogger(VStreamSourceConnector.class);

    private Map<String, String> props;
    private VStreamSourceConnectorConfig config;
    private volatile StreamTopology topology;
    private Thread watcher;
    private volatile boolean running;

    @Override
    public String version() {
        return Version.get();
    }

    @Override
    public void start(Map<String, String> props) {
        this.props = Map.copyOf(props);
        this.config = new VStreamSourceConnectorConfig(props);
        this.topology = StreamTopology.resolve(config, context().offsetStorageReader(), StreamTopology.servers(config));
        LOG.info("Starting source connector for keyspace '{}' with shard(s) {}", config.keyspace(),
                topology.shards().stream().map(ShardAddress::name).toList());
        running = true;
        watcher = new Thread(this::watchJournals, "vstream-source-journals-" + props.getOrDefault("name", ""));
        watcher.setDaemon(true);
        watcher.start();
    }

    /**
     * Moves the stream to a journal's new shards once every participant's stored offset says it has reached the
     * journal (their tasks ended those shards' streams at it), by reconfiguring the tasks.
     */
    private void watchJournals() {
        long interval = config.journalCheckInterval().toMillis();
        while (running) {
            try {
                Thread.sleep(interval);
                StreamTopology current = topology;
                java.util.Optional<StreamTopology> next = current.afterJournals(StreamTopology.offsets(
                        context().offsetStorageReader(), config.keyspace(), current.names()), config.topology());
                if (next.isPresent() && running) {
                    topology = next.get();
                    LOG.info("Keyspace '{}': reconfiguring the tasks for shard(s) {}", config.keyspace(),
                            topology.shards().stream().map(ShardAddress::name).toList());
                    context.requestTaskReconfiguration();
                }
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                LOG.warn("Keyspace '{}': checking the reshard journals failed: {}", config.keyspace(), e.toString());
            }
        }
    }

    @Override
    public Class<? extends Task> taskClass() {
        return VStreamSourceTask.class;
    }

    @Override
    public List<Map<String, String>> taskConfigs(int maxTasks) {
        StreamTopology current = topology;
        List<ShardAddress> shards = current.shards();
        List<List<ShardAddress>> groups = ShardAssignment.assign(shards, maxTasks);
        List<Map<String, String>> configs = new ArrayList<>();
        for (List<ShardAddress> g : groups) {
            configs.add(VStreamSourceTaskConfig.forShards(props, shards, g, current.plan()));
        }
        return configs;
    }

    @Override
    public void stop() {
        running = false;
        if (watcher != null) {
            watcher.interrupt();
        }
        LOG.info("Stopping source connector");
    }

    @Override
    public ConfigDef config() {
        return VStreamSourceConnectorConfig.CONFIG_DEF;
    }

    @Override
    public Config validate(Map<String, String> connectorConfigs) {
        Config config = super.validate(connectorConfigs);
        Map<String, ConfigValue> values = new java.util.LinkedHashMap<>();
        for (ConfigValue v : config.configValues()) {
            values.put(v.name(), v);
        }
        VStreamSourceConnectorConfig.validate(connectorConfigs, values);
        return new Config(new ArrayList<>(values.values()));
    }

    /** Shards are read from GTID positions and records carry offsets at transaction ends: exactly-once capable. */
    @Override
    public ExactlyOnceSupport exactlyOnceSupport(Map<String, String> connectorConfig) {
        return ExactlyOnceSupport.SUPPORTED;
    }

    /** The task commits a Kafka transaction at source transaction ends ({@code transaction.boundary=connector}). */
    @Override
    public ConnectorTransactionBoundaries canDefineTransactionBoundaries(Map<String, String> connectorConfig) {
        return ConnectorTransactionBoundaries.SUPPORTED;
    }
}
