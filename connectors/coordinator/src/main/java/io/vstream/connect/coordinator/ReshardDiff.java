package io.vstream.connect.coordinator;

import io.vstream.connect.core.keyrange.KeyRange;
import io.vstream.connect.core.protocol.ControlTable;
import io.vstream.connect.core.vindex.Vindex;
import io.vstream.connect.core.vindex.Vindexes;
import io.vstream.connect.jdbc.StreamTables;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What an on-demand diff ({@code diff.request}) of a reshard compares: each new shard against each old shard whose key
 * range overlaps it, limited to the rows whose keyspace id both ranges hold ({@link ShareFilter}), holding only that
 * old shard's lane into the new one. Touches the new shards (reads the tables their stream holds) when planning.
 */
final class ReshardDiff {
    private final VStreamCoordinatorConnectorConfig config;
    private final Map<String, VStreamCoordinatorConnectorConfig.Endpoint> oldShards;
    private final Map<String, VStreamCoordinatorConnectorConfig.Endpoint> newShards;

    ReshardDiff(VStreamCoordinatorConnectorConfig config) {
        this.config = config;
        this.oldShards = config.shards();
        this.newShards = config.reshardTargets();
    }

    /**
     * Once the copy is done and until the switch: one part per new shard and old shard whose key ranges overlap. Each
     * part holds only that old shard's lane into the new shard (its own control row, {@link ControlTable#laneKey}) at
     * a snapshot position of the old shard, and compares the rows whose keyspace id both ranges hold: the rows of the
     * new shard that came from other old shards are left out by their keyspace id, so their lanes run on. Not during
     * the copy (the new shards are incomplete), not after the switch (the new shards serve writes, the old ones are
     * retired).
     */
    DiffPlan plan(WorkflowStatus status) throws SQLException {
        switch (status.state()) {
            case CREATED:
            case COPYING:
                return DiffPlan.refusedBecause("the reshard is still copying (state " + status.state() + "): the new"
                        + " shards are incomplete until the copy ends; run the diff once the workflow is CATCHING_UP,"
                        + " READY or POSTPONED");
            case CATCHING_UP:
            case READY:
            case POSTPONED: {
                Vindex vindex = Vindexes.named(config.reshardVindex());
                List<DiffPlan.Part> parts = new ArrayList<>();
                for (Map.Entry<String, VStreamCoordinatorConnectorConfig.Endpoint> n : newShards.entrySet()) {
                    List<StreamTables.Entry> taken;
                    try (Connection target = Servers.open(n.getValue())) {
                        taken = StreamTables.read(target, config.stateDatabase(), config.applierStream());
                    }
                    for (String old : ReshardProgress.overlapping(oldShards.keySet(), n.getKey())) {
                        KeyRange from = KeyRange.parse(old);
                        KeyRange both = from.intersection(KeyRange.parse(n.getKey())).orElseThrow();
                        double share = from.share() > 0 ? both.share() / from.share() : 1.0;
                        List<DiffPlan.Table> tables = new ArrayList<>();
                        for (StreamTables.Entry e : taken) {
                            tables.add(new DiffPlan.Table(e.target(), e.sourceDatabase(), e.sourceTable(),
                                    (src, tgt) -> prepareShare(src, tgt, e, vindex, both), share));
                        }
                        String laneKey = ControlTable.laneKey(config.applierStream(), old);
                        parts.add(new DiffPlan.Part(n.getKey() + " (rows of old shard " + old + ")",
                                oldShards.get(old), n.getValue(), new ApplierHold(new ApplierChannel(
                                config.stateDatabase(), laneKey), laneKey, config.stopTimeout()), tables));
                    }
                }
                return DiffPlan.of("reshard", parts);
            }
            case CUTTING_OVER:
            case STALLED:
                return DiffPlan.waitingBecause("the workflow is " + status.state() + "; the diff runs once it is"
                        + " streaming again");
            case COMPLETE:
                return DiffPlan.refusedBecause("the switch is done: the new shards serve the keyspace and the old ones"
                        + " are retired (read-only, no longer followed); there is nothing to compare them at");
            default:
                return DiffPlan.refusedBecause("the workflow is " + status.state());
        }
    }

    /**
     * The comparison of one table of an old shard with the same table on a new shard, limited to the rows whose
     * keyspace id (the table's sharding column through the vindex, as the applier routes them) lies in {@code both}.
     */
    private MappedChecksum prepareShare(Connection src, Connection tgt, StreamTables.Entry e, Vindex vindex,
                                        KeyRange both) throws SQLException {
        String column = config.reshardColumns().get(e.sourceTable());
        if (column == null) {
            column = config.reshardColumnDefault();
        }
        if (column == null || column.isBlank()) {
            throw new IllegalArgumentException("no sharding column for " + e.sourceTable() + ": add "
                    + e.sourceTable() + ":<column> to reshard.columns, or set reshard.column.default");
        }
        MappedChecksum sum = MappedChecksum.prepareSame(src, e.sourceDatabase(), e.sourceTable(), tgt,
                e.targetDatabase(), e.targetTable(), config.diffChunkRows());
        if (!sum.keyed()) {
            throw new IllegalArgumentException("the table has no primary key (nor a unique key over NOT NULL"
                    + " columns): a new shard's rows of one old shard are told apart by key");
        }
        if (!sum.compares(column)) {
            throw new IllegalArgumentException("its sharding column " + column + " is not on both sides (set the"
                    + " table's column in reshard.columns)");
        }
        return sum.filtered(new ShareFilter(column, vindex, both));
    }

    /**
     * Keeps a row whose keyspace id lies in a key range. A value the vindex cannot map (or NULL) is kept: such a row
     * belongs to no shard, and the applier refuses it, so one found on either side is a difference worth naming.
     */
    record ShareFilter(String column, Vindex vindex, KeyRange range) implements MappedChecksum.RowFilter {
        @Override
        public boolean keeps(Object value) {
            if (value == null) {
                return true;
            }
            try {
                return range.contains(Vindexes.keyspaceIdOfColumn(vindex, value));
            } catch (IllegalArgumentException unmapped) {
                return true;
            }
        }
    }
}
