package io.vstream.connect.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * How the coordinator task follows a round's move ({@link StatusChange}): a step forward at once, a final state, a
 * stall or a retry after the poll interval; a record whenever anything changed; the log line.
 */
class StatusChangeTest {
    private static WorkflowStatus at(WorkflowState state) {
        return new WorkflowStatus(state, null, 0, null);
    }

    @Test
    void aStepForwardIsFollowedAtOnce() {
        StatusChange c = new StatusChange(at(WorkflowState.READY), at(WorkflowState.READY).at(HandoffStep.PAUSE));
        assertThat(c.changed()).isTrue();
        assertThat(c.moved()).isTrue();
        assertThat(c.followsAtOnce()).isTrue();
        assertThat(c.describe()).isEqualTo("READY -> CUTTING_OVER/PAUSE");
        WorkflowStatus verify = new WorkflowStatus(WorkflowState.CUTTING_OVER, HandoffStep.VERIFY, 0, null);
        assertThat(new StatusChange(at(WorkflowState.READY).at(HandoffStep.PAUSE), verify).followsAtOnce())
                .as("a new step").isTrue();
    }

    @Test
    void aRetryAStallOrAFinalStateWaitsThePollInterval() {
        WorkflowStatus cutting = at(WorkflowState.READY).at(HandoffStep.PAUSE);
        assertThat(new StatusChange(cutting, cutting.retry("lock wait timeout")).followsAtOnce()).isFalse();
        assertThat(new StatusChange(cutting, cutting.waitingOnConnectors(WorkflowState.STALLED, "paused"))
                .followsAtOnce()).isFalse();
        for (WorkflowState done : new WorkflowState[] {WorkflowState.COMPLETE, WorkflowState.CANCELLED,
                WorkflowState.FAILED, WorkflowState.REVERTED}) {
            assertThat(new StatusChange(cutting, at(done)).followsAtOnce()).isFalse();
        }
    }

    @Test
    void aNewReasonAloneIsAChangeButNoMove() {
        WorkflowStatus copying = at(WorkflowState.COPYING);
        WorkflowStatus throttled = new WorkflowStatus(WorkflowState.COPYING, null, 0, "copy throttled: lag");
        StatusChange c = new StatusChange(copying, throttled);
        assertThat(c.changed()).isTrue();
        assertThat(c.moved()).isFalse();
        assertThat(c.followsAtOnce()).isFalse();
        assertThat(c.describe()).isEqualTo("COPYING -> COPYING (copy throttled: lag)");
        assertThat(new StatusChange(copying, at(WorkflowState.COPYING)).changed()).isFalse();
    }
}
