package io.vstream.connect.bench;

import java.util.ArrayList;
import java.util.List;

/**
 * Items counted over time in fixed buckets from a start, for the throughput plots: how many items arrived in each
 * {@link #BUCKET_MS} ms after the start. Thread-safe. Touches nothing.
 */
final class Timeline {
    static final long BUCKET_MS = 100;

    private long startNanos;
    private final List<Long> buckets = new ArrayList<>();

    synchronized void start(long nanos) {
        startNanos = nanos;
        buckets.clear();
    }

    /** {@code n} items at {@code nanos} (System.nanoTime()). */
    synchronized void add(long nanos, long n) {
        addAtMs((nanos - startNanos) / 1_000_000, n);
    }

    /** {@code n} items {@code ms} milliseconds after the start. */
    synchronized void addAtMs(long ms, long n) {
        if (ms < 0) {
            ms = 0;
        }
        int i = (int) (ms / BUCKET_MS);
        while (buckets.size() <= i) {
            buckets.add(0L);
        }
        buckets.set(i, buckets.get(i) + n);
    }

    /** Seconds from the start of each bucket's end. */
    synchronized List<Double> seconds() {
        List<Double> out = new ArrayList<>();
        for (int i = 0; i < buckets.size(); i++) {
            out.add((i + 1) * BUCKET_MS / 1000.0);
        }
        return out;
    }

    /** Items per second in each bucket. */
    synchronized List<Double> ratePerSecond() {
        List<Double> out = new ArrayList<>();
        for (long b : buckets) {
            out.add(b * 1000.0 / BUCKET_MS);
        }
        return out;
    }

    synchronized boolean isEmpty() {
        return buckets.isEmpty();
    }
}
