package io.vstream.connect.source;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.Test;

class HeartbeatScheduleTest {
    private static final long SECOND = Duration.ofSeconds(1).toNanos();
    private static final QueuedRecord ROW = QueuedRecord.inTransaction(record());
    private static final QueuedRecord COMMIT = QueuedRecord.boundary(record());

    private static SourceRecord record() {
        return new SourceRecord(null, null, "t", null, null);
    }

    @Test
    void dueAtOnceBeforeAnythingWasEmitted() {
        HeartbeatSchedule h = new HeartbeatSchedule(Duration.ofSeconds(1), 5 * SECOND);
        assertThat(h.due(false, 5 * SECOND)).as("the start position is told at once").isTrue();
        h.emitted(COMMIT, 5 * SECOND);
        assertThat(h.due(false, 6 * SECOND - 1)).isFalse();
    }

    @Test
    void dueAfterAnIntervalWithoutRecords() {
        HeartbeatSchedule h = new HeartbeatSchedule(Duration.ofSeconds(1), 0);
        h.emitted(COMMIT, 0);
        assertThat(h.due(false, SECOND - 1)).isFalse();
        assertThat(h.due(false, SECOND)).isTrue();
        h.emitted(ROW, SECOND);
        assertThat(h.due(false, 2 * SECOND - 1)).isFalse();
        assertThat(h.due(true, 2 * SECOND - 1)).as("nothing untold").isFalse();
    }

    @Test
    void dueAtOnceWhenIdleAfterASilentMoveUntilABoundaryTellsThePosition() {
        HeartbeatSchedule h = new HeartbeatSchedule(Duration.ofSeconds(1), 0);
        h.emitted(COMMIT, 0);
        h.positionMovedSilently();
        assertThat(h.due(false, 1)).isFalse();
        assertThat(h.due(true, 1)).isTrue();
        h.emitted(QueuedRecord.abortMarker(), 2);
        assertThat(h.due(true, 2)).as("an abort marker tells no position").isTrue();
        h.emitted(ROW, 3);
        assertThat(h.due(true, 3)).as("nor a record inside a transaction").isTrue();
        h.emitted(COMMIT, 4);
        assertThat(h.due(true, 4)).isFalse();
    }
}
