package io.vstream.connect.sink;

import io.vstream.connect.jdbc.AppliedTable;
import io.vstream.connect.jdbc.StreamPartition;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * One applier's group commit: the state row ({@link AppliedTable}) of the last event applied since the target's last
 * commit, staged as each event is applied and written once, with all of them, when the batch ends ({@link #commit})
 * or an acknowledgement commits them ({@link #write}, then {@link #committed}): one state write and one commit per
 * batch instead of per source transaction. A failure drops what is staged ({@link #drop}). Touches the target's
 * {@code applied} table through the applier's connection.
 */
final class GroupCommit {
    private final String stateDatabase;
    private final StreamPartition partition;
    private AppliedTable.Applied staged; // null: nothing applied since the last commit

    GroupCommit(String stateDatabase, StreamPartition partition) {
        this.stateDatabase = stateDatabase;
        this.partition = partition;
    }

    /** What the target holds (null: nothing yet). */
    AppliedTable.Applied load(Connection conn) throws SQLException {
        return AppliedTable.load(conn, stateDatabase, partition);
    }

    /** The state row of the event just applied, to be written with the next commit. */
    void stage(AppliedTable.Applied row) {
        staged = row;
    }

    /** Whether events were applied since the last commit. */
    boolean pending() {
        return staged != null;
    }

    /** Writes the staged row in {@code conn}'s open transaction, for the caller to commit ({@link #committed}). */
    void write(Connection conn) throws SQLException {
        if (staged != null) {
            AppliedTable.save(conn, stateDatabase, partition, staged);
        }
    }

    /** The caller committed what {@link #write} wrote: returns that row (null: nothing was staged). */
    AppliedTable.Applied committed() {
        AppliedTable.Applied done = staged;
        staged = null;
        return done;
    }

    /** Writes the staged row and commits; returns the row committed, or null when nothing was staged. */
    AppliedTable.Applied commit(Connection conn) throws SQLException {
        if (staged == null) {
            return null;
        }
        AppliedTable.save(conn, stateDatabase, partition, staged); // one state write per group commit
        conn.commit();
        return committed();
    }

    /** Drops what is staged (the transactions it accounts for are rolled back). */
    void drop() {
        staged = null;
    }
}
