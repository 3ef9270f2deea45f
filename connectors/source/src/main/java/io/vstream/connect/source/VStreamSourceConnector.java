package io.vstream.connect.source;

import io.vstream.connect.core.Version;
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

    @Override
    public String version() {
        return Version.get();
    }

    @Override
    public void start(Map<String, String> props) {
        this.props = Map.copyOf(props);
        this.config = new VStreamSourceConnectorConfig(props);
        LOG.info("Starting source connector for keyspace '{}' with {} shard(s)", config.keyspace(),
                config.topology().size());
    }

    @Override
    public Class<? extends Task> taskClass() {
        return VStreamSourceTask.class;
    }

    @Override
    public List<Map<String, String>> taskConfigs(int maxTasks) {
        List<ShardSpec> shards = config.topology();
        int tasks = Math.max(1, Math.min(maxTasks, shards.size()));
        List<List<ShardSpec>> groups = new ArrayList<>();
        for (int i = 0; i < tasks; i++) {
            groups.add(new ArrayList<>());
        }
        for (int i = 0; i < shards.size(); i++) {
            groups.get(i % tasks).add(shards.get(i));
        }
        List<Map<String, String>> configs = new ArrayList<>();
        for (List<ShardSpec> g : groups) {
            configs.add(VStreamSourceTaskConfig.forShards(props, g));
        }
        return configs;
    }

    @Override
    public void stop() {
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
