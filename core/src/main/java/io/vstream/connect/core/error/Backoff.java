package io.vstream.connect.core.error;

import java.time.Duration;

/**
 * The one retry pace of every component: the wait before the next attempt starts at {@code initial} and doubles after
 * each failure up to {@code max}; a success starts it over. What is retried at all is {@link ErrorClassifier}'s call.
 * Not thread-safe (one per retry loop); touches nothing.
 */
public final class Backoff {
    private final long initialMs;
    private final long maxMs;
    private long nextMs;
    private int failures;

    public Backoff(Duration initial, Duration max) {
        this(initial.toMillis(), max.toMillis());
    }

    /** {@code maxMs} below {@code initialMs} is taken as {@code initialMs} (every wait is then the same). */
    public Backoff(long initialMs, long maxMs) {
        if (initialMs <= 0) {
            throw new IllegalArgumentException("a backoff's first wait must be positive, not " + initialMs + " ms");
        }
        this.initialMs = initialMs;
        this.maxMs = Math.max(initialMs, maxMs);
        this.nextMs = initialMs;
    }

    /** The wait before the next attempt, after one more failure: initial, then twice the last, up to max. */
    public long failed() {
        long wait = nextMs;
        nextMs = Math.min(maxMs, nextMs * 2);
        failures++;
        return wait;
    }

    /** Failures since the last success. */
    public int failures() {
        return failures;
    }

    /** An attempt succeeded: the next failure waits {@code initial} again. */
    public void succeeded() {
        nextMs = initialMs;
        failures = 0;
    }
}
