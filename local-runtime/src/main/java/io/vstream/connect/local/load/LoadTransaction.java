package io.vstream.connect.local.load;

import java.util.List;

/**
 * One transaction of a {@link WriteLoad} whose COMMIT was acknowledged, or whose outcome is unknown (the
 * connection was lost during COMMIT: it may or may not have committed, so the model claims neither).
 *
 * @param shard         the shard it ran on
 * @param gtid          {@code @@last_gtid} read on the same connection after the commit, e.g. {@code "0-1042-17"};
 *                      null if unknown or if reading it failed
 * @param thread        the load thread (0-based), or -1 for a {@link WriteLoad#preload(int)} batch
 * @param sequence      the thread's own transaction counter (1-based, attempts included), or the batch number
 * @param changes       the row changes, in statement order
 * @param outcome       committed or unknown
 * @param commitNanos   how long the COMMIT took
 * @param durationNanos from the first statement to the commit acknowledgement
 */
public record LoadTransaction(int shard, String gtid, int thread, long sequence, List<RowChange> changes,
                              Outcome outcome, long commitNanos, long durationNanos) {

    public LoadTransaction {
        changes = List.copyOf(changes);
    }

    /** Whether the commit was acknowledged. */
    public enum Outcome {
        COMMITTED, UNKNOWN
    }

    /** The sequence number of {@link #gtid()} (its commit order on the shard's domain), or -1 when unknown. */
    public long gtidSequence() {
        if (gtid == null || gtid.isEmpty()) {
            return -1;
        }
        return Long.parseLong(gtid.substring(gtid.lastIndexOf('-') + 1));
    }

    @Override
    public String toString() {
        return outcome + " shard " + shard + " gtid " + gtid + " thread " + thread + "#" + sequence + " "
                + changes.size() + " change(s)";
    }
}
