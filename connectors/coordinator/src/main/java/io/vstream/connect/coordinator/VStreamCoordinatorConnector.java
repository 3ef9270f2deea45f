package io.vstream.connect.coordinator;

import io.vstream.connect.core.Version;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.connect.connector.Task;
import org.apache.kafka.connect.source.SourceConnector;

/**
 * The workflow coordinator: a connector with exactly one task, whatever {@code tasks.max} says, since one workflow
 * has one state machine and one owner of its cut-over.
 */
public class VStreamCoordinatorConnector extends SourceConnector {
    private Map<String, String> props;

    @Override
    public String version() {
        return Version.get();
    }

    @Override
    public void start(Map<String, String> props) {
        this.props = Map.copyOf(props);
        new VStreamCoordinatorConnectorConfig(props); // fail fast on a bad config
    }

    @Override
    public Class<? extends Task> taskClass() {
        return VStreamCoordinatorTask.class;
    }

    @Override
    public List<Map<String, String>> taskConfigs(int maxTasks) {
        return List.of(props);
    }

    @Override
    public void stop() {
    }

    @Override
    public ConfigDef config() {
        return VStreamCoordinatorConnectorConfig.CONFIG_DEF;
    }
}
