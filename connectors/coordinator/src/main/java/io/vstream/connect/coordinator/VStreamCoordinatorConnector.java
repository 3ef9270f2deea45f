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

    /** The keys each workflow needs, reported on their fields. */
    @Override
    public org.apache.kafka.common.config.Config validate(Map<String, String> connectorConfigs) {
        org.apache.kafka.common.config.Config config = super.validate(connectorConfigs);
        Map<String, org.apache.kafka.common.config.ConfigValue> values = new java.util.HashMap<>();
        config.configValues().forEach(v -> values.put(v.name(), v));
        String workflow = connectorConfigs.getOrDefault(VStreamCoordinatorConnectorConfig.WORKFLOW, "clone");
        List<String> required = "reshard".equalsIgnoreCase(workflow)
                ? List.of(VStreamCoordinatorConnectorConfig.SHARDS, VStreamCoordinatorConnectorConfig.RESHARD_KEYSPACE,
                        VStreamCoordinatorConnectorConfig.RESHARD_DATABASE,
                        VStreamCoordinatorConnectorConfig.RESHARD_TARGET_SHARDS)
                : "online-ddl".equalsIgnoreCase(workflow)
                ? List.of(VStreamCoordinatorConnectorConfig.SHARDS, VStreamCoordinatorConnectorConfig.DDL_DATABASE,
                        VStreamCoordinatorConnectorConfig.DDL_TABLE, VStreamCoordinatorConnectorConfig.DDL_ALTER)
                : List.of(VStreamCoordinatorConnectorConfig.SOURCE_HOST, VStreamCoordinatorConnectorConfig.TARGET_HOST,
                        VStreamCoordinatorConnectorConfig.TARGET_USER,
                        VStreamCoordinatorConnectorConfig.REPLICATION_USER);
        for (String key : required) {
            String v = connectorConfigs.get(key);
            if (v == null || v.isBlank()) {
                values.get(key).addErrorMessage("The " + workflow + " workflow needs " + key);
            }
        }
        if ("reshard".equalsIgnoreCase(workflow)) {
            ReshardPreflight.validateConfig(connectorConfigs, values);
        }
        return config;
    }

    @Override
    public ConfigDef config() {
        return VStreamCoordinatorConnectorConfig.CONFIG_DEF;
    }
}
