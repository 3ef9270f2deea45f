package io.vstream.connect.coordinator;

import io.vstream.connect.core.Version;
import io.vstream.connect.core.topology.TopologyCheck;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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

    /**
     * The keys each workflow needs, reported on their fields. The workflow is read as the task reads it
     * ({@link WorkflowType#named}); a value that names none carries the validator's error on its field, and the checks
     * that depend on the workflow are left until it names one.
     */
    @Override
    public org.apache.kafka.common.config.Config validate(Map<String, String> connectorConfigs) {
        org.apache.kafka.common.config.Config config = super.validate(connectorConfigs);
        Map<String, org.apache.kafka.common.config.ConfigValue> values = new java.util.HashMap<>();
        config.configValues().forEach(v -> values.put(v.name(), v));
        watchProblems(connectorConfigs, values);
        replicaProblems(connectorConfigs, values);
        Optional<WorkflowType> workflow = WorkflowType.named(connectorConfigs.getOrDefault(
                VStreamCoordinatorConnectorConfig.WORKFLOW, WorkflowType.CLONE.label()));
        workflow.ifPresent(type -> workflowProblems(type, connectorConfigs, values));
        return config;
    }

    /** What the workflow of {@code type} needs: its keys, and shards that cover the key space as it must. */
    private static void workflowProblems(WorkflowType type, Map<String, String> props,
                                         Map<String, org.apache.kafka.common.config.ConfigValue> values) {
        List<String> required = switch (type) {
            case RESHARD -> List.of(VStreamCoordinatorConnectorConfig.SHARDS,
                    VStreamCoordinatorConnectorConfig.RESHARD_KEYSPACE,
                    VStreamCoordinatorConnectorConfig.RESHARD_DATABASE,
                    VStreamCoordinatorConnectorConfig.RESHARD_TARGET_SHARDS);
            case ONLINE_DDL -> List.of(VStreamCoordinatorConnectorConfig.SHARDS,
                    VStreamCoordinatorConnectorConfig.DDL_DATABASE, VStreamCoordinatorConnectorConfig.DDL_TABLE,
                    VStreamCoordinatorConnectorConfig.DDL_ALTER);
            case CLONE -> List.of(VStreamCoordinatorConnectorConfig.SOURCE_HOST,
                    VStreamCoordinatorConnectorConfig.TARGET_HOST, VStreamCoordinatorConnectorConfig.TARGET_USER,
                    VStreamCoordinatorConnectorConfig.REPLICATION_USER);
        };
        for (String key : required) {
            String v = props.get(key);
            if (v == null || v.isBlank()) {
                values.get(key).addErrorMessage("The " + type.label() + " workflow needs " + key);
            }
        }
        topologyProblems(props, values, VStreamCoordinatorConnectorConfig.SHARDS,
                type == WorkflowType.ONLINE_DDL ? TopologyCheck.Coverage.WHOLE_KEY_SPACE
                        : TopologyCheck.Coverage.NO_OVERLAP);
        if (type == WorkflowType.ONLINE_DDL
                && "at-once".equalsIgnoreCase(props.getOrDefault(VStreamCoordinatorConnectorConfig.DDL_COPY_START, ""))
                && "stream".equalsIgnoreCase(props.getOrDefault(VStreamCoordinatorConnectorConfig.DDL_COPY_METHOD,
                "server"))) {
            values.get(VStreamCoordinatorConnectorConfig.DDL_COPY_START).addErrorMessage("ddl.copy.start=at-once"
                    + " starts the coordinator's server copy, but ddl.copy.method=stream copies through the source:"
                    + " remove ddl.copy.start (or set ddl.copy.method=server)");
        }
        if (type == WorkflowType.RESHARD) {
            topologyProblems(props, values, VStreamCoordinatorConnectorConfig.RESHARD_TARGET_SHARDS,
                    TopologyCheck.Coverage.NO_OVERLAP);
            ReshardPreflight.validateConfig(props, values);
        }
    }

    /** Each replica to watch must be {@code <host>:<port>}. */
    private static void replicaProblems(Map<String, String> props,
                                        Map<String, org.apache.kafka.common.config.ConfigValue> values) {
        String list = props.getOrDefault(VStreamCoordinatorConnectorConfig.THROTTLE_REPLICAS, "");
        for (String r : list.split(",")) {
            if (r.isBlank()) {
                continue;
            }
            try {
                io.vstream.connect.core.topology.ShardAddress.parse("-=" + r.strip());
            } catch (IllegalArgumentException e) {
                values.get(VStreamCoordinatorConnectorConfig.THROTTLE_REPLICAS).addErrorMessage("'" + r.strip()
                        + "' is not <host>:<port>: " + e.getMessage());
            }
        }
    }

    /** The watch needs both its URL and its connectors, and the URL must be http(s). */
    private static void watchProblems(Map<String, String> props,
                                      Map<String, org.apache.kafka.common.config.ConfigValue> values) {
        String urls = props.getOrDefault(VStreamCoordinatorConnectorConfig.WATCH_CONNECT_URL, "").strip();
        String names = props.getOrDefault(VStreamCoordinatorConnectorConfig.WATCH_CONNECTORS, "").strip();
        if (urls.isEmpty() != names.isEmpty()) {
            String missing = urls.isEmpty() ? VStreamCoordinatorConnectorConfig.WATCH_CONNECT_URL
                    : VStreamCoordinatorConnectorConfig.WATCH_CONNECTORS;
            values.get(missing).addErrorMessage("Set " + missing + " too: the watch needs the Connect REST URL and"
                    + " the names of the workflow's source and sink connectors (or leave both empty)");
        }
        for (String u : urls.isEmpty() ? new String[0] : urls.split(",")) {
            String url = u.strip();
            try {
                java.net.URI uri = java.net.URI.create(url);
                if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme()) || uri.getHost() == null) {
                    throw new IllegalArgumentException("not http(s)://host:port");
                }
            } catch (IllegalArgumentException e) {
                values.get(VStreamCoordinatorConnectorConfig.WATCH_CONNECT_URL).addErrorMessage("'" + url
                        + "' is not a URL of a Connect REST API, e.g. http://connect-1:8083");
            }
        }
    }

    /** The shared topology checks ({@link TopologyCheck}) of a list of shards, reported on its field. */
    private static void topologyProblems(Map<String, String> props,
                                         Map<String, org.apache.kafka.common.config.ConfigValue> values, String key,
                                         TopologyCheck.Coverage coverage) {
        String list = props.get(key);
        org.apache.kafka.common.config.ConfigValue value = values.get(key);
        if (list == null || list.isBlank() || value == null || !value.errorMessages().isEmpty()) {
            return; // absent: reported above where the workflow needs it
        }
        List<String> entries = java.util.Arrays.stream(list.split(",")).map(String::strip)
                .filter(e -> !e.isEmpty()).toList();
        TopologyCheck.problems(entries, coverage).forEach(value::addErrorMessage);
    }

    @Override
    public ConfigDef config() {
        return VStreamCoordinatorConnectorConfig.CONFIG_DEF;
    }
}
