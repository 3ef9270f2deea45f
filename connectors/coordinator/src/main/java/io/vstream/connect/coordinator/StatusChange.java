package io.vstream.connect.coordinator;

/**
 * A move of the workflow's status from one round to the next, as the coordinator task treats it: whether it changed
 * (a status record is due), whether it moved to a new state or step (logged at INFO; a reason alone, e.g. a throttle's,
 * can change every round), whether the next round follows at once, and the line the log shows. A value; no I/O.
 */
record StatusChange(WorkflowStatus from, WorkflowStatus to) {
    boolean changed() {
        return !to.equals(from);
    }

    /** A new state or step. */
    boolean moved() {
        return to.state() != from.state() || to.step() != from.step();
    }

    /**
     * Whether the next round runs without waiting the poll interval: after a step forward; not after a final state, a
     * stall or a retry (a failed cut-over attempt, counted in the attempts), nor when nothing moved.
     */
    boolean followsAtOnce() {
        return moved() && !to.state().isFinal() && to.state() != WorkflowState.STALLED
                && to.attempts() == from.attempts();
    }

    /** E.g. {@code READY -> CUTTING_OVER/PAUSE}, with the new reason in parentheses. */
    String describe() {
        return from.state() + (from.step() == null ? "" : "/" + from.step()) + " -> " + to.state()
                + (to.step() == null ? "" : "/" + to.step()) + (to.reason() == null ? "" : " (" + to.reason() + ")");
    }
}
