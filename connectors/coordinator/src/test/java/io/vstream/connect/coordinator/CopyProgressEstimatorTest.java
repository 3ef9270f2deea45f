package io.vstream.connect.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.apache.kafka.connect.data.Struct;
import org.junit.jupiter.api.Test;

/** The online-DDL copy's progress arithmetic: percent, rate over a window, ETA, and the status record's fields. */
class CopyProgressEstimatorTest {
    private static final long SECOND = 1_000_000_000L;

    @Test
    void percentIsCappedBelowHundredUntilTheCopyIsDone() {
        assertThat(CopyProgressEstimator.percent(0, 1000, false)).isZero();
        assertThat(CopyProgressEstimator.percent(250, 1000, false)).isEqualTo(25.0);
        assertThat(CopyProgressEstimator.percent(1, 3, false)).isEqualTo(33.3);
        assertThat(CopyProgressEstimator.percent(1200, 1000, false)).as("an estimate that is too low").isEqualTo(99.9);
        assertThat(CopyProgressEstimator.percent(10, 0, false)).as("unknown total").isZero();
        assertThat(CopyProgressEstimator.percent(1200, 1000, true)).isEqualTo(100.0);
    }

    @Test
    void etaIsTheRowsLeftOverTheRate() {
        assertThat(CopyProgressEstimator.etaMs(400, 1000, 200.0, false)).isEqualTo(3_000L);
        assertThat(CopyProgressEstimator.etaMs(999, 1000, 3.0, false)).isEqualTo(334L);
        assertThat(CopyProgressEstimator.etaMs(1200, 1000, 100.0, false)).as("at least one row left").isEqualTo(10L);
        assertThat(CopyProgressEstimator.etaMs(400, 1000, 0.0, false)).as("throttled: unknown").isNull();
        assertThat(CopyProgressEstimator.etaMs(400, 1000, null, false)).isNull();
        assertThat(CopyProgressEstimator.etaMs(1000, 1000, null, true)).isZero();
    }

    @Test
    void aShardCountsItsEstimateWhileCopyingAndItsExactRowsOnceDone() {
        assertThat(CopyProgressEstimator.shardTotal(100, 1000, false)).isEqualTo(1000);
        assertThat(CopyProgressEstimator.shardTotal(1500, 1000, false)).isEqualTo(1500);
        assertThat(CopyProgressEstimator.shardTotal(980, 1000, true)).isEqualTo(980);
        assertThat(CopyProgressEstimator.shardTotal(5, -1, false)).isEqualTo(5);
    }

    @Test
    void theRateIsMeasuredOverTheSlidingWindow() {
        CopyProgressEstimator e = new CopyProgressEstimator(Duration.ofSeconds(10));
        CopyProgressEstimator.Estimate first = e.observe(0, 0, 10_000, false);
        assertThat(first.rowsPerSecond()).as("one sample: no rate yet").isNull();
        assertThat(first.etaMs()).isNull();
        e.observe(5 * SECOND, 5_000, 10_000, false); // 1000 rows/s
        CopyProgressEstimator.Estimate at10 = e.observe(10 * SECOND, 6_000, 10_000, false);
        assertThat(at10.rowsPerSecond()).isEqualTo(600.0);
        assertThat(at10.percent()).isEqualTo(60.0);
        assertThat(at10.etaMs()).isEqualTo(6_667L);
        // 20 s in: the samples at 0 and 5 s have left the window; the rate is that of the last 10 s
        e.observe(15 * SECOND, 6_500, 10_000, false);
        CopyProgressEstimator.Estimate at20 = e.observe(20 * SECOND, 8_000, 10_000, false);
        assertThat(at20.rowsPerSecond()).isEqualTo(200.0);
        assertThat(at20.etaMs()).isEqualTo(10_000L);
        assertThat(at20.describe()).isEqualTo("8000 of ~10000 rows (80.0%), 200 rows/s, ETA 10 s");
        CopyProgressEstimator.Estimate done = e.observe(21 * SECOND, 9_990, 9_990, true);
        assertThat(done.percent()).isEqualTo(100.0);
        assertThat(done.etaMs()).isZero();
        assertThat(done.rowsPerSecond()).isNull();
        assertThat(done.rowsTotal()).isEqualTo(9_990);
    }

    @Test
    void aCountThatGoesBackRestartsTheRate() {
        CopyProgressEstimator e = new CopyProgressEstimator(Duration.ofSeconds(10));
        e.observe(0, 5_000, 10_000, false);
        e.observe(SECOND, 6_000, 10_000, false);
        CopyProgressEstimator.Estimate again = e.observe(2 * SECOND, 100, 10_000, false);
        assertThat(again.rowsPerSecond()).isNull();
        assertThat(e.observe(3 * SECOND, 600, 10_000, false).rowsPerSecond()).isEqualTo(500.0);
    }

    @Test
    void theStatusRecordCarriesTheProgressAsOptionalFields() {
        StatusRecords records = new StatusRecords("status", "w", "online-ddl");
        StatusRecords.Progress p = new StatusRecords.Progress(null, "-80:MariaDB/0-1-5", 0L, 1, 400L, 1000L, 40.0,
                200.0, 3_000L, "copy throttled: why", 1_500L);
        Struct v = (Struct) records.record(WorkflowStatus.START, p).value();
        assertThat(v.getInt64("rows_copied")).isEqualTo(400L);
        assertThat(v.getInt64("rows_total")).isEqualTo(1000L);
        assertThat(v.getFloat64("progress_pct")).isEqualTo(40.0);
        assertThat(v.getFloat64("rows_per_second")).isEqualTo(200.0);
        assertThat(v.getInt64("eta_ms")).isEqualTo(3_000L);
        assertThat(v.getString("throttle_reason")).isEqualTo("copy throttled: why");
        assertThat(v.getInt64("lag_ms")).isEqualTo(1_500L);
        Struct none = (Struct) records.record(WorkflowStatus.START, StatusRecords.Progress.NONE).value();
        assertThat(none.getInt64("rows_copied")).isNull();
        assertThat(StatusRecords.SCHEMA.field("eta_ms").schema().isOptional()).isTrue();
        assertThat(StatusRecords.SCHEMA.field("progress_pct").schema().isOptional()).isTrue();
    }
}
