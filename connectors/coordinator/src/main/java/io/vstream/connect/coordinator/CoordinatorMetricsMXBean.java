package io.vstream.connect.coordinator;

/**
 * The JMX view of one workflow ({@code io.vstream.connect:type=coordinator,workflow=...}): what its last status record
 * says, as numbers (-1 where the record has no value). {@code StateCode} numbers the states in their order
 * (docs/monitoring.md lists them); {@code State} and {@code ThrottleReason} are for labels.
 */
public interface CoordinatorMetricsMXBean {
    String getState();

    /**
     * CREATED 0, COPYING 1, CATCHING_UP 2, READY 3, POSTPONED 4, CUTTING_OVER 5, STALLED 6, COMPLETE 7, CANCELLED 8,
     * FAILED 9, REVERTIBLE 10, REVERTING 11, REVERTED 12.
     */
    int getStateCode();

    long getRowsCopied();

    long getRowsTotalEstimate();

    double getProgressPercent();

    double getRowsPerSecond();

    long getEtaMs();

    /** How far the slowest applier is behind what its source has read, in milliseconds. */
    long getLagMs();

    long getLagTransactions();

    int getTablesCopying();

    boolean getThrottled();

    /**
     * Why the copy waits, as a few fixed words for a label: {@code applier_lag}, {@code replica_lag}, {@code paused},
     * {@code other}; {@code none} when it does not (the status record has the full reason).
     */
    String getThrottleKind();

    /** Failed cut-over (or hand-off) attempts so far. */
    int getCutOverAttempts();

    /** How long the last cut-over blocked writes on its table (the longest shard), or -1 before one. */
    long getLastCutOverWriteBlockMs();

    /** Differences the last on-demand diff found (-1: no diff yet). */
    long getDiffDifferences();

    /** The last on-demand diff's state (RUNNING, EQUAL, DIFFERENT, FAILED), or {@code none}. */
    String getDiffState();
}
