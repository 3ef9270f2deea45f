package io.vstream.connect.coordinator;

/** The states of a workflow, in the order a successful one goes through them. */
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
    /** Done. */
    COMPLETE,
    /** Stopped by the operator. */
    CANCELLED,
    /** Stopped by an error the coordinator cannot get past; the reason says what and how to recover. */
    FAILED;

    boolean isFinal() {
        return this == COMPLETE || this == CANCELLED || this == FAILED;
    }
}
