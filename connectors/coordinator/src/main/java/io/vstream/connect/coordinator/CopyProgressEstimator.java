package io.vstream.connect.coordinator;

import java.util.ArrayDeque;
import java.util.Locale;

/**
 * The progress of an online-DDL copy from what the coordinator reads each round: the rows copied (exact: the appliers
 * count them in the same transaction as each chunk), the total (the servers' estimate of the table's rows while a
 * shard copies; exactly the rows copied once its copy has completed), the percent, the rate over a sliding window and
 * the ETA. Arithmetic only; touches no server.
 */
final class CopyProgressEstimator {
    /** One round's figures; {@code rowsPerSecond} and {@code etaMs} are null while unknown (no rate measured yet). */
    record Estimate(long rowsCopied, long rowsTotal, double percent, Double rowsPerSecond, Long etaMs) {
        String describe() {
            return String.format(Locale.ROOT, "%d of ~%d rows (%.1f%%), %s rows/s, ETA %s", rowsCopied, rowsTotal,
                    percent, rowsPerSecond == null ? "?" : String.valueOf(Math.round(rowsPerSecond)),
                    etaMs == null ? "unknown" : etaMs / 1000 + " s");
        }
    }

    private final long windowNanos;
    private final ArrayDeque<long[]> samples = new ArrayDeque<>(); // {nanos, rows copied}

    CopyProgressEstimator(java.time.Duration window) {
        this.windowNanos = window.toNanos();
    }

    /**
     * Adds this round's observation: {@code copied} rows copied so far, {@code total} the (estimated) total, and
     * whether every shard's copy has completed.
     */
    Estimate observe(long nowNanos, long copied, long total, boolean done) {
        if (!samples.isEmpty() && samples.peekLast()[1] > copied) {
            samples.clear(); // the count went back (a copy started over): the old rate means nothing
        }
        samples.addLast(new long[] {nowNanos, copied});
        while (samples.size() > 2 && nowNanos - samples.peekFirst()[0] > windowNanos) {
            samples.removeFirst();
        }
        Double rate = done ? null : rate(samples.peekFirst(), samples.peekLast());
        return new Estimate(copied, Math.max(total, copied), percent(copied, total, done), rate,
                etaMs(copied, total, rate, done));
    }

    /** Rows per second between two samples; null when they are the same instant or the same sample. */
    static Double rate(long[] first, long[] last) {
        if (first == null || last == null || last[0] <= first[0]) {
            return null;
        }
        return (last[1] - first[1]) * 1e9 / (last[0] - first[0]);
    }

    /**
     * Percent copied, one decimal: 100 when done, else copied / total, at most 99.9 (an estimate that is too low never
     * shows a copy that still runs as finished), 0 when the total is unknown.
     */
    static double percent(long copied, long total, boolean done) {
        if (done) {
            return 100.0;
        }
        if (total <= 0) {
            return 0.0;
        }
        double p = Math.floor(copied * 1000.0 / total) / 10.0;
        return Math.min(99.9, Math.max(0.0, p));
    }

    /**
     * Milliseconds left at {@code rowsPerSecond}: 0 when done, null while the rate is unknown or zero (a throttled
     * copy), else the rows still to copy (at least one) over the rate.
     */
    static Long etaMs(long copied, long total, Double rowsPerSecond, boolean done) {
        if (done) {
            return 0L;
        }
        if (rowsPerSecond == null || rowsPerSecond <= 0) {
            return null;
        }
        long left = Math.max(1, total - copied);
        return (long) Math.ceil(left * 1000.0 / rowsPerSecond);
    }

    /**
     * A shard's share of the total: the rows it copied once its copy has completed, else the server's estimate (or
     * the rows copied so far, when that is more).
     */
    static long shardTotal(long copied, long estimate, boolean done) {
        return done ? copied : Math.max(copied, Math.max(0, estimate));
    }
}
