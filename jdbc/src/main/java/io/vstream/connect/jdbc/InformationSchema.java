package io.vstream.connect.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * Lookups in a server's {@code information_schema} that more than one component makes (e.g. whether a state table of
 * an older version has a column, whether a resharded table has its sharding column). Touches the server it is given
 * (reads).
 */
public final class InformationSchema {
    private InformationSchema() {
    }

    /** Whether {@code database.table} has {@code column}; false too when the table does not exist. */
    public static boolean hasColumn(Connection conn, String database, String table, String column)
            throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement("SELECT 1 FROM information_schema.COLUMNS"
                + " WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? AND COLUMN_NAME = ?")) {
            ps.setString(1, database);
            ps.setString(2, table);
            ps.setString(3, column);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }
}
