package io.vstream.connect.coordinator;

import io.vstream.connect.core.error.Backoff;
import io.vstream.connect.core.error.ErrorClassifier;
import java.sql.SQLException;
import java.time.Duration;

/**
 * Decides what a round that a server failed does to the workflow: an account the server refuses fails it at once (no
 * retry can help); anything else is retried after a doubling wait (from twice {@code poll.interval.ms} up to
 * {@value #MAX_BACKOFF_MS} ms) for at most {@code server.retry.max.ms}, the published status saying that it waits for
 * a server, then the workflow fails with the last error. A round that succeeds starts the count over. Deciding only;
 * the time is given in.
 */
final class ServerRetry {
    static final long MAX_BACKOFF_MS = 30_000;

    /**
     * What a failed round leads to: when {@code fails}, the workflow moves to {@code status} (FAILED); else
     * {@code status} (its state unchanged, the reason saying why it waits) is published, and the next round runs
     * after {@code waitMs}, the {@code attempt}th retry.
     */
    record Outcome(WorkflowStatus status, boolean fails, int attempt, long waitMs) {
    }

    private final Backoff backoff;
    private final long limitMs;
    private long troubleSince; // when the first of the failures in a row happened; 0: none
    private int troubles;
    private long retryAt;

    ServerRetry(Duration pollInterval, Duration retryMax) {
        this.backoff = new Backoff(Math.min(MAX_BACKOFF_MS, 2 * pollInterval.toMillis()), MAX_BACKOFF_MS);
        this.limitMs = retryMax.toMillis();
    }

    /** Whether a round may run at {@code now}: not while it waits after a failure. */
    boolean due(long now) {
        return now >= retryAt;
    }

    /** A round succeeded: the next failure is the first again. */
    void succeeded() {
        troubleSince = 0;
        troubles = 0;
        backoff.succeeded();
    }

    /** A round in {@code status} failed with {@code e} at {@code now}. */
    Outcome failed(WorkflowStatus status, SQLException e, long now) {
        if (ErrorClassifier.isAccessDenied(e)) {
            return new Outcome(status.failed("a server refused the coordinator's account: " + e.getMessage()
                    + " (error " + e.getErrorCode() + "); fix the password, or grant what the server names to the"
                    + " account it names (docs/grants.md lists every workflow's grants), then deploy the workflow"
                    + " again"), true, troubles, 0);
        }
        if (troubleSince == 0) {
            troubleSince = now;
        }
        troubles++;
        if (now - troubleSince >= limitMs) {
            return new Outcome(status.failed("a server failed for " + (now - troubleSince) / 1000 + " s (" + troubles
                    + " attempts; server.retry.max.ms=" + limitMs + "): " + e.getMessage()), true, troubles, 0);
        }
        long wait = backoff.failed();
        retryAt = now + wait;
        return new Outcome(new WorkflowStatus(status.state(), status.step(), status.attempts(), "waiting for a server"
                + " (attempt " + troubles + ", the workflow fails after " + limitMs / 1000 + " s): " + e.getMessage(),
                status.resume()), false, troubles, wait);
    }
}
