package io.vstream.connect.coordinator;

/**
 * Decides, before each round of the coordinator task, what the health of the workflow's connectors
 * ({@link ConnectorHealth}) does to the workflow: a FAILED connector or task fails it at once with the task's error;
 * one that has not run for {@value #STALL_GRACE_MS} ms stalls it (a rebalance, a task restarting or a connector
 * deployed a moment after the coordinator is not worth a state of its own); once they run again it goes on from the
 * state it waited in. After the swap (REVERTIBLE, REVERTING) nothing is held back: a reverse stream that does not run
 * is told in the REVERTIBLE reason, and one that failed for good ends the window (the workflow sees its applier's
 * failure). Also paces the questions: at most one every {@value #WATCH_EVERY_MS} ms. Deciding only (the REST calls
 * are {@link ConnectorWatch}'s); the time is given in.
 */
final class ConnectorGate {
    static final long WATCH_EVERY_MS = 3_000;
    static final long STALL_GRACE_MS = 15_000;

    /** What the task does with this round. */
    enum Action {
        /** Runs the workflow's round from the status as it is. */
        ROUND,
        /** Moves the workflow to the decision's status, without a round. */
        MOVE,
        /** Publishes the status as it is, without a round: waiting on the connectors, which were not asked. */
        WAIT
    }

    /** The decision: an action and, for {@link Action#MOVE}, the status to move to (else the one given). */
    record Decision(Action action, WorkflowStatus status) {
    }

    private long askedAt;
    private long stalledSince; // when the connectors were first seen stalled since they last ran; 0: not stalled
    private String reverseStreamTrouble; // after the swap: why the reverse stream does not run, or null

    /** Whether the connectors are asked at {@code now}: at most every {@value #WATCH_EVERY_MS} ms (counts as asked). */
    boolean due(long now) {
        if (now - askedAt < WATCH_EVERY_MS) {
            return false;
        }
        askedAt = now;
        return true;
    }

    /**
     * The decision before a round in {@code status}; {@code verdict} is how the connectors are at {@code now}, or null
     * when they were not asked this round or did not answer (the state then stays). A status that cannot move
     * ({@link WorkflowStatus#canMove}) is left to its round.
     */
    Decision before(WorkflowStatus status, ConnectorHealth.Verdict verdict, long now) {
        if (!status.canMove()) {
            return new Decision(Action.ROUND, status);
        }
        if (status.state() == WorkflowState.REVERTIBLE || status.state() == WorkflowState.REVERTING) {
            if (verdict != null) {
                reverseStreamTrouble = verdict.kind() == ConnectorHealth.Kind.HEALTHY ? null : verdict.reason();
            }
            return new Decision(Action.ROUND, status);
        }
        if (verdict != null && verdict.kind() == ConnectorHealth.Kind.FAILED) {
            return new Decision(Action.MOVE, status.waitingOnConnectors(WorkflowState.FAILED, verdict.reason()));
        }
        // a status already STALLED (published so by this task or, restarted, by the one before it) stays so at once
        if (verdict != null && verdict.kind() == ConnectorHealth.Kind.STALLED
                && (stalledLongEnough(now) || status.state() == WorkflowState.STALLED)) {
            return new Decision(Action.MOVE, status.waitingOnConnectors(WorkflowState.STALLED, verdict.reason()));
        }
        if (verdict != null && verdict.kind() == ConnectorHealth.Kind.HEALTHY) {
            stalledSince = 0;
        }
        if (status.waitsOnConnectors()) {
            return verdict == null ? new Decision(Action.WAIT, status) : new Decision(Action.MOVE, status.resumed());
        }
        return new Decision(Action.ROUND, status);
    }

    /**
     * The status a round moved to, as published: a REVERTIBLE one says that the reverse stream does not run (the
     * originals fall behind until it does), when the last answer said so.
     */
    WorkflowStatus told(WorkflowStatus next) {
        if (next.state() != WorkflowState.REVERTIBLE || reverseStreamTrouble == null) {
            return next;
        }
        return new WorkflowStatus(WorkflowState.REVERTIBLE, null, next.attempts(), "the reverse stream is not running ("
                + reverseStreamTrouble + "): the originals fall behind until it runs again; " + next.reason());
    }

    private boolean stalledLongEnough(long now) {
        if (stalledSince == 0) {
            stalledSince = now;
        }
        return now - stalledSince >= STALL_GRACE_MS;
    }
}
