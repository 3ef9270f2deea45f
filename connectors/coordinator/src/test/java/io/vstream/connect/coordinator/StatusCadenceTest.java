package io.vstream.connect.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** When the coordinator task writes a status record ({@link StatusCadence}). Time is given in. */
class StatusCadenceTest {
    private static final long T0 = 1_000_000;
    private static final StatusRecords.Progress P = StatusRecords.Progress.NONE;
    private static final List<String> RUNNING = List.of("src RUNNING: task 0 RUNNING on w1:8083");

    private final StatusCadence cadence = new StatusCadence();

    @Test
    void theFirstRecordIsDue() {
        assertThat(cadence.due(T0, false, P, null, List.of(), false)).isTrue();
    }

    @Test
    void aRecordIsDueWhenAnythingItCarriesChangedElseEveryThirtySeconds() {
        cadence.written(T0, P, null, RUNNING);
        assertThat(cadence.due(T0 + 1, false, P, null, RUNNING, false)).isFalse();
        assertThat(cadence.due(T0 + 1, true, P, null, RUNNING, false)).as("the status").isTrue();
        StatusRecords.Progress moved = new StatusRecords.Progress("MariaDB/0-1-5", null, null, null, null, null, null,
                null, null, null, null);
        assertThat(cadence.due(T0 + 1, false, moved, null, RUNNING, false)).as("the progress").isTrue();
        assertThat(cadence.due(T0 + 1, false, P, DiffStatus.started("d1", T0), RUNNING, false)).as("the diff")
                .isTrue();
        assertThat(cadence.due(T0 + 1, false, P, null, List.of("src PAUSED: no tasks"), false)).as("the connectors")
                .isTrue();
        assertThat(cadence.due(T0 + 1, false, P, null, RUNNING, true)).as("the shards").isTrue();
        assertThat(cadence.due(T0 + StatusCadence.EVERY_MS - 1, false, P, null, RUNNING, false)).isFalse();
        assertThat(cadence.due(T0 + StatusCadence.EVERY_MS, false, P, null, RUNNING, false)).isTrue();
    }
}
