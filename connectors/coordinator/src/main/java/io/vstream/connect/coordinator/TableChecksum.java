package io.vstream.connect.coordinator;

import io.vstream.connect.core.sql.SqlIdentifiers;
import io.vstream.connect.core.sql.SqlTag;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * Compares a table on two servers by checksum: row count and {@code BIT_XOR(CRC32(...))} over every column (with a
 * NULL marker per column, so NULL and '' differ). The source side runs inside the caller's consistent snapshot, the
 * target side on a target that has stopped applying, so both describe the same position. Reads only.
 */
final class TableChecksum {
    /** The checksum of one side. */
    record Sum(long rows, long crc) {
    }

    private TableChecksum() {
    }

    /** The base tables of a database on {@code conn}, by name. */
    static List<String> tables(Connection conn, String db) throws SQLException {
        List<String> out = new ArrayList<>();
        try (PreparedStatement ps = conn.prepareStatement("SELECT TABLE_NAME FROM information_schema.TABLES"
                + " WHERE TABLE_SCHEMA = ? AND TABLE_TYPE = 'BASE TABLE' ORDER BY TABLE_NAME")) {
            ps.setString(1, db);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getString(1));
                }
            }
        }
        return out;
    }

    static List<String> columns(Connection conn, String db, String table) throws SQLException {
        List<String> out = new ArrayList<>();
        try (PreparedStatement ps = conn.prepareStatement("SELECT COLUMN_NAME FROM information_schema.COLUMNS"
                + " WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? ORDER BY ORDINAL_POSITION")) {
            ps.setString(1, db);
            ps.setString(2, table);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getString(1));
                }
            }
        }
        return out;
    }

    static Sum sum(Connection conn, String db, String table, List<String> columns) throws SQLException {
        List<String> parts = new ArrayList<>();
        for (String c : columns) {
            String q = SqlIdentifiers.quote(c);
            parts.add(q);
            parts.add("ISNULL(" + q + ")");
        }
        String sql = SqlTag.tag("checksum", "SELECT COUNT(*), COALESCE(BIT_XOR(CRC32(CONCAT_WS('#', "
                + String.join(", ", parts) + "))), 0) FROM " + SqlIdentifiers.qualify(db, table));
        try (Statement st = conn.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return new Sum(rs.getLong(1), rs.getLong(2));
        }
    }
}
