package io.vstream.connect.sink;

import io.vstream.connect.jdbc.AppliedTable;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * The applied state of one partition on the target: the last applied Kafka offset, the source position after it and
 * the copy progress, in its row of {@code <state.database>.applied} ({@link AppliedTable}, which the coordinator reads
 * too). It is written in the same transaction as the rows it accounts for, so the target always knows exactly what it
 * holds. Touches the target.
 */
final class StateStore {
    private final String stateDatabase;
    private final String stream;
    private final String topic;
    private final int partition;

    StateStore(String stateDatabase, String stream, String topic, int partition) {
        this.stateDatabase = stateDatabase;
        this.stream = stream;
        this.topic = topic;
        this.partition = partition;
    }

    /** The stored state, or {@code null} when this partition has applied nothing yet. */
    AppliedTable.Applied load(Connection conn) throws SQLException {
        return AppliedTable.load(conn, stateDatabase, stream, topic, partition);
    }

    /** Records the state inside the caller's open transaction. */
    void save(Connection conn, AppliedTable.Applied applied) throws SQLException {
        AppliedTable.save(conn, stateDatabase, stream, topic, partition, applied);
    }
}
