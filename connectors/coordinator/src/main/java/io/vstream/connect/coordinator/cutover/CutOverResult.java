package io.vstream.connect.coordinator.cutover;

import java.time.Duration;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;

/**
 * What one cut-over attempt on one shard did, as the server showed it afterwards (never assumed from a statement's
 * return alone). Touches no server.
 *
 * @param shard         the shard's name
 * @param outcome       swapped, aborted (retriable), failed (an operator must act) or unknown (check by hand)
 * @param attempt       the attempt's number, from 1
 * @param oldTable      the name the original table has after a swap (and the sentry had); null if never chosen
 * @param position      the GTID position read under the lock (flavored), null if the attempt did not get there
 * @param stepDurations how long each step that ran took, in step order
 * @param writeBlock    from LOCK TABLES acquired to UNLOCK TABLES returned: how long writes on the table waited
 *                      (zero if the lock was never taken)
 * @param renameLatency from UNLOCK TABLES returned to the RENAME returned (zero if no RENAME completed)
 * @param reason        why the attempt did not swap (or what was odd about a swap); null for a clean swap
 */
public record CutOverResult(String shard, Outcome outcome, int attempt, String oldTable, String position,
                            Map<CutOverStep, Duration> stepDurations, Duration writeBlock, Duration renameLatency,
                            String reason) {

    /** How an attempt ended. */
    public enum Outcome {
        /** The ghost table is now the table; the original is kept under {@link #oldTable()} for a revert. */
        SWAPPED,
        /** Nothing changed (the original table is in place, sentry gone, lock released); a retry may succeed. */
        ABORTED,
        /** Nothing changed, but retrying cannot help until an operator fixes the cause the reason names. */
        FAILED,
        /** The server could not tell whether the swap happened; an operator must look before anything else runs. */
        UNKNOWN
    }

    public CutOverResult {
        Objects.requireNonNull(shard, "shard");
        Objects.requireNonNull(outcome, "outcome");
        stepDurations = Collections.unmodifiableMap(stepDurations.isEmpty()
                ? new EnumMap<>(CutOverStep.class) : new EnumMap<>(stepDurations));
        writeBlock = writeBlock == null ? Duration.ZERO : writeBlock;
        renameLatency = renameLatency == null ? Duration.ZERO : renameLatency;
    }

    public boolean swapped() {
        return outcome == Outcome.SWAPPED;
    }

    /** Whether another attempt may be made: the original table is known to be in place. */
    public boolean retriable() {
        return outcome == Outcome.ABORTED;
    }

    /** One line for the log and the status topic. */
    public String summary() {
        StringBuilder s = new StringBuilder("shard ").append(shard).append(" attempt ").append(attempt).append(": ")
                .append(outcome);
        if (!writeBlock.isZero()) {
            s.append(", writes blocked ").append(writeBlock.toMillis()).append(" ms");
        }
        if (!renameLatency.isZero()) {
            s.append(", rename ").append(renameLatency.toMillis()).append(" ms after unlock");
        }
        if (oldTable != null && outcome == Outcome.SWAPPED) {
            s.append(", original kept as ").append(oldTable);
        }
        if (reason != null) {
            s.append(": ").append(reason);
        }
        return s.toString();
    }
}
