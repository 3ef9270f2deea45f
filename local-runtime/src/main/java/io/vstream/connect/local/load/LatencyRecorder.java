package io.vstream.connect.local.load;

import java.time.Duration;
import java.util.Arrays;

/**
 * Keeps every recorded latency (8 bytes each) and answers exact percentiles. Thread-safe; touches no server.
 */
final class LatencyRecorder {

    private long[] nanos = new long[1024];
    private int size;

    synchronized void record(long latencyNanos) {
        if (size == nanos.length) {
            nanos = Arrays.copyOf(nanos, size * 2);
        }
        nanos[size++] = latencyNanos;
    }

    /** Sorted copy of everything recorded so far. */
    synchronized long[] sorted() {
        long[] copy = Arrays.copyOf(nanos, size);
        Arrays.sort(copy);
        return copy;
    }

    /** The nearest-rank percentile ({@code 0 < p <= 100}) of sorted values; zero when there are none. */
    static Duration percentile(long[] sorted, double p) {
        if (sorted.length == 0) {
            return Duration.ZERO;
        }
        int rank = (int) Math.ceil(p / 100.0 * sorted.length);
        return Duration.ofNanos(sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]);
    }
}
