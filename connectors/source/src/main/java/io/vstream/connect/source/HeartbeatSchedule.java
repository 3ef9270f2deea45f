package io.vstream.connect.source;

import java.time.Duration;

/**
 * When a shard's stream owes its consumers a HEARTBEAT: as soon as the stream has its start position and has emitted
 * nothing yet (an online ALTER's copy waits for the applier's first position, which could otherwise come a heartbeat
 * interval later on a shard where nothing is written), after a heartbeat interval in which nothing was emitted, and
 * at once when the server says its binlog is idle while transactions the stream skipped (tables it does not stream)
 * have moved the position past the last record emitted, at most once per idle spell. Pure: the caller tells it what
 * was emitted and when, and asks with the time it reads.
 */
final class HeartbeatSchedule {
    private final long intervalNanos;
    private long lastEmitNanos;
    // skipped transactions moved the position past the last record emitted
    private boolean positionUntold;

    HeartbeatSchedule(Duration interval, long nowNanos) {
        this.intervalNanos = interval.toNanos();
        this.lastEmitNanos = nowNanos - intervalNanos; // due at once: nothing emitted yet
    }

    /** A record was emitted at {@code nowNanos}: a boundary (not an abort marker) tells its position. */
    void emitted(QueuedRecord r, long nowNanos) {
        lastEmitNanos = nowNanos;
        if (r.boundary() && !r.abort()) {
            positionUntold = false;
        }
    }

    /** A transaction without records moved the position. */
    void positionMovedSilently() {
        positionUntold = true;
    }

    /** Whether a HEARTBEAT is due at {@code nowNanos}; {@code idle}: the server just said its binlog is idle. */
    boolean due(boolean idle, long nowNanos) {
        return idle && positionUntold || nowNanos - lastEmitNanos >= intervalNanos;
    }
}
