package io.vstream.connect.coordinator;

import java.sql.SQLException;
import java.util.List;

/**
 * What an online DDL's workflow, cut-over and revert window touch on the servers, by shard name: each shard
 * ({@link OnlineDdlShard}, the instant ALTER's too), the cut-over's checksum and its swap, the server copies. The task
 * wires {@link JdbcOnlineDdlServers}; unit tests wire fakes, so that every transition runs without a server.
 */
interface OnlineDdlServers extends AutoCloseable {
    /** A connection's worth of the shard, for one use (close it). */
    OnlineDdlShard open(String shard) throws SQLException;

    /** The shard through the connection kept between rounds (closing it keeps it open). */
    OnlineDdlShard round(String shard) throws SQLException;

    /** Drops the kept connection to the shard after a failure on it: the next round reconnects. */
    void discardRound(String shard);

    /** The cut-over's checksum of the migration or direction plan {@code key}, in slices (kept by the caller). */
    ChecksumSlices checksum(String key);

    /** One cut-over attempt on {@code shards}: null when every one swapped, else why not (the tables in place). */
    String attemptCutOver(OnlineDdlCutOver cutOver, List<String> shards) throws SQLException, InterruptedException;

    /** The server copies of the ghost tables (ddl.copy.method=server). */
    ShardCopies copies();

    /** Closes the kept connections. */
    @Override
    void close();
}
