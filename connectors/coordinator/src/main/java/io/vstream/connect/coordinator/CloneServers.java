package io.vstream.connect.coordinator;

import io.vstream.connect.core.position.GtidPosition;
import io.vstream.connect.jdbc.AppliedTable;
import java.sql.SQLException;
import java.util.List;

/**
 * What the clone workflow touches on its servers, at the level its transitions read: the source (its position, a
 * consistent snapshot) and the target (the applier's applied rows and control row, native replication). The task wires
 * {@link JdbcCloneServers}; unit tests wire fakes, so that every transition runs without a server.
 */
interface CloneServers {
    /** One round's view of the source and the target (close it after the round). */
    Round open() throws SQLException;

    /** Retires the applier on the target (a cancel: the target keeps what it has applied). */
    void retireApplier() throws SQLException;

    /** The source and the target during one round. */
    interface Round extends AutoCloseable {
        /** The applier's applied rows on the target (one per source shard; empty before its first). */
        List<AppliedTable.Row> applied() throws SQLException;

        /** The source's binlog position ({@code gtid_binlog_pos}, as the server writes it), or null. */
        String sourcePosition() throws SQLException;

        /** Why the clone cannot run between these servers ({@link ClonePreflight}); empty: none. */
        List<String> preflight(boolean started) throws SQLException;

        /** Writes a command into the applier's control row (PAUSE, STOP_AT {@code stopAt}, RUN, HANDED_OFF). */
        void tellApplier(String command, String stopAt) throws SQLException;

        /** The applier's acknowledgement of {@code command}, awaited up to handoff.stop.timeout.ms; null: none. */
        ApplierChannel.Ack awaitAck(String command, String position) throws SQLException, InterruptedException;

        /** The command in the applier's control row now, or null. */
        String applierCommand() throws SQLException;

        /** A consistent snapshot of the source, at its position S. */
        Snapshot snapshot() throws SQLException;

        /** Whether the target has a replication source configured. */
        boolean replicationConfigured() throws SQLException;

        /**
         * Makes the target a GTID replica of the source from {@code s}, limited to {@code databases}, without starting
         * it.
         */
        void configureReplication(GtidPosition s, List<String> databases) throws SQLException;

        /** Starts replication on the target. */
        void startReplication() throws SQLException;

        /** The target's replication threads, or null when it shows none. */
        Replica replica() throws SQLException;

        /** The target's replicated position ({@code gtid_slave_pos}, as the server writes it). */
        String replicaPosition() throws SQLException;

        @Override
        void close() throws SQLException;
    }

    /** A consistent snapshot of the source, open until closed. */
    interface Snapshot extends AutoCloseable {
        /** The position S the snapshot reads at. */
        GtidPosition position();

        /** Every table the stream holds, in the snapshot against the target ({@link CloneComparison}). */
        CloneComparison compare() throws SQLException;

        @Override
        void close() throws SQLException;
    }

    /** The target's replication as {@code SHOW SLAVE STATUS} shows it. */
    record Replica(String io, String sql, String error, String ioError) {
    }
}
