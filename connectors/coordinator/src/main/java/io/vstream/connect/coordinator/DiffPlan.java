package io.vstream.connect.coordinator;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/**
 * What a workflow lets an on-demand diff compare in its current state, or why it cannot compare now ({@code waiting}:
 * later, e.g. during a cut-over) or at all ({@code refused}). The comparison is made of {@link Part}s, each a source
 * and a target server with a way to hold the target at a source position ({@link TargetHold}) and the tables to
 * compare there: one part for a clone, one per shard for an online DDL's ghost. {@code kind} names the comparison; a
 * diff whose plan changes kind between slices (a clone handed off meanwhile) starts over.
 */
record DiffPlan(String kind, List<Part> parts, String refused, String waiting) {
    /** Prepares the chunked comparison of one table pair, reading the two sides' definitions. */
    interface Preparer {
        MappedChecksum prepare(Connection source, Connection target) throws SQLException;
    }

    /**
     * One table pair: its name in messages, the source table (for the row estimate), how to compare it, and the share
     * of the source table's rows it compares (1; a reshard pair: the part of the old shard's key range the new shard
     * holds), which scales the estimate.
     */
    record Table(String label, String sourceDatabase, String sourceTable, Preparer preparer, double share) {
        Table(String label, String sourceDatabase, String sourceTable, Preparer preparer) {
            this(label, sourceDatabase, sourceTable, preparer, 1.0);
        }
    }

    /** The tables of one source and target pair of servers, held through {@code hold}. */
    record Part(String name, VStreamCoordinatorConnectorConfig.Endpoint source,
                VStreamCoordinatorConnectorConfig.Endpoint target, TargetHold hold, List<Table> tables) {
        Part {
            tables = List.copyOf(tables);
        }
    }

    static DiffPlan of(String kind, List<Part> parts) {
        return new DiffPlan(kind, List.copyOf(parts), null, null);
    }

    static DiffPlan refusedBecause(String why) {
        return new DiffPlan(null, List.of(), why, null);
    }

    static DiffPlan waitingBecause(String why) {
        return new DiffPlan(null, List.of(), null, why);
    }

    int tableCount() {
        return parts.stream().mapToInt(p -> p.tables().size()).sum();
    }
}
