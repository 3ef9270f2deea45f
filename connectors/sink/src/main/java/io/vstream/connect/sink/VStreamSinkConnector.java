package io.vstream.connect.sink;

import io.vstream.connect.core.Version;
import io.vstream.connect.jdbc.AppliedTable;
import io.vstream.connect.jdbc.StreamPartition;
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
        if (config.targetHost().isBlank() && config.getList(VStreamSinkConnectorConfig.TARGET_TOPOLOGY).isEmpty()) {
            throw new ConnectException("Set target.host (one target server) or target.topology (one per shard)");
        }
        if (config.mode() == VStreamSinkConnectorConfig.Mode.GHOST
                && config.getString(VStreamSinkConnectorConfig.GHOST_MIGRATION).isBlank()) {
            throw new ConnectException("mode=ghost needs ghost.migration: the migration id of the online-DDL workflow");
        }
        if (config.mode() == VStreamSinkConnectorConfig.Mode.RESHARD) {
            List<String> problems = new ArrayList<>(ReshardTargets.problems(
                    config.getList(VStreamSinkConnectorConfig.TARGET_TOPOLOGY)));
            problems.addAll(reshardColumnProblems(config.reshardColumns().isEmpty(), config.reshardColumnDefault()));
            if (!problems.isEmpty()) {
                throw new ConnectException(String.join("; ", problems));
            }
        }
        String spread = spreadWarning(props);
        if (spread != null) {
            LOG.warn(spread);
        }
        LOG.info("Starting sink connector in {} mode", config.mode());
    }

    static final String ASSIGNMENT_OVERRIDE = "consumer.override.partition.assignment.strategy";

    /**
     * A warning when the tasks would not share the work: the consumer's default (range) assignment gives partition 0
     * of every topic to the same task, so with one single-partition topic per shard, every shard lands on one task
     * and the other tasks idle; {@code null} when there is nothing to say.
     */
    static String spreadWarning(Map<String, String> props) {
        int tasks;
        try {
            tasks = Integer.parseInt(props.getOrDefault("tasks.max", "1").trim());
        } catch (NumberFormatException e) {
            return null;
        }
        String topics = props.getOrDefault("topics", "");
        boolean several = topics.contains(",") || !props.getOrDefault("topics.regex", "").isBlank();
        if (tasks <= 1 || !several || props.containsKey(ASSIGNMENT_OVERRIDE)) {
            return null;
        }
        return "tasks.max=" + tasks + " with several shard topics, but " + ASSIGNMENT_OVERRIDE + " is not set: the"
                + " consumer's default assignment gives partition 0 of every topic to the first task, so one task"
                + " applies every shard and the others idle. Set " + ASSIGNMENT_OVERRIDE
                + "=org.apache.kafka.clients.consumer.RoundRobinAssignor (docs/sink.md, 'One task per shard')";
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
    public org.apache.kafka.common.config.Config validate(Map<String, String> connectorConfigs) {
        org.apache.kafka.common.config.Config config = super.validate(connectorConfigs);
        Map<String, org.apache.kafka.common.config.ConfigValue> values = new java.util.HashMap<>();
        config.configValues().forEach(v -> values.put(v.name(), v));
        String host = connectorConfigs.getOrDefault(VStreamSinkConnectorConfig.TARGET_HOST, "");
        String topology = connectorConfigs.getOrDefault(VStreamSinkConnectorConfig.TARGET_TOPOLOGY, "");
        if (host.isBlank() && topology.isBlank()) {
            values.get(VStreamSinkConnectorConfig.TARGET_HOST).addErrorMessage(
                    "Set target.host (one target server) or target.topology (one server per shard)");
        }
        boolean reshard = "reshard".equalsIgnoreCase(
                connectorConfigs.getOrDefault(VStreamSinkConnectorConfig.MODE, "").strip());
        if (reshard) {
            ReshardTargets.problems(java.util.Arrays.asList(topology.split(",")))
                    .forEach(values.get(VStreamSinkConnectorConfig.TARGET_TOPOLOGY)::addErrorMessage);
            String columns = connectorConfigs.getOrDefault(VStreamSinkConnectorConfig.RESHARD_COLUMNS, "");
            reshardColumnProblems(columns.isBlank(), connectorConfigs.getOrDefault(
                    VStreamSinkConnectorConfig.RESHARD_COLUMN_DEFAULT, ""))
                    .forEach(values.get(VStreamSinkConnectorConfig.RESHARD_COLUMNS)::addErrorMessage);
        } else {
            for (String e : topology.split(",")) {
                if (!e.isBlank() && !e.strip().matches("[^=]+=[^:]+:\\d+")) {
                    values.get(VStreamSinkConnectorConfig.TARGET_TOPOLOGY).addErrorMessage("'" + e.strip()
                            + "' is not <shard>=<host>:<port>, e.g. -80=10.0.0.1:3306");
                }
            }
        }
        if ("ghost".equalsIgnoreCase(connectorConfigs.getOrDefault(VStreamSinkConnectorConfig.MODE, ""))
                && connectorConfigs.getOrDefault(VStreamSinkConnectorConfig.GHOST_MIGRATION, "").isBlank()) {
            values.get(VStreamSinkConnectorConfig.GHOST_MIGRATION).addErrorMessage(
                    "mode=ghost needs the migration id of the online-DDL workflow");
        }
        return config;
    }

    private static List<String> reshardColumnProblems(boolean noColumns, String defaultColumn) {
        if (noColumns && (defaultColumn == null || defaultColumn.isBlank())) {
            return List.of("mode=reshard needs each table's sharding column: set reshard.columns=<table>:<column>,..."
                    + " (e.g. customer:customer_id) and/or reshard.column.default (e.g. id)");
        }
        return List.of();
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
        for (Map.Entry<TopicPartition, Long> e : offsets.entrySet()) {
            for (SinkSettings target : targetsOf(settings, e.getKey().topic())) {
                writeOffset(settings, target, e);
            }
        }
        return true;
    }

    /** The targets that hold a topic's state: its one target, or in reshard mode every new shard it overlaps. */
    private static List<SinkSettings> targetsOf(SinkSettings settings, String topic) {
        if (!settings.reshard()) {
            return List.of(settings.forTopic(topic));
        }
        String shard = topic.substring(topic.lastIndexOf('.') + 1);
        List<SinkSettings> out = new ArrayList<>();
        try {
            for (ReshardTargets.Shard t : ReshardTargets.parse(settings.targetEntries())
                    .overlapping(io.vstream.connect.core.keyrange.KeyRange.parse(shard))) {
                out.add(settings.forTarget(t.name()));
            }
        } catch (IllegalArgumentException ex) {
            throw new ConnectException("Cannot tell which new shards hold the state of " + topic + ": "
                    + ex.getMessage(), ex);
        }
        return out;
    }

    private static void writeOffset(SinkSettings settings, SinkSettings target, Map.Entry<TopicPartition, Long> e) {
        try (Connection c = new TargetConnections(target).open()) {
            StreamPartition partition = new StreamPartition(settings.stream(), e.getKey().topic(),
                    e.getKey().partition());
            AppliedTable.ensure(c, settings.stateDatabase());
            RowSchemaStore.ensure(c, settings.stateDatabase());
            AppliedTable.overwriteOffset(c, settings.stateDatabase(), partition, e.getValue());
            if (e.getValue() == null) {
                RowSchemaStore.clear(c, settings.stateDatabase(), partition);
            }
            c.commit();
        } catch (SQLException ex) {
            throw new ConnectException("Could not write the new offset of " + e.getKey() + " to the target's state ("
                    + settings.stateDatabase() + ".applied on " + target.host() + ":" + target.port() + "): "
                    + ex.getMessage(), ex);
        }
    }
}
