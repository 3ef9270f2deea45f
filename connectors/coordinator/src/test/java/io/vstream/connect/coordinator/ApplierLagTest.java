package io.vstream.connect.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import io.vstream.connect.jdbc.AppliedTable;
import org.junit.jupiter.api.Test;

class ApplierLagTest {
    private static AppliedTable.Row applied(Long tsMs) {
        return new AppliedTable.Row("t", 0, "MariaDB/0-1-5", "[]", tsMs, 0L);
    }

    @Test
    void theLagIsTheAgeOfTheLastAppliedRecord() {
        assertThat(ApplierLag.millis(applied(10_000L), 12_500L)).isEqualTo(2_500L);
    }

    @Test
    void aRecordFromAClockAheadCountsAsNoLag() {
        assertThat(ApplierLag.millis(applied(13_000L), 12_500L)).isZero();
    }

    @Test
    void nothingAppliedWithATimeIsUnknown() {
        assertThat(ApplierLag.millis(applied(null), 12_500L)).isNull();
        assertThat(ApplierLag.millis(null, 12_500L)).isNull();
    }

    @Test
    void caughtUpByEitherMeasure() {
        assertThat(ApplierLag.caughtUp(5L, 100, null, 10_000)).isTrue();
        assertThat(ApplierLag.caughtUp(5_000L, 100, 800L, 10_000)).as("busy source, current applier").isTrue();
        assertThat(ApplierLag.caughtUp(5_000L, 100, 60_000L, 10_000)).isFalse();
        assertThat(ApplierLag.caughtUp(null, 100, null, 10_000)).isFalse();
    }
}
