package io.vstream.connect.jdbc;

import io.vstream.connect.core.sql.SqlIdentifiers;
import io.vstream.connect.core.sql.SqlTag;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * The tables an applier stream holds on its target ({@code <state.database>.stream_tables}): one row per source
 * table whose FIELD record the sink took, with the target table it writes, recorded before the stream's position
 * passes that FIELD. The sink writes it; the clone's coordinator reads it to know which tables to compare at the
 * hand-off and which databases native replication must carry. The list comes from the source's own word (its FIELD
 * records, sent for every copied table, empty or not), never from what an account happens to see on the target.
 */
public final class StreamTables {
    /** The table's name inside the state database. */
    public static final String TABLE = "stream_tables";

    /** One source table and the target table the stream writes it into. */
    public record Entry(String sourceDatabase, String sourceTable, String targetDatabase, String targetTable) {
        /** Whether the target keeps the source's names (native replication writes the source's names). */
        public boolean sameNames() {
            return sourceDatabase.equals(targetDatabase) && sourceTable.equals(targetTable);
        }

        public String target() {
            return targetDatabase + "." + targetTable;
        }
    }

    private StreamTables() {
    }

    public static void ensure(Connection conn, String stateDatabase) throws SQLException {
        StateTables.create(conn, stateDatabase, SqlTag.tag("sink", "CREATE TABLE IF NOT EXISTS "
                + SqlIdentifiers.qualify(stateDatabase, TABLE) + " (stream VARCHAR(128) NOT NULL,"
                + " target_db VARCHAR(64) NOT NULL, target_table VARCHAR(64) NOT NULL,"
                + " source_db VARCHAR(64) NOT NULL, source_table VARCHAR(64) NOT NULL,"
                + " recorded_at TIMESTAMP(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6),"
                + " PRIMARY KEY (stream, target_db, target_table)) ENGINE=InnoDB"));
    }

    /** Records that {@code stream} writes {@code entry} (idempotent; the table must exist: {@link #ensure}). */
    public static void record(Connection conn, String stateDatabase, String stream, Entry entry) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement(SqlTag.tag("sink", "INSERT INTO "
                + SqlIdentifiers.qualify(stateDatabase, TABLE) + " (stream, target_db, target_table, source_db,"
                + " source_table) VALUES (?, ?, ?, ?, ?) ON DUPLICATE KEY UPDATE source_db = VALUES(source_db),"
                + " source_table = VALUES(source_table)"))) {
            ps.setString(1, stream);
            ps.setString(2, entry.targetDatabase());
            ps.setString(3, entry.targetTable());
            ps.setString(4, entry.sourceDatabase());
            ps.setString(5, entry.sourceTable());
            ps.executeUpdate();
        }
    }

    /**
     * The tables {@code stream} holds, by target name; empty when it has recorded none (or the state database has no
     * such table yet: no sink of this version has written there).
     */
    public static List<Entry> read(Connection conn, String stateDatabase, String stream) throws SQLException {
        List<Entry> out = new ArrayList<>();
        try (PreparedStatement ps = conn.prepareStatement(SqlTag.tag("coordinator", "SELECT source_db, source_table,"
                + " target_db, target_table FROM " + SqlIdentifiers.qualify(stateDatabase, TABLE)
                + " WHERE stream = ? ORDER BY target_db, target_table"))) {
            ps.setString(1, stream);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new Entry(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4)));
                }
            }
        } catch (SQLException e) {
            if (e.getErrorCode() == 1146 || e.getErrorCode() == 1049) {
                return out;
            }
            throw e;
        }
        return out;
    }
}
