package io.vstream.connect.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * What a failing server does to the workflow ({@link ServerRetry}): an account refused fails it at once; other
 * failures are retried after doubling waits, the status saying so, until server.retry.max.ms, then it fails; a round
 * that succeeds starts over. Time is given in: no clock, no sleep.
 */
class ServerRetryTest {
    private static final long T0 = 1_000_000;
    private static final SQLException LOST = new SQLException("Connection refused", "08S01", 0);
    private static final WorkflowStatus CUTTING = new WorkflowStatus(WorkflowState.CUTTING_OVER, HandoffStep.CHECKSUM,
            1, null);

    /** poll.interval.ms 1000 (the first wait 2 s), server.retry.max.ms 60000. */
    private final ServerRetry retry = new ServerRetry(Duration.ofSeconds(1), Duration.ofSeconds(60));

    @Test
    void anAccountTheServerRefusesFailsTheWorkflowAtOnce() {
        ServerRetry.Outcome o = retry.failed(CUTTING, new SQLException("Access denied for user 'vsc'@'%'", "28000",
                1045), T0);
        assertThat(o.fails()).isTrue();
        assertThat(o.status().state()).isEqualTo(WorkflowState.FAILED);
        assertThat(o.status().step()).isEqualTo(HandoffStep.CHECKSUM);
        assertThat(o.status().reason()).startsWith("a server refused the coordinator's account: Access denied for"
                + " user 'vsc'@'%' (error 1045); fix the password");
        assertThat(retry.due(T0)).isTrue();
    }

    @Test
    void aFailingServerIsRetriedAfterDoublingWaitsAndTheStatusSaysSo() {
        ServerRetry.Outcome o = retry.failed(CUTTING, LOST, T0);
        assertThat(o).isEqualTo(new ServerRetry.Outcome(new WorkflowStatus(WorkflowState.CUTTING_OVER,
                HandoffStep.CHECKSUM, 1, "waiting for a server (attempt 1, the workflow fails after 60 s):"
                + " Connection refused"), false, 1, 2_000));
        assertThat(retry.due(T0 + 1_999)).isFalse();
        assertThat(retry.due(T0 + 2_000)).isTrue();
        assertThat(retry.failed(CUTTING, LOST, T0 + 2_000).waitMs()).isEqualTo(4_000);
        assertThat(retry.failed(CUTTING, LOST, T0 + 6_000).waitMs()).isEqualTo(8_000);
        assertThat(retry.failed(CUTTING, LOST, T0 + 14_000).waitMs()).isEqualTo(16_000);
        ServerRetry.Outcome fifth = retry.failed(CUTTING, LOST, T0 + 30_000);
        assertThat(fifth.waitMs()).isEqualTo(ServerRetry.MAX_BACKOFF_MS);
        assertThat(fifth.attempt()).isEqualTo(5);
    }

    @Test
    void aWorkflowWaitingOnItsConnectorsKeepsWaitingWhileItsServerFails() {
        WorkflowStatus stalled = new WorkflowStatus(WorkflowState.COPYING, null, 0, null)
                .waitingOnConnectors(WorkflowState.STALLED, "paused");
        assertThat(retry.failed(stalled, LOST, T0).status().resume()).isEqualTo(WorkflowState.COPYING);
    }

    @Test
    void aServerThatFailsLongerThanTheLimitFailsTheWorkflowWithTheLastError() {
        retry.failed(CUTTING, LOST, T0);
        assertThat(retry.failed(CUTTING, LOST, T0 + 59_999).fails()).isFalse();
        ServerRetry.Outcome o = retry.failed(CUTTING, new SQLException("Unknown host 'db1'", "08S01", 0), T0 + 60_000);
        assertThat(o.fails()).isTrue();
        assertThat(o.status()).isEqualTo(new WorkflowStatus(WorkflowState.FAILED, HandoffStep.CHECKSUM, 1,
                "a server failed for 60 s (3 attempts; server.retry.max.ms=60000): Unknown host 'db1'"));
    }

    @Test
    void aRoundThatSucceedsStartsTheCountAndTheWaitsOver() {
        retry.failed(CUTTING, LOST, T0);
        retry.failed(CUTTING, LOST, T0 + 50_000);
        retry.succeeded();
        ServerRetry.Outcome o = retry.failed(CUTTING, LOST, T0 + 70_000);
        assertThat(o.fails()).isFalse();
        assertThat(o.attempt()).isEqualTo(1);
        assertThat(o.waitMs()).isEqualTo(2_000);
        assertThat(retry.failed(CUTTING, LOST, T0 + 129_999).fails()).isFalse();
        assertThat(retry.failed(CUTTING, LOST, T0 + 130_000).fails()).isTrue();
    }

    @Test
    void aShortPollIntervalWaitsTwiceItAndALongOneAtMostTheLongestWait() {
        assertThat(new ServerRetry(Duration.ofMillis(200), Duration.ofMinutes(5)).failed(CUTTING, LOST, T0).waitMs())
                .isEqualTo(400);
        assertThat(new ServerRetry(Duration.ofMinutes(1), Duration.ofMinutes(5)).failed(CUTTING, LOST, T0).waitMs())
                .isEqualTo(ServerRetry.MAX_BACKOFF_MS);
    }
}
