package io.vstream.connect.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WorkflowStatusTest {
    @Test
    void aStatusWaitingOnConnectorsKeepsItsStepAndGoesBackToItsState() {
        WorkflowStatus cutting = new WorkflowStatus(WorkflowState.CUTTING_OVER, HandoffStep.PAUSE, 2, null);
        WorkflowStatus stalled = cutting.waitingOnConnectors(WorkflowState.STALLED, "src task 0 is UNASSIGNED");
        assertThat(stalled.waitsOnConnectors()).isTrue();
        WorkflowStatus failed = stalled.waitingOnConnectors(WorkflowState.FAILED, "sink task 0 FAILED");
        assertThat(failed.resume()).as("the state before the first wait").isEqualTo(WorkflowState.CUTTING_OVER);
        assertThat(failed.step()).isEqualTo(HandoffStep.PAUSE);
        WorkflowStatus back = failed.resumed();
        assertThat(back).isEqualTo(new WorkflowStatus(WorkflowState.CUTTING_OVER, HandoffStep.PAUSE, 2, null));
        assertThat(back.waitsOnConnectors()).isFalse();
    }

    @Test
    void theResumeStateSurvivesTheOffset() {
        WorkflowStatus failed = new WorkflowStatus(WorkflowState.COPYING, null, 0, null)
                .waitingOnConnectors(WorkflowState.FAILED, "sink task 0 FAILED");
        Map<String, Object> offset = new HashMap<>(failed.toOffset());
        assertThat(WorkflowStatus.fromOffset(offset)).isEqualTo(failed);
        offset.remove("resume");
        assertThat(WorkflowStatus.fromOffset(offset).waitsOnConnectors()).as("an offset written before").isFalse();
    }
}
