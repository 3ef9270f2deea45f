package io.vstream.connect.sink;

import io.vstream.connect.core.sql.SqlIdentifiers;
import io.vstream.connect.core.sql.SqlTag;
import io.vstream.connect.jdbc.StateTables;
import io.vstream.connect.jdbc.StreamPartition;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * The row schemas the FIELD records of one partition's log announced, each with the Kafka offset of its FIELD record,
 * in {@code <state.database>.row_schemas}: what lets the sink type records written without schemas (see {@link
 * RowSchemas}) after a restart, when a table's FIELD record lies before the offset it resumes from. Saved at once, on
 * its own autocommit connection (a FIELD may come inside a source transaction the target has not committed): being
 * keyed by offset, an entry saved ahead of the applied offset only types the records after its FIELD. A new entry is
 * written only when a table's schema changes. Touches the target.
 */
final class RowSchemaStore {
    private final String table;
    private final StreamPartition partition;

    RowSchemaStore(String stateDatabase, StreamPartition partition) {
        this.table = SqlIdentifiers.qualify(stateDatabase, "row_schemas");
        this.partition = partition;
    }

    static void ensure(Connection ddl, String stateDatabase) throws SQLException {
        StateTables.create(ddl, stateDatabase, SqlTag.tag("sink", "CREATE TABLE IF NOT EXISTS "
                + SqlIdentifiers.qualify(stateDatabase, "row_schemas") + " (stream VARCHAR(128) NOT NULL, topic"
                + " VARCHAR(249) NOT NULL, kafka_partition INT NOT NULL, source_table VARCHAR(64) NOT NULL, field_offset"
                + " BIGINT NOT NULL, row_schema MEDIUMTEXT NOT NULL,"
                + " PRIMARY KEY (stream, topic, kafka_partition, source_table, field_offset)) ENGINE=InnoDB"));
    }

    /** One stored row schema: the table, the offset of the FIELD record that announced it, its JSON. */
    record Entry(String sourceTable, long fieldOffset, String rowSchemaJson) {
    }

    /** Every stored row schema of the partition, in offset order. */
    List<Entry> load(Connection conn) throws SQLException {
        List<Entry> out = new ArrayList<>();
        try (PreparedStatement ps = conn.prepareStatement(SqlTag.tag("sink", "SELECT source_table, field_offset,"
                + " row_schema FROM " + table + " WHERE stream = ? AND topic = ? AND kafka_partition = ?"
                + " ORDER BY field_offset"))) {
            partition.bind(ps);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new Entry(rs.getString(1), rs.getLong(2), rs.getString(3)));
                }
            }
        }
        return out;
    }

    /** Records a table's row schema as of its FIELD record's offset (on an autocommit connection). */
    void save(Connection conn, Entry entry) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement(SqlTag.tag("sink", "INSERT INTO " + table
                + " (stream, topic, kafka_partition, source_table, field_offset, row_schema) VALUES (?, ?, ?, ?, ?, ?)"
                + " ON DUPLICATE KEY UPDATE row_schema = VALUES(row_schema)"))) {
            partition.bind(ps);
            ps.setString(4, entry.sourceTable());
            ps.setLong(5, entry.fieldOffset());
            ps.setString(6, entry.rowSchemaJson());
            ps.executeUpdate();
        }
    }

    /** Forgets the partition's row schemas (its offset was reset: the log is read again from its start). */
    static void clear(Connection conn, String stateDatabase, StreamPartition partition) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement(SqlTag.tag("sink", "DELETE FROM "
                + SqlIdentifiers.qualify(stateDatabase, "row_schemas")
                + " WHERE stream = ? AND topic = ? AND kafka_partition = ?"))) {
            partition.bind(ps);
            ps.executeUpdate();
        }
    }
}
