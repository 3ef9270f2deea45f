package io.vstream.connect.local.load;

import java.time.Duration;

/**
 * Counters and commit latencies of a {@link WriteLoad} so far.
 *
 * @param commits           acknowledged commits
 * @param unknownOutcomes   commits whose connection was lost during COMMIT
 * @param errors            failed transactions that certainly did not commit (connection errors included)
 * @param mismatches        statements that met a row state the model did not expect (should be 0)
 * @param inserts           inserted rows in acknowledged commits
 * @param updates           updated rows in acknowledged commits
 * @param deletes           deleted rows in acknowledged commits
 * @param elapsed           time since start (until stop once stopped)
 * @param commitP50         median COMMIT latency
 * @param commitP99         99th percentile COMMIT latency
 * @param commitMax         slowest COMMIT
 * @param transactionP50    median latency from first statement to commit acknowledgement
 * @param transactionP99    99th percentile of the same
 * @param transactionMax    the slowest acknowledged transaction, from first statement to acknowledgement
 * @param firstError        the first error message, or null
 */
public record LoadStats(long commits, long unknownOutcomes, long errors, long mismatches, long inserts,
                        long updates, long deletes, Duration elapsed, Duration commitP50, Duration commitP99,
                        Duration commitMax, Duration transactionP50, Duration transactionP99, Duration transactionMax,
                        String firstError) {

    /** Acknowledged commits per second of elapsed time. */
    public double commitsPerSecond() {
        return elapsed.isZero() ? 0 : commits * 1e9 / elapsed.toNanos();
    }

    @Override
    public String toString() {
        return String.format(java.util.Locale.ROOT,
                "%d commits (%.1f/s), %d unknown, %d errors, %d mismatches; rows +%d ~%d -%d; "
                        + "commit p50 %.2f ms p99 %.2f ms max %.2f ms; transaction p50 %.2f ms p99 %.2f ms max %.2f ms%s",
                commits, commitsPerSecond(), unknownOutcomes, errors, mismatches, inserts, updates, deletes,
                millis(commitP50), millis(commitP99), millis(commitMax), millis(transactionP50),
                millis(transactionP99), millis(transactionMax), firstError == null ? "" : "; first error: " + firstError);
    }

    private static double millis(Duration duration) {
        return duration.toNanos() / 1e6;
    }
}
