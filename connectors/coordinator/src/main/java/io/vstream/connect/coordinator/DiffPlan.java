package io.vstream.connect.coordinator;

import io.vstream.connect.core.mapping.StreamTables;
import java.util.List;

/**
 * What a workflow lets an on-demand diff compare in its current state: the tables (source and target names) and how
 * to hold the target at a position ({@link TargetHold}); or why it cannot compare now ({@code waiting}: later, e.g.
 * during a cut-over) or at all ({@code refused}). {@code kind} names the comparison; a diff whose plan changes kind
 * between slices (a clone handed off meanwhile) starts over.
 */
record DiffPlan(String kind, List<StreamTables.Entry> tables, TargetHold hold, String refused, String waiting) {
    static DiffPlan of(String kind, List<StreamTables.Entry> tables, TargetHold hold) {
        return new DiffPlan(kind, List.copyOf(tables), hold, null, null);
    }

    static DiffPlan refusedBecause(String why) {
        return new DiffPlan(null, List.of(), null, why, null);
    }

    static DiffPlan waitingBecause(String why) {
        return new DiffPlan(null, List.of(), null, null, why);
    }
}
