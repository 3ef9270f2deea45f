package io.vstream.connect.sink;

import io.vstream.connect.core.sql.SqlIdentifiers;
import io.vstream.connect.core.sql.SqlTag;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The applied state on the target: per stream and Kafka partition (one source shard), the last applied Kafka offset,
 * the source position after it and the copy progress, in {@code <state.database>.applied}. It is written in the same
 * transaction as the rows it accounts for, so the target always knows exactly what it holds.
 */
final class StateStore {
    /**
     * What the target holds of one partition; {@code rowsCopied} counts the copy rows written (each chunk once, in its
     * own transaction), null when not known.
     */
    record Applied(long kafkaOffset, String keyspace, String shard, String position, String copyState,
                   Long sourceTsMs, Long rowsCopied) {
    }

    private final String table;
    private final String stream;
    private final String topic;
    private final int partition;

    StateStore(String stateDatabase, String stream, String topic, int partition) {
        this.table = SqlIdentifiers.qualify(stateDatabase, "applied");
        this.stream = stream;
        this.topic = topic;
        this.partition = partition;
    }

    static void ensure(Connection ddl, String stateDatabase) throws SQLException {
        try (Statement st = ddl.createStatement()) {
            st.execute("CREATE DATABASE IF NOT EXISTS " + SqlIdentifiers.quote(stateDatabase));
            st.execute(SqlTag.tag("sink", "CREATE TABLE IF NOT EXISTS " + SqlIdentifiers.qualify(stateDatabase,
                    "applied") + " (stream VARCHAR(128) NOT NULL, topic VARCHAR(249) NOT NULL,"
                    + " kafka_partition INT NOT NULL, kafka_offset BIGINT NOT NULL, keyspace VARCHAR(128),"
                    + " shard VARCHAR(64), position TEXT, copy_state MEDIUMTEXT, source_ts_ms BIGINT,"
                    + " updated_at TIMESTAMP(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6) ON UPDATE CURRENT_TIMESTAMP(6),"
                    + " rows_copied BIGINT,"
                    + " PRIMARY KEY (stream, topic, kafka_partition)) ENGINE=InnoDB"));
            // a state table created before rows_copied existed gets the column (no IF NOT EXISTS: MySQL lacks it)
            try (PreparedStatement ps = ddl.prepareStatement("SELECT COUNT(*) FROM information_schema.COLUMNS"
                    + " WHERE TABLE_SCHEMA = ? AND TABLE_NAME = 'applied' AND COLUMN_NAME = 'rows_copied'")) {
                ps.setString(1, stateDatabase);
                try (ResultSet rs = ps.executeQuery()) {
                    if (rs.next() && rs.getLong(1) == 0) {
                        st.execute(SqlTag.tag("sink", "ALTER TABLE " + SqlIdentifiers.qualify(stateDatabase,
                                "applied") + " ADD COLUMN rows_copied BIGINT"));
                    }
                }
            }
        }
    }

    /** The stored state, or {@code null} when this partition has applied nothing yet. */
    Applied load(Connection conn) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement(SqlTag.tag("sink", "SELECT kafka_offset, keyspace, shard,"
                + " position, copy_state, rows_copied FROM " + table
                + " WHERE stream = ? AND topic = ? AND kafka_partition = ?"))) {
            ps.setString(1, stream);
            ps.setString(2, topic);
            ps.setInt(3, partition);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return null;
                }
                long copied = rs.getLong(6);
                return new Applied(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getString(4),
                        rs.getString(5), null, rs.wasNull() ? null : copied);
            }
        }
    }

    /** Records the state inside the caller's open transaction. */
    void save(Connection conn, Applied applied) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement(SqlTag.tag("sink", "INSERT INTO " + table
                + " (stream, topic, kafka_partition, kafka_offset, keyspace, shard, position, copy_state, source_ts_ms,"
                + " rows_copied) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON DUPLICATE KEY UPDATE"
                + " kafka_offset = VALUES(kafka_offset), keyspace = VALUES(keyspace), shard = VALUES(shard),"
                + " position = VALUES(position), copy_state = VALUES(copy_state), source_ts_ms = VALUES(source_ts_ms),"
                + " rows_copied = VALUES(rows_copied)"))) {
            ps.setString(1, stream);
            ps.setString(2, topic);
            ps.setInt(3, partition);
            ps.setLong(4, applied.kafkaOffset());
            ps.setString(5, applied.keyspace());
            ps.setString(6, applied.shard());
            ps.setString(7, applied.position());
            ps.setString(8, applied.copyState());
            if (applied.sourceTsMs() == null) {
                ps.setNull(9, java.sql.Types.BIGINT);
            } else {
                ps.setLong(9, applied.sourceTsMs());
            }
            if (applied.rowsCopied() == null) {
                ps.setNull(10, java.sql.Types.BIGINT);
            } else {
                ps.setLong(10, applied.rowsCopied());
            }
            ps.executeUpdate();
        }
    }

    /** Sets the stored offset of the partition (an operator's offset reset, through alterOffsets). */
    static void overwriteOffset(Connection conn, String stateDatabase, String stream, String topic, int partition,
                                Long offset) throws SQLException {
        String t = SqlIdentifiers.qualify(stateDatabase, "applied");
        if (offset == null) {
            try (PreparedStatement ps = conn.prepareStatement("DELETE FROM " + t
                    + " WHERE stream = ? AND topic = ? AND kafka_partition = ?")) {
                ps.setString(1, stream);
                ps.setString(2, topic);
                ps.setInt(3, partition);
                ps.executeUpdate();
            }
            return;
        }
        try (PreparedStatement ps = conn.prepareStatement("INSERT INTO " + t + " (stream, topic, kafka_partition,"
                + " kafka_offset) VALUES (?, ?, ?, ?) ON DUPLICATE KEY UPDATE kafka_offset = VALUES(kafka_offset)")) {
            ps.setString(1, stream);
            ps.setString(2, topic);
            ps.setInt(3, partition);
            ps.setLong(4, offset - 1); // Connect's offset is the next record to read
            ps.executeUpdate();
        }
    }
}
