package io.vstream.connect.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * Every decision the coordinator task takes on its connectors' health before a round ({@link ConnectorGate}): a
 * failure at once, a stall only once it has lasted, the way back once they run, the revert window's note, the final
 * states left alone and the pace of the questions. Time is given in: no clock, no sleep.
 */
class ConnectorGateTest {
    private static final long T0 = 1_000_000;
    private static final ConnectorHealth.Verdict HEALTHY = ConnectorHealth.Verdict.HEALTHY;
    private static final ConnectorHealth.Verdict FAILED = new ConnectorHealth.Verdict(ConnectorHealth.Kind.FAILED,
            "sink task 0 FAILED on w1:8083: ConnectException: boom");
    private static final ConnectorHealth.Verdict STALLED = new ConnectorHealth.Verdict(ConnectorHealth.Kind.STALLED,
            "connector src is PAUSED");

    private final ConnectorGate gate = new ConnectorGate();

    private static WorkflowStatus at(WorkflowState state) {
        return new WorkflowStatus(state, null, 0, null);
    }

    private static ConnectorGate.Decision round(WorkflowStatus s) {
        return new ConnectorGate.Decision(ConnectorGate.Action.ROUND, s);
    }

    private static ConnectorGate.Decision move(WorkflowStatus s) {
        return new ConnectorGate.Decision(ConnectorGate.Action.MOVE, s);
    }

    @Test
    void aRestartedCoordinatorWhoseWorkflowWasStalledKeepsItStalledWithoutANewGrace() {
        WorkflowStatus saved = at(WorkflowState.COPYING).waitingOnConnectors(WorkflowState.STALLED, "earlier");
        ConnectorGate fresh = new ConnectorGate(); // a restarted task's gate: no stall seen yet
        assertThat(fresh.before(saved, STALLED, T0)).isEqualTo(move(new WorkflowStatus(WorkflowState.STALLED, null, 0,
                "connector src is PAUSED", WorkflowState.COPYING)));
    }

    @Test
    void healthyConnectorsOrNoAnswerLeaveTheWorkflowToItsRound() {
        WorkflowStatus copying = at(WorkflowState.COPYING);
        assertThat(gate.before(copying, HEALTHY, T0)).isEqualTo(round(copying));
        assertThat(gate.before(copying, null, T0)).isEqualTo(round(copying));
    }

    @Test
    void aFailedConnectorFailsTheWorkflowAtOnceWithItsReasonKeepingTheStateToGoOnFrom() {
        WorkflowStatus cutting = new WorkflowStatus(WorkflowState.CUTTING_OVER, HandoffStep.CHECKSUM, 1, null);
        ConnectorGate.Decision d = gate.before(cutting, FAILED, T0);
        assertThat(d).isEqualTo(move(new WorkflowStatus(WorkflowState.FAILED, HandoffStep.CHECKSUM, 1,
                FAILED.reason(), WorkflowState.CUTTING_OVER)));
        assertThat(d.status().canMove()).as("final, but it waits on the task").isTrue();
        // still failed on the next answer: the state it goes on from stays the first one
        assertThat(gate.before(d.status(), FAILED, T0 + 3_000).status().resume()).isEqualTo(WorkflowState.CUTTING_OVER);
    }

    @Test
    void aStallIsAStateOnlyOnceItHasLastedTheGrace() {
        WorkflowStatus copying = at(WorkflowState.COPYING);
        assertThat(gate.before(copying, STALLED, T0)).isEqualTo(round(copying));
        assertThat(gate.before(copying, STALLED, T0 + ConnectorGate.STALL_GRACE_MS - 1)).isEqualTo(round(copying));
        assertThat(gate.before(copying, null, T0 + ConnectorGate.STALL_GRACE_MS - 1)).isEqualTo(round(copying));
        assertThat(gate.before(copying, STALLED, T0 + ConnectorGate.STALL_GRACE_MS)).isEqualTo(move(
                new WorkflowStatus(WorkflowState.STALLED, null, 0, "connector src is PAUSED", WorkflowState.COPYING)));
    }

    @Test
    void aConnectorRunningAgainStartsTheGraceOver() {
        WorkflowStatus copying = at(WorkflowState.COPYING);
        gate.before(copying, STALLED, T0);
        gate.before(copying, HEALTHY, T0 + 10_000);
        assertThat(gate.before(copying, STALLED, T0 + 20_000)).isEqualTo(round(copying));
        assertThat(gate.before(copying, STALLED, T0 + 20_000 + ConnectorGate.STALL_GRACE_MS).action())
                .isEqualTo(ConnectorGate.Action.MOVE);
    }

    @Test
    void aFailureOutranksAStallInItsGrace() {
        WorkflowStatus catchingUp = at(WorkflowState.CATCHING_UP);
        gate.before(catchingUp, STALLED, T0);
        assertThat(gate.before(catchingUp, FAILED, T0 + 3_000).status().state()).isEqualTo(WorkflowState.FAILED);
    }

    @Test
    void aStalledWorkflowStaysStalledWhileTheConnectorsDoNotRun() {
        WorkflowStatus copying = at(WorkflowState.COPYING);
        gate.before(copying, STALLED, T0);
        WorkflowStatus stalled = gate.before(copying, STALLED, T0 + ConnectorGate.STALL_GRACE_MS).status();
        ConnectorHealth.Verdict other = new ConnectorHealth.Verdict(ConnectorHealth.Kind.STALLED,
                "src task 0 is UNASSIGNED");
        assertThat(gate.before(stalled, other, T0 + ConnectorGate.STALL_GRACE_MS + 3_000)).isEqualTo(move(
                new WorkflowStatus(WorkflowState.STALLED, null, 0, "src task 0 is UNASSIGNED", WorkflowState.COPYING)));
    }

    @Test
    void aWorkflowWaitingOnItsConnectorsGoesOnFromItsStateOnceTheyRun() {
        WorkflowStatus ready = new WorkflowStatus(WorkflowState.CUTTING_OVER, HandoffStep.PAUSE, 2, "x");
        WorkflowStatus stalled = ready.waitingOnConnectors(WorkflowState.STALLED, STALLED.reason());
        assertThat(gate.before(stalled, HEALTHY, T0)).isEqualTo(move(new WorkflowStatus(WorkflowState.CUTTING_OVER,
                HandoffStep.PAUSE, 2, null)));
        WorkflowStatus failed = at(WorkflowState.COPYING).waitingOnConnectors(WorkflowState.FAILED, FAILED.reason());
        assertThat(gate.before(failed, HEALTHY, T0)).isEqualTo(move(at(WorkflowState.COPYING)));
    }

    @Test
    void aWorkflowWaitingOnItsConnectorsWaitsWithoutARoundWhenTheyWereNotAsked() {
        WorkflowStatus stalled = at(WorkflowState.COPYING).waitingOnConnectors(WorkflowState.STALLED, "paused");
        assertThat(gate.before(stalled, null, T0)).isEqualTo(new ConnectorGate.Decision(ConnectorGate.Action.WAIT,
                stalled));
        WorkflowStatus failed = at(WorkflowState.COPYING).waitingOnConnectors(WorkflowState.FAILED, "boom");
        assertThat(gate.before(failed, null, T0).action()).isEqualTo(ConnectorGate.Action.WAIT);
    }

    @Test
    void aFailedTaskThatRestartsLetsTheWorkflowGoOnUntilTheStallHasLasted() {
        WorkflowStatus failed = at(WorkflowState.COPYING).waitingOnConnectors(WorkflowState.FAILED, "boom");
        assertThat(gate.before(failed, STALLED, T0)).isEqualTo(move(at(WorkflowState.COPYING)));
    }

    @Test
    void finalStatesAreNotLeft() {
        for (WorkflowState s : new WorkflowState[] {WorkflowState.COMPLETE, WorkflowState.CANCELLED,
                WorkflowState.FAILED, WorkflowState.REVERTED}) {
            WorkflowStatus done = new WorkflowStatus(s, null, 0, "done");
            assertThat(done.canMove()).isFalse();
            gate.before(done, STALLED, T0);
            assertThat(gate.before(done, FAILED, T0)).isEqualTo(round(done));
            assertThat(gate.before(done, STALLED, T0 + ConnectorGate.STALL_GRACE_MS)).isEqualTo(round(done));
            assertThat(gate.before(done, HEALTHY, T0)).isEqualTo(round(done));
        }
    }

    @Test
    void afterTheSwapTheConnectorsHoldNothingBackAndTheRevertibleReasonSaysTheReverseStreamDoesNotRun() {
        WorkflowStatus revertible = new WorkflowStatus(WorkflowState.REVERTIBLE, null, 0, "revertible until 12:00");
        assertThat(gate.before(revertible, FAILED, T0)).isEqualTo(round(revertible));
        assertThat(gate.told(revertible)).isEqualTo(new WorkflowStatus(WorkflowState.REVERTIBLE, null, 0,
                "the reverse stream is not running (" + FAILED.reason() + "): the originals fall behind until it runs"
                        + " again; revertible until 12:00"));
        WorkflowStatus reverting = at(WorkflowState.REVERTING);
        assertThat(gate.before(reverting, STALLED, T0 + ConnectorGate.STALL_GRACE_MS * 2)).isEqualTo(round(reverting));
        assertThat(gate.told(revertible).reason()).startsWith("the reverse stream is not running (connector src is"
                + " PAUSED)");
        assertThat(gate.told(at(WorkflowState.COMPLETE))).as("only a REVERTIBLE status says it")
                .isEqualTo(at(WorkflowState.COMPLETE));
        gate.before(revertible, null, T0 + 60_000);
        assertThat(gate.told(revertible).reason()).as("no answer: the last one stands").startsWith("the reverse");
        gate.before(revertible, HEALTHY, T0 + 63_000);
        assertThat(gate.told(revertible)).isEqualTo(revertible);
    }

    @Test
    void theConnectorsAreAskedAtMostEveryFewSeconds() {
        assertThat(gate.due(T0)).isTrue();
        assertThat(gate.due(T0 + ConnectorGate.WATCH_EVERY_MS - 1)).isFalse();
        assertThat(gate.due(T0 + ConnectorGate.WATCH_EVERY_MS)).isTrue();
        assertThat(gate.due(T0 + ConnectorGate.WATCH_EVERY_MS + 1)).isFalse();
    }
}
