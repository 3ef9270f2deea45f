package io.vstream.connect.bench;

import io.vstream.connect.local.load.LoadStats;
import io.vstream.connect.local.load.LoadTransaction;
import java.util.List;

/**
 * The write load of one ddl run, over the run's window only (the load starts with the run and stops when it ends):
 * how many transactions committed, how many failed, and the latency of a write transaction from its first statement
 * to the commit acknowledgement. For "us" it also carries the cut-over's write-block time as the coordinator
 * measured it. Touches nothing.
 *
 * @param seconds         how long the load ran
 * @param commits         acknowledged transactions
 * @param failed          transactions that failed (errors), whose COMMIT outcome is unknown, or that met a row state
 *                        the load's model did not expect: every one is a failed write
 * @param p50Ms           median transaction latency, ms
 * @param p99Ms           99th percentile transaction latency, ms
 * @param maxMs           the slowest acknowledged transaction, ms
 * @param slow            acknowledged transactions that took {@value #SLOW_MS} ms or more: a count that does not
 *                        depend on how long the window is (a percentile does)
 * @param firstError      the load's first error message, or null
 * @param cutOverAttempts cut-over attempts the coordinator logged (us only; 0 otherwise)
 * @param blockMs         the longest write block of one cut-over attempt, ms (LOCK TABLES acquired to UNLOCK TABLES
 *                        returned), or NaN when not measured
 * @param blockTotalMs    the write blocks of all attempts added up, ms, or NaN
 */
record WriteWindow(double seconds, long commits, long failed, double p50Ms, double p99Ms, double maxMs, long slow,
                   String firstError, int cutOverAttempts, double blockMs, double blockTotalMs) {
    static final long SLOW_MS = 100;

    static WriteWindow of(LoadStats stats, List<LoadTransaction> committed) {
        long slow = committed.stream().filter(t -> t.thread() >= 0) // not a preload batch
                .filter(t -> t.durationNanos() >= SLOW_MS * 1_000_000L).count();
        return new WriteWindow(stats.elapsed().toNanos() / 1e9, stats.commits(),
                stats.errors() + stats.unknownOutcomes() + stats.mismatches(),
                stats.transactionP50().toNanos() / 1e6, stats.transactionP99().toNanos() / 1e6,
                stats.transactionMax().toNanos() / 1e6, slow, stats.firstError(), 0, Double.NaN, Double.NaN);
    }

    WriteWindow withCutOver(CutOverLog.Blocks blocks) {
        return new WriteWindow(seconds, commits, failed, p50Ms, p99Ms, maxMs, slow, firstError, blocks.attempts(),
                blocks.maxMs(), blocks.totalMs());
    }

    /** "n writes failed (first: ...)", or "" when none did. */
    String failures() {
        if (failed == 0) {
            return "";
        }
        return failed + " write(s) failed" + (firstError == null ? "" : " (first: " + firstError + ")");
    }

    double commitsPerSecond() {
        return seconds > 0 ? commits / seconds : Double.NaN;
    }
}
