package io.vstream.connect.coordinator;

import io.vstream.connect.jdbc.AppliedTable;

/**
 * How far an applier is behind what its source has read, in time: the age of the last record it applied (a COMMIT
 * carries its binlog event's time, a copy chunk the time it was read, a HEARTBEAT the time the source sent it). The
 * source sends a HEARTBEAT with its position whenever it has sent nothing for {@code heartbeat.interval.ms}: while
 * its tables are idle, while it reads other tables' changes, and while its copy waits on a throttle. So once the
 * applier has applied everything the source sent, this lag falls to at most about one heartbeat interval, whatever
 * the clock says, and a throttle decided on it always lifts. No I/O.
 */
final class ApplierLag {
    private ApplierLag() {
    }

    /** Milliseconds behind at {@code nowMs}, or {@code null} when the applier has applied nothing with a time yet. */
    static Long millis(AppliedTable.Row applied, long nowMs) {
        if (applied == null || applied.sourceTsMs() == null) {
            return null;
        }
        return Math.max(0, nowMs - applied.sourceTsMs());
    }

    /**
     * Whether an applier whose copy is done has caught up enough to hand off (the clone): within
     * {@code maxTransactions} server transactions of its source, or within {@code maxMillis} in time (a source busy
     * with transactions the stream does not carry is never within a small count, but its applier is current).
     */
    static boolean caughtUp(Long transactions, long maxTransactions, Long millis, long maxMillis) {
        return transactions != null && transactions <= maxTransactions || millis != null && millis <= maxMillis;
    }
}
