package io.vstream.connect.it;

import io.vstream.connect.core.position.GtidPosition;
import io.vstream.connect.testsupport.db.MariaDbServer;
import java.time.Duration;
import java.util.function.Supplier;

/**
 * Waits for a sink to have applied a source's changes: reads the position the applier recorded for one topic in its
 * target's {@code _vstream.applied} (the sink's state table, see docs/sink.md) until it holds the source's current
 * GTID position. Reads the target and the source; writes nothing.
 */
final class AppliedPosition {
    private final MariaDbServer target;
    private final String sinkName;
    private final String topic;
    private String last; // the position read last, null before the state exists

    AppliedPosition(MariaDbServer target, String sinkName, String topic) {
        this.target = target;
        this.sinkName = sinkName;
        this.topic = topic;
    }

    /** The source's current position, the one an applier that has caught up holds. */
    static GtidPosition currentOf(MariaDbServer source) {
        return GtidPosition.parse("MariaDB/" + source.gtidBinlogPos());
    }

    /** Whether the applied position holds {@code wanted} now; false while the target or its state is not there. */
    boolean holds(GtidPosition wanted) {
        try {
            last = target.queryString("_vstream", "SELECT position FROM applied WHERE stream = ? AND topic = ?",
                    sinkName, topic);
            return last != null && GtidPosition.parse(last).contains(wanted);
        } catch (RuntimeException e) {
            return false; // the target restarting, or the state not there yet
        }
    }

    /** The position read last, for messages. */
    String last() {
        return last;
    }

    /**
     * Waits until the applied position holds {@code source}'s current position; after {@code timeout} fails with
     * what it holds and {@code context} (e.g. the sink's status).
     */
    void await(MariaDbServer source, Duration timeout, Supplier<String> context) throws InterruptedException {
        GtidPosition wanted = currentOf(source);
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (holds(wanted)) {
                return;
            }
            Thread.sleep(500);
        }
        throw new AssertionError(target + " never applied " + topic + " up to " + wanted + "; it holds " + last + "; "
                + context.get());
    }
}
