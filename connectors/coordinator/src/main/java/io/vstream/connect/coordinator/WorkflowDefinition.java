package io.vstream.connect.coordinator;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.kafka.connect.errors.ConnectException;

/**
 * What makes a workflow the workflow it is (its type, its applier stream, the table and ALTER of an online DDL, the
 * keyspace, shards and routing of a reshard), as one canonical text stored with its state in the coordinator's
 * offset. A coordinator deployed under a name whose stored state belongs to a different definition (a deleted
 * workflow's name reused for another ALTER) is refused, naming what differs and the fix, instead of resuming the old
 * workflow's state (which could report COMPLETE at once). Server addresses are not part of it: a server that moved
 * keeps its workflow. No I/O.
 */
final class WorkflowDefinition {
    static final String OFFSET_KEY = "definition";

    private WorkflowDefinition() {
    }

    static String of(VStreamCoordinatorConnectorConfig c) {
        List<String> parts = new ArrayList<>();
        WorkflowType type = c.workflowType();
        parts.add("workflow=" + type.label());
        parts.add("applier.stream=" + Objects.toString(c.applierStream(), ""));
        switch (type) {
            case ONLINE_DDL -> {
                parts.add("ddl.database=" + c.getString(VStreamCoordinatorConnectorConfig.DDL_DATABASE));
                parts.add("ddl.table=" + c.getString(VStreamCoordinatorConnectorConfig.DDL_TABLE));
                parts.add("ddl.alter=" + Objects.toString(c.getString(VStreamCoordinatorConnectorConfig.DDL_ALTER), "").strip());
                parts.add("ddl.migration=" + Objects.toString(c.getString(VStreamCoordinatorConnectorConfig.DDL_MIGRATION), ""));
                parts.add("shards=" + shardNames(c.getList(VStreamCoordinatorConnectorConfig.SHARDS)));
            }
            case RESHARD -> {
                parts.add("reshard.keyspace=" + c.getString(VStreamCoordinatorConnectorConfig.RESHARD_KEYSPACE));
                parts.add("reshard.database=" + Objects.toString(c.getString(VStreamCoordinatorConnectorConfig.RESHARD_DATABASE), ""));
                parts.add("shards=" + shardNames(c.getList(VStreamCoordinatorConnectorConfig.SHARDS)));
                parts.add("reshard.target.shards=" + shardNames(c.getList(VStreamCoordinatorConnectorConfig.RESHARD_TARGET_SHARDS)));
                parts.add("reshard.vindex=" + c.getString(VStreamCoordinatorConnectorConfig.RESHARD_VINDEX));
                parts.add("reshard.columns=" + c.getList(VStreamCoordinatorConnectorConfig.RESHARD_COLUMNS));
            }
            default -> {
                // a clone: its type and applier stream (above) are what it is
            }
        }
        return String.join("; ", parts);
    }

    /** The shard names of a {@code name=host:port,...} list, in order (addresses left out). */
    static List<String> shardNames(List<String> entries) {
        List<String> out = new ArrayList<>();
        if (entries == null) {
            return out;
        }
        for (String e : entries) {
            int eq = e.indexOf('=');
            out.add((eq < 0 ? e : e.substring(0, eq)).strip());
        }
        return out;
    }

    /**
     * Refuses a stored state that belongs to another definition; a stored state without one (written by an older
     * version) is accepted.
     *
     * @throws ConnectException naming what differs and the two ways out
     */
    static void check(Map<String, Object> offset, String current, String workflow, String connector) {
        if (offset == null || !(offset.get(OFFSET_KEY) instanceof String stored) || stored.equals(current)) {
            return;
        }
        throw new ConnectException("Workflow '" + workflow + "' has a stored state (" + offset.get("state")
                + ") that belongs to a different workflow under the same name: stored [" + stored + "], deployed ["
                + current + "]. Nothing was done. Deploy the new workflow under a new name (workflow.name, or the"
                + " connector's name), or, to reuse this one, stop the connector, delete its stored state"
                + " (DELETE /connectors/" + connector + "/offsets) and resume it");
    }
}
