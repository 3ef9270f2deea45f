package io.vstream.connect.jdbc;

import io.vstream.connect.core.error.ServerErrors;
import io.vstream.connect.core.sql.SqlIdentifiers;
import io.vstream.connect.core.sql.SqlTag;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;

/**
 * The applied state an applier (the sink) keeps on its target ({@code <state.database>.applied}): per stream and Kafka
 * partition (one source shard, {@link StreamPartition}), the last applied Kafka offset, the source position after it,
 * the copy progress, the copy rows written and the source time. The sink writes a partition's row in the same
 * transaction as the rows it accounts for ({@link #save}), so that the target always knows exactly what it holds; the
 * coordinator reads a stream's rows ({@link #read}) for readiness, lag and barriers. One place for the table's shape
 * and its statements, used by both sides. Touches the applier's target.
 */
public final class AppliedTable {
    /** The table's name inside the state database. */
    public static final String NAME = "applied";

    /**
     * What the target holds of one partition, as the sink writes it; {@code rowsCopied} counts the copy rows written
     * (each chunk once, in its own transaction), null when not known.
     */
    public record Applied(long kafkaOffset, String keyspace, String shard, String position, String copyState,
                          Long sourceTsMs, Long rowsCopied) {
    }

    /**
     * One row of a stream as the coordinator reads it: a Kafka partition (one source shard); {@code rowsCopied} is the
     * copy rows the applier has written (null from an applier that does not count them).
     */
    public record Row(String topic, int partition, String position, String copyState, Long sourceTsMs,
                      Long rowsCopied) {
    }

    private AppliedTable() {
    }

    /**
     * The sink's: creates the table (and the state database) when missing, and adds {@code rows_copied} to a table of
     * an earlier version.
     */
    public static void ensure(Connection ddl, String stateDatabase) throws SQLException {
        StateTables.create(ddl, stateDatabase, createStatement(stateDatabase));
        // a state table created before rows_copied existed gets the column
        StateTables.addColumnIfMissing(ddl, "sink", stateDatabase, NAME, "rows_copied", "BIGINT");
    }

    /** The sink's: what the target holds of the partition, or {@code null} when it has applied nothing yet. */
    public static Applied load(Connection conn, String stateDatabase, StreamPartition partition)
            throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement(loadStatement(stateDatabase))) {
            partition.bind(ps);
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

    /** The sink's: records what the target holds of the partition, inside the caller's open transaction. */
    public static void save(Connection conn, String stateDatabase, StreamPartition partition, Applied applied)
            throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement(saveStatement(stateDatabase))) {
            partition.bind(ps);
            ps.setLong(4, applied.kafkaOffset());
            ps.setString(5, applied.keyspace());
            ps.setString(6, applied.shard());
            ps.setString(7, applied.position());
            ps.setString(8, applied.copyState());
            setLongOrNull(ps, 9, applied.sourceTsMs());
            setLongOrNull(ps, 10, applied.rowsCopied());
            ps.executeUpdate();
        }
    }

    /**
     * The sink's: sets the stored offset of the partition (an operator's offset reset, through Connect's
     * {@code alterOffsets}); {@code offset} is Connect's (the next record to read), null to forget the partition.
     */
    public static void overwriteOffset(Connection conn, String stateDatabase, StreamPartition partition, Long offset)
            throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement(offset == null ? deleteStatement(stateDatabase)
                : overwriteOffsetStatement(stateDatabase))) {
            partition.bind(ps);
            if (offset != null) {
                ps.setLong(4, offset - 1); // Connect's offset is the next record to read
            }
            ps.executeUpdate();
        }
    }

    /**
     * The coordinator's: the stream's rows; empty when the applier has not written any yet (or its state does not
     * exist).
     */
    public static List<Row> read(Connection target, String stateDatabase, String stream) throws SQLException {
        try {
            return read(target, stateDatabase, stream, true);
        } catch (SQLException e) {
            if (e.getErrorCode() == ServerErrors.NO_SUCH_COLUMN) {
                return read(target, stateDatabase, stream, false); // an applier that does not count copied rows
            }
            throw e;
        }
    }

    private static List<Row> read(Connection target, String stateDatabase, String stream, boolean counted)
            throws SQLException {
        List<Row> out = new ArrayList<>();
        try (PreparedStatement ps = target.prepareStatement(readStatement(stateDatabase, counted))) {
            ps.setString(1, stream);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    long ts = rs.getLong(5);
                    Long tsMs = rs.wasNull() ? null : ts;
                    long copied = rs.getLong(6);
                    out.add(new Row(rs.getString(1), rs.getInt(2), rs.getString(3), rs.getString(4), tsMs,
                            rs.wasNull() ? null : copied));
                }
            }
        } catch (SQLException e) {
            if (ServerErrors.isMissingTable(e)) {
                return out; // the applier has not created its state yet
            }
            throw e;
        }
        return out;
    }

    static String createStatement(String stateDatabase) {
        return SqlTag.tag("sink", "CREATE TABLE IF NOT EXISTS " + SqlIdentifiers.qualify(stateDatabase, NAME)
                + " (stream VARCHAR(128) NOT NULL, topic VARCHAR(249) NOT NULL,"
                + " kafka_partition INT NOT NULL, kafka_offset BIGINT NOT NULL, keyspace VARCHAR(128),"
                + " shard VARCHAR(64), position TEXT, copy_state MEDIUMTEXT, source_ts_ms BIGINT,"
                + " updated_at TIMESTAMP(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6) ON UPDATE CURRENT_TIMESTAMP(6),"
                + " rows_copied BIGINT,"
                + " PRIMARY KEY (stream, topic, kafka_partition)) ENGINE=InnoDB");
    }

    static String loadStatement(String stateDatabase) {
        return SqlTag.tag("sink", "SELECT kafka_offset, keyspace, shard, position, copy_state, rows_copied FROM "
                + SqlIdentifiers.qualify(stateDatabase, NAME)
                + " WHERE stream = ? AND topic = ? AND kafka_partition = ?");
    }

    static String saveStatement(String stateDatabase) {
        return SqlTag.tag("sink", "INSERT INTO " + SqlIdentifiers.qualify(stateDatabase, NAME)
                + " (stream, topic, kafka_partition, kafka_offset, keyspace, shard, position, copy_state, source_ts_ms,"
                + " rows_copied) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON DUPLICATE KEY UPDATE"
                + " kafka_offset = VALUES(kafka_offset), keyspace = VALUES(keyspace), shard = VALUES(shard),"
                + " position = VALUES(position), copy_state = VALUES(copy_state), source_ts_ms = VALUES(source_ts_ms),"
                + " rows_copied = VALUES(rows_copied)");
    }

    static String overwriteOffsetStatement(String stateDatabase) {
        return "INSERT INTO " + SqlIdentifiers.qualify(stateDatabase, NAME) + " (stream, topic, kafka_partition,"
                + " kafka_offset) VALUES (?, ?, ?, ?) ON DUPLICATE KEY UPDATE kafka_offset = VALUES(kafka_offset)";
    }

    static String deleteStatement(String stateDatabase) {
        return "DELETE FROM " + SqlIdentifiers.qualify(stateDatabase, NAME)
                + " WHERE stream = ? AND topic = ? AND kafka_partition = ?";
    }

    /** The coordinator's read of a stream's rows; without {@code counted}, for a table that has no rows_copied. */
    static String readStatement(String stateDatabase, boolean counted) {
        return SqlTag.tag("coordinator", "SELECT topic, kafka_partition, position, copy_state, source_ts_ms, "
                + (counted ? "rows_copied" : "NULL") + " FROM " + SqlIdentifiers.qualify(stateDatabase, NAME)
                + " WHERE stream = ?");
    }

    private static void setLongOrNull(PreparedStatement ps, int index, Long value) throws SQLException {
        if (value == null) {
            ps.setNull(index, Types.BIGINT);
        } else {
            ps.setLong(index, value);
        }
    }
}
