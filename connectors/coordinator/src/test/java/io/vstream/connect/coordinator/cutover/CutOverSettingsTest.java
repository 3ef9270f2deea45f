package io.vstream.connect.coordinator.cutover;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Timeouts, the RENAME's margin, backoff and the result's summary, without a server. */
class CutOverSettingsTest {

    @Test
    void lockTimeoutsAreWholeSecondsRoundedUp() {
        assertThat(CutOverSettings.seconds(Duration.ofMillis(1))).isEqualTo(1);
        assertThat(CutOverSettings.seconds(Duration.ofMillis(2500))).isEqualTo(3);
        assertThat(CutOverSettings.seconds(Duration.ofSeconds(4))).isEqualTo(4);
    }

    @Test
    void theRenameMustOutwaitTheChecksBeforeTheUnlock() {
        assertThatThrownBy(() -> CutOverSettings.DEFAULTS.withRenameLockWaitTimeout(Duration.ofSeconds(3)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("renameLockWaitTimeout");
        assertThat(CutOverSettings.DEFAULTS.withRenameLockWaitTimeout(Duration.ofSeconds(4))
                .renameLockWaitTimeout()).isEqualTo(Duration.ofSeconds(4));
    }

    @Test
    void backoffDoublesUpToTheMaximum() {
        CutOverSettings s = CutOverSettings.DEFAULTS.withRetries(10, Duration.ofSeconds(1), Duration.ofSeconds(5));
        assertThat(s.backoffAfter(1)).isEqualTo(Duration.ofSeconds(1));
        assertThat(s.backoffAfter(2)).isEqualTo(Duration.ofSeconds(2));
        assertThat(s.backoffAfter(3)).isEqualTo(Duration.ofSeconds(4));
        assertThat(s.backoffAfter(4)).isEqualTo(Duration.ofSeconds(5));
        assertThat(s.backoffAfter(60)).isEqualTo(Duration.ofSeconds(5));
    }

    @Test
    void invalidSettingsAreRefused() {
        assertThatThrownBy(() -> CutOverSettings.DEFAULTS.withRetries(0, Duration.ofSeconds(1),
                Duration.ofSeconds(1))).hasMessageContaining("maxAttempts");
        assertThatThrownBy(() -> CutOverSettings.DEFAULTS.withLockWaitTimeout(Duration.ZERO))
                .hasMessageContaining("lockWaitTimeout");
    }

    @Test
    void aFrozenLockHolderIsCutOffAfterTheIdleTimeout() {
        assertThat(CutOverSettings.DEFAULTS.lockHolderIdleTimeoutSeconds()).isEqualTo(3 + 2 + 5);
    }

    @Test
    void resultSummaryNamesOutcomeTimesAndReason() {
        CutOverResult swapped = new CutOverResult("-80", CutOverResult.Outcome.SWAPPED, 2, "t_old", "MariaDB/0-1-5",
                Map.of(), Duration.ofMillis(40), Duration.ofMillis(3), null);
        assertThat(swapped.summary()).isEqualTo("shard -80 attempt 2: SWAPPED, writes blocked 40 ms, rename 3 ms after"
                + " unlock, original kept as t_old");
        CutOverResult aborted = new CutOverResult("80-", CutOverResult.Outcome.ABORTED, 1, null, null, Map.of(),
                null, null, "the applier is behind");
        assertThat(aborted.retriable()).isTrue();
        assertThat(aborted.summary()).isEqualTo("shard 80- attempt 1: ABORTED: the applier is behind");
    }
}
