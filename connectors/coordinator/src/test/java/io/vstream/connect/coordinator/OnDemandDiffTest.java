package io.vstream.connect.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class OnDemandDiffTest {
    private static final WorkflowStatus STREAMING = new WorkflowStatus(WorkflowState.POSTPONED, null, 0, null);

    /** A workflow whose diff plan is fixed (no server is reached unless the plan has parts). */
    private static Workflow workflowPlanning(DiffPlan plan) {
        return new Workflow() {
            @Override
            public WorkflowType type() {
                return WorkflowType.CLONE;
            }

            @Override
            public WorkflowStatus step(WorkflowStatus status) {
                return status;
            }

            @Override
            public WorkflowStatus cancel(WorkflowStatus status) {
                return status;
            }

            @Override
            public StatusRecords.Progress progress() {
                return StatusRecords.Progress.NONE;
            }

            @Override
            public DiffPlan diffPlan(WorkflowStatus status) {
                return plan;
            }
        };
    }

    @Test
    void aNewRequestStartsADiffAndAnAnsweredOneIsNotRunAgain() {
        assertThat(new OnDemandDiff("w", Duration.ofSeconds(1), null, null).status()).isNull();
        OnDemandDiff fresh = new OnDemandDiff("w", Duration.ofSeconds(1), null, "d1");
        assertThat(fresh.running()).isTrue();
        assertThat(fresh.status().id()).isEqualTo("d1");

        DiffStatus answered = DiffStatus.started("d1", 0).progressed("p", 1, 1, 10, 10L, List.of(), 0, 5);
        OnDemandDiff same = new OnDemandDiff("w", Duration.ofSeconds(1), answered, "d1");
        assertThat(same.running()).isFalse();
        assertThat(same.status()).isEqualTo(answered);
        assertThat(new OnDemandDiff("w", Duration.ofSeconds(1), answered, null).status()).isEqualTo(answered);
        assertThat(new OnDemandDiff("w", Duration.ofSeconds(1), answered, "d2").status().id()).isEqualTo("d2");

        DiffStatus cutShort = DiffStatus.started("d3", 0).progressed("p", 1, 3, 10, 10L, List.of("x"), 1, 5);
        OnDemandDiff again = new OnDemandDiff("w", Duration.ofSeconds(1), cutShort, "d3");
        assertThat(again.running()).isTrue();
        assertThat(again.status().rowsCompared()).as("a diff a stopped task had not finished starts over").isZero();
        assertThat(again.status().differences()).isZero();
    }

    @Test
    void aRefusedDiffFailsWithTheReasonAndAWaitingOneSaysWhy() throws Exception {
        OnDemandDiff refused = new OnDemandDiff("w", Duration.ofSeconds(1), null, "d1");
        refused.slice(workflowPlanning(DiffPlan.refusedBecause("the clone is still copying")), STREAMING);
        assertThat(refused.running()).isFalse();
        assertThat(refused.status().state()).isEqualTo(DiffStatus.FAILED);
        assertThat(refused.status().reason()).isEqualTo("the clone is still copying");

        OnDemandDiff waiting = new OnDemandDiff("w", Duration.ofSeconds(1), null, "d2");
        waiting.slice(workflowPlanning(DiffPlan.waitingBecause("the workflow is CUTTING_OVER")), STREAMING);
        assertThat(waiting.running()).isTrue();
        assertThat(waiting.status().reason()).isEqualTo("the workflow is CUTTING_OVER");

        OnDemandDiff empty = new OnDemandDiff("w", Duration.ofSeconds(1), null, "d3");
        empty.slice(workflowPlanning(DiffPlan.of("stream", List.of())), STREAMING);
        assertThat(empty.status().state()).isEqualTo(DiffStatus.FAILED);
        assertThat(empty.status().reason()).contains("nothing to compare");
    }
}
