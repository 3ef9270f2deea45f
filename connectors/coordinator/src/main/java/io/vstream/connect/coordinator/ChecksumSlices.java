package io.vstream.connect.coordinator;

import java.sql.SQLException;

/**
 * The cut-over's checksum of each shard, run in slices on the rounds before the swap ({@link CutOverChecksum} on the
 * shards' servers).
 */
interface ChecksumSlices {
    /** Whether the shard's tables have been compared (and are equal) to the end. */
    boolean done(String shard);

    /** Runs one slice on {@code shard}. */
    CutOverChecksum.Slice slice(String shard) throws SQLException, InterruptedException;
}
