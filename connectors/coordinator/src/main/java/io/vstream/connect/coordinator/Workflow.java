package io.vstream.connect.coordinator;

import java.sql.SQLException;

/** A workflow's state machine, advanced one round at a time by the coordinator task. */
interface Workflow {
    /** The workflow type (its label in status records, e.g. {@code clone}). */
    WorkflowType type();

    /** One round: looks at the servers and returns the next status (the same one when nothing changed). */
    WorkflowStatus step(WorkflowStatus status) throws SQLException, InterruptedException;

    /** Stops the workflow for good at the operator's request, undoing what can be undone; returns CANCELLED. */
    WorkflowStatus cancel(WorkflowStatus status) throws SQLException;

    /** What the last round measured. */
    StatusRecords.Progress progress();

    /**
     * What an on-demand diff ({@code diff.request}) may compare in state {@code status}, and how to hold the target
     * at a position; workflows without a diff refuse it.
     */
    default DiffPlan diffPlan(WorkflowStatus status) throws SQLException {
        return DiffPlan.refusedBecause("a " + type().label() + " workflow has no on-demand diff (clone, online DDL and"
                + " reshard workflows do)");
    }

    /** Each shard as the last round measured it (empty when the workflow does not measure per shard). */
    default java.util.List<ShardStatus> shards() {
        return java.util.List.of();
    }

    /** How long the last cut-over blocked writes (the longest shard), in ms; -1 before one (or without one). */
    default long lastWriteBlockMs() {
        return -1;
    }

    /** Whether something the workflow runs besides its rounds has just finished, so that a round should run now. */
    default boolean wantsRound() {
        return false;
    }

    /** Releases what the workflow runs besides its rounds (threads, connections); the task is stopping. */
    default void close() {
    }
}
