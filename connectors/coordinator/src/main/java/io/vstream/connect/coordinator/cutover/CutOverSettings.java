package io.vstream.connect.coordinator.cutover;

import java.time.Duration;
import java.util.Objects;

/**
 * The cut-over's timeouts and retry policy. Every wait of the algorithm is bounded by one of them; the time writes
 * on the table can be blocked by one attempt is at most {@code lockWaitTimeout + applierTimeout +
 * metadataLockTimeout + renameLockWaitTimeout} plus a few round trips, and a coordinator that freezes while holding
 * the lock is cut off by the server after {@link #lockHolderIdleTimeoutSeconds()}. MySQL and MariaDB take
 * {@code lock_wait_timeout} in whole seconds: durations are rounded up. Touches no server.
 *
 * @param lockWaitTimeout        connection A's {@code lock_wait_timeout} for {@code LOCK TABLES} (step 2); while A
 *                               waits, new writes on the table queue behind it
 * @param applierTimeout         how long step 3 waits for the applier to reach the position read under the lock
 * @param metadataLockTimeout    how long step 5 waits to see the RENAME waiting on the metadata lock
 * @param renameLockWaitTimeout  connection B's {@code lock_wait_timeout} for the RENAME; must outlast steps 5 and 6
 * @param maxAttempts            attempts per shard before the cut-over gives up (at least 1)
 * @param initialBackoff         pause after the first failed attempt; doubles after each failure
 * @param maxBackoff             the longest pause between attempts
 */
public record CutOverSettings(Duration lockWaitTimeout, Duration applierTimeout, Duration metadataLockTimeout,
                              Duration renameLockWaitTimeout, int maxAttempts, Duration initialBackoff,
                              Duration maxBackoff) {

    /** Margin of B's lock_wait_timeout over the wait for it to show up, covering step 6's two statements. */
    static final Duration RENAME_MARGIN = Duration.ofSeconds(2);

    /** gh-ost's 3 s lock timeout, 3 s for the applier, 2 s to see the RENAME wait, 5 attempts, 1 s to 30 s backoff. */
    public static final CutOverSettings DEFAULTS = new CutOverSettings(Duration.ofSeconds(3), Duration.ofSeconds(3),
            Duration.ofSeconds(2), Duration.ofSeconds(8), 5, Duration.ofSeconds(1), Duration.ofSeconds(30));

    public CutOverSettings {
        requirePositive(lockWaitTimeout, "lockWaitTimeout");
        requirePositive(applierTimeout, "applierTimeout");
        requirePositive(metadataLockTimeout, "metadataLockTimeout");
        requirePositive(renameLockWaitTimeout, "renameLockWaitTimeout");
        requirePositive(initialBackoff, "initialBackoff");
        requirePositive(maxBackoff, "maxBackoff");
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("maxAttempts is " + maxAttempts + "; the cut-over needs at least 1");
        }
        if (seconds(renameLockWaitTimeout) < seconds(metadataLockTimeout.plus(RENAME_MARGIN))) {
            throw new IllegalArgumentException("renameLockWaitTimeout (" + renameLockWaitTimeout + ") must exceed "
                    + "metadataLockTimeout (" + metadataLockTimeout + ") by at least " + RENAME_MARGIN.toSeconds()
                    + " s: the RENAME must still be waiting when step 6 unlocks, else it times out and the attempt"
                    + " fails after the lock was released; raise renameLockWaitTimeout");
        }
        if (maxBackoff.compareTo(initialBackoff) < 0) {
            throw new IllegalArgumentException("maxBackoff (" + maxBackoff + ") is shorter than initialBackoff ("
                    + initialBackoff + ")");
        }
    }

    public CutOverSettings withLockWaitTimeout(Duration d) {
        return new CutOverSettings(d, applierTimeout, metadataLockTimeout, renameLockWaitTimeout, maxAttempts,
                initialBackoff, maxBackoff);
    }

    public CutOverSettings withApplierTimeout(Duration d) {
        return new CutOverSettings(lockWaitTimeout, d, metadataLockTimeout, renameLockWaitTimeout, maxAttempts,
                initialBackoff, maxBackoff);
    }

    public CutOverSettings withMetadataLockTimeout(Duration d) {
        return new CutOverSettings(lockWaitTimeout, applierTimeout, d, renameLockWaitTimeout, maxAttempts,
                initialBackoff, maxBackoff);
    }

    public CutOverSettings withRenameLockWaitTimeout(Duration d) {
        return new CutOverSettings(lockWaitTimeout, applierTimeout, metadataLockTimeout, d, maxAttempts,
                initialBackoff, maxBackoff);
    }

    public CutOverSettings withRetries(int attempts, Duration initial, Duration max) {
        return new CutOverSettings(lockWaitTimeout, applierTimeout, metadataLockTimeout, renameLockWaitTimeout,
                attempts, initial, max);
    }

    /** The pause before attempt {@code attempt + 1} after attempt {@code attempt} (1-based) failed. */
    public Duration backoffAfter(int attempt) {
        Duration pause = initialBackoff;
        for (int i = 1; i < attempt && pause.compareTo(maxBackoff) < 0; i++) {
            pause = pause.multipliedBy(2);
        }
        return pause.compareTo(maxBackoff) > 0 ? maxBackoff : pause;
    }

    /**
     * Connection A's {@code wait_timeout} while it holds the lock: A is idle during steps 3 to 5, so the server
     * disconnects it (releasing the lock; the RENAME then fails on the sentry) if the coordinator freezes.
     */
    public long lockHolderIdleTimeoutSeconds() {
        return seconds(applierTimeout.plus(metadataLockTimeout)) + 5;
    }

    /** {@code d} in whole seconds, rounded up, at least 1, as {@code lock_wait_timeout} takes it. */
    static long seconds(Duration d) {
        long s = d.getSeconds() + (d.getNano() > 0 ? 1 : 0);
        return Math.max(1, s);
    }

    private static void requirePositive(Duration d, String name) {
        Objects.requireNonNull(d, name);
        if (d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(name + " must be positive, was " + d);
        }
    }
}
