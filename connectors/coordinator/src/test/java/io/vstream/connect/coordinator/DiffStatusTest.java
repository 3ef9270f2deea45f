package io.vstream.connect.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DiffStatusTest {
    @Test
    void aDiffRunsUntilEveryTableIsComparedThenIsEqualOrDifferent() {
        DiffStatus d = DiffStatus.started("d1", 1_000);
        assertThat(d.running()).isTrue();
        d = d.progressed("MariaDB/0-1-5", 1, 3, 5_000, 20_000L, List.of(), 0, 2_000);
        assertThat(d.state()).isEqualTo(DiffStatus.RUNNING);
        assertThat(d.etaMs()).as("15,000 rows left at 5 rows/ms").isEqualTo(3_000);
        DiffStatus equal = d.progressed("MariaDB/0-1-9", 3, 3, 20_000, 20_000L, List.of(), 0, 5_000);
        assertThat(equal.state()).isEqualTo(DiffStatus.EQUAL);
        assertThat(equal.etaMs()).isNull();
        DiffStatus different = d.progressed("MariaDB/0-1-9", 3, 3, 20_000, 20_000L,
                List.of("db.t: rows (start, end]: source 2 rows, target 2 rows; id=1 differs"), 1, 5_000);
        assertThat(different.state()).isEqualTo(DiffStatus.DIFFERENT);
        assertThat(different.differences()).isEqualTo(1);
    }

    @Test
    void differencesFoundInEarlierSlicesStayAndTheDetailsAreBounded() {
        DiffStatus d = DiffStatus.started("d1", 0);
        d = d.progressed("p", 0, 2, 10, null, List.of("a"), 3, 1);
        for (int i = 0; i < 100; i++) {
            d = d.progressed("p", 0, 2, 10, null, List.of("x" + i), 1, 1);
        }
        DiffStatus done = d.progressed("p", 2, 2, 10, null, List.of(), 0, 1);
        assertThat(done.state()).isEqualTo(DiffStatus.DIFFERENT);
        assertThat(done.differences()).isEqualTo(103);
        assertThat(done.details()).hasSize(DiffStatus.MAX_DETAILS).startsWith("a", "x0");
    }

    @Test
    void theOffsetKeepsTheResultSoARestartedTaskDoesNotRunItAgain() {
        DiffStatus d = DiffStatus.started("diff-1", 7).progressed("MariaDB/0-1-9", 2, 2, 42, 40L,
                List.of("db.t: one", "db.u: two"), 2, 9);
        Map<String, Object> offset = new WorkflowStatus(WorkflowState.COMPLETE, null, 0, null).toOffset();
        d.putInto(offset);
        DiffStatus back = DiffStatus.fromOffset(offset);
        assertThat(back.id()).isEqualTo("diff-1");
        assertThat(back.state()).isEqualTo(DiffStatus.DIFFERENT);
        assertThat(back.position()).isEqualTo("MariaDB/0-1-9");
        assertThat(back.tablesDone()).isEqualTo(2);
        assertThat(back.tablesTotal()).isEqualTo(2);
        assertThat(back.rowsCompared()).isEqualTo(42);
        assertThat(back.differences()).isEqualTo(2);
        assertThat(back.details()).containsExactly("db.t: one", "db.u: two");
        assertThat(WorkflowStatus.fromOffset(offset).state()).isEqualTo(WorkflowState.COMPLETE);
        assertThat(DiffStatus.fromOffset(new WorkflowStatus(WorkflowState.COMPLETE, null, 0, null).toOffset()))
                .isNull();
        assertThat(DiffStatus.fromOffset(null)).isNull();
    }

    @Test
    void aFailedDiffKeepsWhatItHadCompared() {
        DiffStatus d = DiffStatus.started("d", 0).progressed("p", 1, 2, 10, null, List.of(), 0, 1)
                .failed("the applier did not pause");
        assertThat(d.running()).isFalse();
        assertThat(d.state()).isEqualTo(DiffStatus.FAILED);
        assertThat(d.reason()).isEqualTo("the applier did not pause");
        assertThat(d.rowsCompared()).isEqualTo(10);
    }
}
