package io.vstream.connect.sink;

import io.vstream.connect.core.Version;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.connect.connector.Task;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.sink.SinkConnector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The applier connector: applies the source connector's per-shard logs (its {@code topics}) to a target server,
 * exactly once in effect. Partitions are spread over {@code tasks.max} tasks by Connect; the applied state lives on
 * the target, so {@link #alterOffsets} writes an operator's offset change there too.
 */
public class VStreamSinkConnector extends SinkConnector {
    private static final Logger LOG = LoggerFactory.getLogger(VStreamSinkConnector.class);

    private Map<String, String> props;

    @Override
    public String version() {
        return Version.get();
    }

    @Override
    public void start(Map<String, String> props) {
        this.props = Map.copyOf(props);
        VStreamSinkConnectorConfig config = new VStreamSinkConnectorConfig(props);
        LOG.info("Starting sink connector in {} mode into {}:{}", config.mode(), config.targetHost(),
                config.targetPort());
    }

    @Override
    public Class<? extends Task> taskClass() {
        return VStreamSinkTask.class;
    }

    @Override
    public List<Map<String, String>> taskConfigs(int maxTasks) {
        List<Map<String, String>> configs = new ArrayList<>();
        for (int i = 0; i < maxTasks; i++) {
            configs.add(props);
        }
        return configs;
    }

    @Override
    public void stop() {
        LOG.info("Stopping sink connector");
    }

    @Override
    public ConfigDef config() {
        return VStreamSinkConnectorConfig.CONFIG_DEF;
    }

    /** An operator's offset reset or change is written to the target's state, which is what tasks resume from. */
    @Override
    public boolean alterOffsets(Map<String, String> connectorConfig, Map<TopicPartition, Long> offsets) {
        VStreamSinkConnectorConfig config = new VStreamSinkConnectorConfig(connectorConfig);
        SinkSettings settings = SinkSettings.of(config, connectorConfig.getOrDefault("name", "vstream-sink"));
        try (Connection c = new TargetConnections(settings).open()) {
            StateStore.ensure(c, settings.stateDatabase());
            for (Map.Entry<TopicPartition, Long> e : offsets.entrySet()) {
                StateStore.overwriteOffset(c, settings.stateDatabase(), settings.stream(), e.getKey().topic(),
                        e.getKey().partition(), e.getValue());
            }
            c.commit();
        } catch (SQLException e) {
            throw new ConnectException("Could not write the new offsets to the target's state ("
                    + settings.stateDatabase() + ".applied): " + e.getMessage(), e);
        }
        return true;
    }
}
