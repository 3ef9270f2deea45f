package io.vstream.connect.sink;

/**
 * How often the sink task reads the coordinator's control rows. The coordinator's commands come in bursts (a checksum
 * slice's PAUSE, STOP_AT and RUN, then the cut-over's STOP_AT while the application's writes are blocked), and every
 * read that comes late in a burst adds to a hold or to the cut-over's write block. So the task reads every
 * {@value #QUIET_MS} ms while nothing happens, and every {@value #BUSY_MS} ms for {@value #BUSY_WINDOW_MS} ms after a
 * command changed or a partition stopped (the next command of the burst is coming; a partition held longer, e.g. a
 * postponed hand-off, is read at the quiet pace again). Time is passed in (ms), nothing else is read: arithmetic.
 */
final class ControlCadence {
    static final long QUIET_MS = 100;
    static final long BUSY_MS = 20;
    static final long BUSY_WINDOW_MS = 10_000;

    private long busyUntil = Long.MIN_VALUE;
    private long next;

    /** Whether the control is due at {@code now}; when it is, the next read is scheduled. */
    boolean due(long now) {
        if (now < next) {
            return false;
        }
        next = now + interval(now);
        return true;
    }

    /** A command changed, or a partition stopped, at {@code now}: read often for a while. */
    void changed(long now) {
        busyUntil = now + BUSY_WINDOW_MS;
        next = Math.min(next, now + BUSY_MS);
    }

    /** The next read is due at once (a partition was assigned or rewound). */
    void readNow() {
        next = 0;
    }

    /** How long the worker may wait before it calls the task again. */
    long interval(long now) {
        return now < busyUntil ? BUSY_MS : QUIET_MS;
    }
}
