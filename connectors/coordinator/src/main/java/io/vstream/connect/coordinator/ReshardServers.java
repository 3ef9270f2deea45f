package io.vstream.connect.coordinator;

import io.vstream.connect.core.reshard.Journal;
import io.vstream.connect.jdbc.AppliedTable;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;

/**
 * What the reshard workflow touches on its servers, at the level its transitions read: the old shards (their
 * positions, read_only, the journal) and the new shards (the applier's applied rows and control rows, the journal).
 * Shards are named by key range; an old and a new shard may share a name, so each operation says which side it
 * reads. The task wires {@link JdbcReshardServers}; unit tests wire fakes, so that every transition runs without a
 * server.
 */
interface ReshardServers {
    /** One round's view of every old and new shard (close it after the round). */
    Round open() throws SQLException;

    /** The old and the new shards during one round. */
    interface Round extends AutoCloseable {
        /** The applier's applied rows on a new shard (one per old shard it has heard from). */
        List<AppliedTable.Row> applied(String newShard) throws SQLException;

        /** An old shard's binlog position, as {@code MariaDB/<gtid_binlog_pos>}. */
        String oldPosition(String oldShard) throws SQLException;

        /** A new shard's binlog position, as {@code MariaDB/<gtid_binlog_pos>}. */
        String newPosition(String newShard) throws SQLException;

        /** Why the reshard cannot run between these shards ({@link ReshardPreflight}); empty: none. */
        List<String> preflight(boolean applierStarted) throws SQLException;

        /** Sets {@code read_only} on every old shard. */
        void readOnly(boolean on) throws SQLException;

        /** The journal with {@code id}, if any old or new shard holds it (the old shards are read first). */
        Optional<Journal> journal(long id) throws SQLException;

        /** Writes the journal into every old shard, then into every new shard, retiring each one's applier. */
        void journal(Journal j) throws SQLException;

        /** Retires the applier on a new shard (HANDED_OFF). */
        void retireApplier(String newShard) throws SQLException;

        /** The old shards' estimate of the rows of the database's tables, summed. */
        long estimateRows() throws SQLException;

        /** The command in the control row of the lane from an old shard into a new shard, or null. */
        String laneCommand(String newShard, String oldShard) throws SQLException;

        /** Lets the lane from an old shard into a new shard run (RUN). */
        void runLane(String newShard, String oldShard) throws SQLException;

        @Override
        void close();
    }
}
