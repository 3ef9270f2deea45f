package io.vstream.connect.source;

import io.vstream.connect.core.topology.ShardAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;

/** A task's configuration: the connector's, plus the shards this task streams ({@code task.shards}). */
public final class VStreamSourceTaskConfig extends VStreamSourceConnectorConfig {
    public static final String TASK_SHARDS = "task.shards";
    public static final String TASK_RESHARD_PLAN = "task.reshard.plan";

    private static final ConfigDef TASK_DEF = new ConfigDef(CONFIG_DEF)
            .define(TASK_SHARDS, ConfigDef.Type.LIST, ConfigDef.Importance.HIGH,
                    "The topology entries this task streams (set by the connector).")
            .define(TASK_RESHARD_PLAN, ConfigDef.Type.STRING, "", ConfigDef.Importance.LOW,
                    "The reshard journals the stream has followed (set by the connector).");

    public VStreamSourceTaskConfig(Map<String, String> props) {
        super(TASK_DEF, props);
    }

    /** This task's shards, each with its index in the full topology (for server ids). */
    public List<ShardAddress> taskShards() {
        List<ShardAddress> out = new ArrayList<>();
        for (String e : getList(TASK_SHARDS)) {
            out.add(ShardAddress.parse(e));
        }
        return out;
    }

    ReshardPlan reshardPlan() {
        return ReshardPlan.fromJson(getString(TASK_RESHARD_PLAN));
    }

    static Map<String, String> forShards(Map<String, String> connectorProps, List<ShardAddress> shards) {
        return forShards(connectorProps, null, shards, ReshardPlan.empty());
    }

    /** A task's properties: the stream's current topology ({@code all}), this task's shards and the reshard plan. */
    static Map<String, String> forShards(Map<String, String> connectorProps, List<ShardAddress> all,
                                         List<ShardAddress> shards, ReshardPlan plan) {
        Map<String, String> props = new HashMap<>(connectorProps);
        if (all != null) {
            props.put(TOPOLOGY, String.join(",", all.stream().map(ShardAddress::format).toList()));
        }
        props.put(TASK_RESHARD_PLAN, plan.toJson());
        List<String> entries = new ArrayList<>();
        for (ShardAddress s : shards) {
            entries.add(s.format());
        }
        props.put(TASK_SHARDS, String.join(",", entries));
        return props;
    }
}
