package io.vstream.connect.coordinator;

import io.vstream.connect.core.mapping.ColumnMapping;
import io.vstream.connect.core.sql.SqlIdentifiers;
import io.vstream.connect.core.sql.SqlTag;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Compares an original table with its ghost through the migration's column mapping: row count and
 * {@code BIT_XOR(CRC32(...))} over the shared columns, where a column whose type the ALTER changed is converted on the
 * original side to the ghost's type ({@code CONVERT(c, DECIMAL(14,2))}, {@code DATETIME(6)}, ...) so equal values
 * compare equal. Columns whose new type has no such conversion are left out of the checksum and named in the
 * result. Reads only; the original side runs in the caller's snapshot.
 */
final class MappedChecksum {
    /** The outcome: equal or not, and the shared columns the checksum could not cover. */
    record Result(boolean equal, long originalRows, long ghostRows, List<String> uncovered) {
    }

    private MappedChecksum() {
    }

    static Result compare(Connection original, Connection ghostSide, String db, String table, String ghost,
                          ColumnMapping mapping) throws SQLException {
        Map<String, String> origTypes = types(ghostSide, db, table);
        Map<String, String> ghostTypes = types(ghostSide, db, ghost);
        List<String> origExpr = new ArrayList<>();
        List<String> ghostExpr = new ArrayList<>();
        List<String> uncovered = new ArrayList<>();
        for (Map.Entry<String, String> e : mapping.shared().entrySet()) {
            String o = e.getKey();
            String g = e.getValue();
            String ot = origTypes.get(o.toLowerCase(Locale.ROOT));
            String gt = ghostTypes.get(g.toLowerCase(Locale.ROOT));
            if (ot == null || gt == null) {
                uncovered.add(o);
                continue;
            }
            String qo = SqlIdentifiers.quote(o);
            String qg = SqlIdentifiers.quote(g);
            String converted = ot.equals(gt) ? qo : convert(qo, gt);
            if (converted == null) {
                uncovered.add(o);
                continue;
            }
            origExpr.add(converted);
            origExpr.add("ISNULL(" + qo + ")");
            ghostExpr.add(qg);
            ghostExpr.add("ISNULL(" + qg + ")");
        }
        long[] a = sum(original, db, table, origExpr);
        long[] b = sum(ghostSide, db, ghost, ghostExpr);
        return new Result(a[0] == b[0] && a[1] == b[1], a[0], b[0], uncovered);
    }

    /** The conversion of an original column to a ghost column type, or null when there is none. */
    static String convert(String column, String ghostColumnType) {
        String t = ghostColumnType.toLowerCase(Locale.ROOT);
        boolean unsigned = t.contains("unsigned");
        String base = t.replace(" unsigned", "").replace(" zerofill", "").trim();
        if (base.startsWith("decimal")) {
            return "CONVERT(" + column + ", " + base.toUpperCase(Locale.ROOT) + ")";
        }
        if (base.startsWith("datetime") || base.startsWith("time") && !base.startsWith("timestamp")
                || base.equals("date")) {
            return "CONVERT(" + column + ", " + base.toUpperCase(Locale.ROOT) + ")";
        }
        if (base.startsWith("timestamp")) {
            return "CONVERT(" + column + ", " + base.replace("timestamp", "DATETIME").toUpperCase(Locale.ROOT) + ")";
        }
        if (base.matches("(tiny|small|medium|big)?int(\\(\\d+\\))?|integer")) {
            return "CONVERT(" + column + ", " + (unsigned ? "UNSIGNED" : "SIGNED") + ")";
        }
        if (base.startsWith("varchar") || base.startsWith("char") || base.endsWith("text")) {
            return "CONVERT(" + column + ", CHAR)";
        }
        if (base.startsWith("double") || base.startsWith("float") || base.startsWith("real")) {
            return "CONVERT(" + column + ", DOUBLE)";
        }
        return null;
    }

    private static Map<String, String> types(Connection conn, String db, String table) throws SQLException {
        Map<String, String> out = new HashMap<>();
        try (PreparedStatement ps = conn.prepareStatement("SELECT COLUMN_NAME, COLUMN_TYPE FROM"
                + " information_schema.COLUMNS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?")) {
            ps.setString(1, db);
            ps.setString(2, table);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.put(rs.getString(1).toLowerCase(Locale.ROOT), rs.getString(2));
                }
            }
        }
        return out;
    }

    private static long[] sum(Connection conn, String db, String table, List<String> exprs) throws SQLException {
        String crc = exprs.isEmpty() ? "0" : "COALESCE(BIT_XOR(CRC32(CONCAT_WS('#', " + String.join(", ", exprs)
                + "))), 0)";
        try (Statement st = conn.createStatement(); ResultSet rs = st.executeQuery(SqlTag.tag("checksum",
                "SELECT COUNT(*), " + crc + " FROM " + SqlIdentifiers.qualify(db, table)))) {
            rs.next();
            return new long[] {rs.getLong(1), rs.getLong(2)};
        }
    }
}
