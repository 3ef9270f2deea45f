package io.vstream.connect.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The coordinator's pure logic: lag between positions and the persisted state's codec. */
class CloneWorkflowTest {
    @Test
    void lagCountsTransactionsPerDomain() {
        assertThat(CloneWorkflow.lag("MariaDB/0-1-100,1-2-50", "MariaDB/0-1-90,1-2-45")).isEqualTo(15L);
        assertThat(CloneWorkflow.lag("MariaDB/0-1-100", "MariaDB/0-1-100")).isZero();
        assertThat(CloneWorkflow.lag("MariaDB/0-1-100", "MariaDB/0-1-120")).isZero();
        assertThat(CloneWorkflow.lag("MariaDB/0-1-100,1-2-5", "MariaDB/0-1-100")).isEqualTo(5L);
        assertThat(CloneWorkflow.lag(null, "MariaDB/0-1-1")).isNull();
    }

    @Test
    void replicationCarriesExactlyTheClonesDatabasesWithTheirNamesEscaped() {
        assertThat(CloneWorkflow.wildDoTable(java.util.List.of("commerce", "vs_db1")))
                .isEqualTo("commerce.%,vs\\_db1.%");
        assertThat(CloneWorkflow.wildDoTable(java.util.List.of("a%b"))).isEqualTo("a\\%b.%");
    }

    @Test
    void statusRoundTripsThroughTheOffset() {
        WorkflowStatus s = new WorkflowStatus(WorkflowState.CUTTING_OVER, HandoffStep.CHECKSUM, 2, "why");
        Map<String, Object> offset = s.toOffset();
        assertThat(WorkflowStatus.fromOffset(offset)).isEqualTo(s);
        assertThat(WorkflowStatus.fromOffset(null)).isEqualTo(WorkflowStatus.START);
        assertThat(s.retry("again")).extracting(WorkflowStatus::state, WorkflowStatus::attempts)
                .containsExactly(WorkflowState.READY, 3);
    }
}
