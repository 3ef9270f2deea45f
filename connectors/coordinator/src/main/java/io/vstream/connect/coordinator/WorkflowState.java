package io.vstream.connect.coordinator;

/**
 * The states of a workflow, in the order a successful one goes through them (REVERTIBLE, between CUTTING_OVER and
 * COMPLETE for a revertible online DDL, and REVERTING and REVERTED after it, are listed last: a state's code in the
 * metrics is its position here).
 */
public enum WorkflowState {
    /** Deployed; the preflight has not passed yet. */
    CREATED,
    /** The applier is copying the existing rows (or has not started). */
    COPYING,
    /** The copy is done; the applier is applying the binlog and is still too far behind. */
    CATCHING_UP,
    /** Caught up: the cut-over (hand-off) can run. */
    READY,
    /** Ready, but the operator holds the cut-over back; the stream keeps applying. */
    POSTPONED,
    /** The cut-over is running (see the step). */
    CUTTING_OVER,
    /**
     * A connector or task of the workflow is not running (paused, unassigned, restarting, deleted): the workflow
     * waits, the reason says which, and it goes on from the state it stalled in once they run again.
     */
    STALLED,
    /** Done. */
    COMPLETE,
    /** Stopped by the operator. */
    CANCELLED,
    /**
     * Stopped by an error the coordinator cannot get past; the reason says what and how to recover. A workflow failed
     * by one of its tasks (the status's resume state is set) goes on from where it stopped once the task runs again.
     */
    FAILED,
    /**
     * Online DDL with a revert window (ddl.revert.window.ms): the tables are swapped and the new one serves, while the
     * reverse stream keeps the original equal to it until the window ends or the operator releases it (then
     * COMPLETE). Listed last so that the state codes of the others stay as they were.
     */
    REVERTIBLE,
    /** Online DDL asked to revert (ddl.revert) while REVERTIBLE: the swap back is running (a failed attempt returns). */
    REVERTING,
    /** Done: the revert swapped the original tables back; they hold every write made to the new ones. */
    REVERTED;

    boolean isFinal() {
        return this == COMPLETE || this == CANCELLED || this == FAILED || this == REVERTED;
    }
}
