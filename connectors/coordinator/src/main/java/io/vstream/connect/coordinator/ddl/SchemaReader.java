package io.vstream.connect.coordinator.ddl;

import io.vstream.connect.core.sql.SqlIdentifiers;
import io.vstream.connect.core.sql.SqlTag;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Reads what the ALTER analysis needs to know about a table on one shard: whether it exists, its {@link TableShape},
 * its triggers and foreign keys (both directions), whether it holds rows, and its {@code SHOW CREATE TABLE}. Reads
 * information_schema and the table itself on the shard; writes nothing.
 */
public final class SchemaReader {
    private static final java.util.regex.Pattern AUTO_INCREMENT = java.util.regex.Pattern.compile(
            " AUTO_INCREMENT=\\d+");
    private static final String ROLE = "online-ddl:inspect";

    private SchemaReader() {
    }

    /** The table's TABLE_TYPE ({@code BASE TABLE}, {@code VIEW}, {@code SEQUENCE}, ...), or {@code null}. */
    static String tableType(Connection c, String db, String table) throws SQLException {
        List<String> types = strings(c, "SELECT TABLE_TYPE FROM information_schema.TABLES"
                + " WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?", db, table);
        return types.isEmpty() ? null : types.get(0);
    }

    public static TableShape shape(Connection c, String db, String table) throws SQLException {
        List<TableShape.Column> columns = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(SqlTag.tag(ROLE, "SELECT COLUMN_NAME, COLUMN_TYPE,"
                + " COLLATION_NAME, IS_NULLABLE, COLUMN_DEFAULT, EXTRA FROM information_schema.COLUMNS"
                + " WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? ORDER BY ORDINAL_POSITION"))) {
            ps.setString(1, db);
            ps.setString(2, table);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String extra = rs.getString(6) == null ? "" : rs.getString(6).toUpperCase(Locale.ROOT);
                    boolean generated = extra.contains("VIRTUAL") || extra.contains("STORED GENERATED")
                            || extra.contains("PERSISTENT");
                    columns.add(new TableShape.Column(rs.getString(1), rs.getString(2), rs.getString(3),
                            "YES".equalsIgnoreCase(rs.getString(4)), rs.getString(5) != null,
                            extra.contains("AUTO_INCREMENT"), generated));
                }
            }
        }
        Map<String, List<TableShape.KeyPart>> keys = new LinkedHashMap<>();
        try (PreparedStatement ps = c.prepareStatement(SqlTag.tag(ROLE, "SELECT INDEX_NAME, COLUMN_NAME, SUB_PART"
                + " FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? AND NON_UNIQUE = 0"
                + " ORDER BY INDEX_NAME = 'PRIMARY' DESC, INDEX_NAME, SEQ_IN_INDEX"))) {
            ps.setString(1, db);
            ps.setString(2, table);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    long prefix = rs.getLong(3);
                    Integer sub = rs.wasNull() ? null : (int) prefix;
                    keys.computeIfAbsent(rs.getString(1), k -> new ArrayList<>())
                            .add(new TableShape.KeyPart(rs.getString(2), sub));
                }
            }
        }
        List<TableShape.UniqueKey> unique = new ArrayList<>();
        keys.forEach((name, parts) -> unique.add(new TableShape.UniqueKey(name, parts)));
        return new TableShape(columns, unique);
    }

    static List<String> triggers(Connection c, String db, String table) throws SQLException {
        return strings(c, "SELECT TRIGGER_NAME FROM information_schema.TRIGGERS"
                + " WHERE EVENT_OBJECT_SCHEMA = ? AND EVENT_OBJECT_TABLE = ? ORDER BY TRIGGER_NAME", db, table);
    }

    /** The foreign keys of the table and those that reference it, each as "`name` (`child` -> `parent`)". */
    static List<String> foreignKeys(Connection c, String db, String table) throws SQLException {
        List<String> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(SqlTag.tag(ROLE, "SELECT CONSTRAINT_SCHEMA, CONSTRAINT_NAME,"
                + " TABLE_NAME, UNIQUE_CONSTRAINT_SCHEMA, REFERENCED_TABLE_NAME"
                + " FROM information_schema.REFERENTIAL_CONSTRAINTS"
                + " WHERE (CONSTRAINT_SCHEMA = ? AND TABLE_NAME = ?)"
                + " OR (UNIQUE_CONSTRAINT_SCHEMA = ? AND REFERENCED_TABLE_NAME = ?)"
                + " ORDER BY CONSTRAINT_SCHEMA, TABLE_NAME, CONSTRAINT_NAME"))) {
            ps.setString(1, db);
            ps.setString(2, table);
            ps.setString(3, db);
            ps.setString(4, table);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(SqlIdentifiers.quote(rs.getString(2)) + " (" + SqlIdentifiers.qualify(rs.getString(1),
                            rs.getString(3)) + " -> " + SqlIdentifiers.qualify(rs.getString(4), rs.getString(5))
                            + ")");
                }
            }
        }
        return out;
    }

    static boolean hasRows(Connection c, String db, String table) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(SqlTag.tag(ROLE,
                "SELECT 1 FROM " + SqlIdentifiers.qualify(db, table) + " LIMIT 1"))) {
            return rs.next();
        }
    }

    /**
     * Whether the server's default time zone ({@code @@global.time_zone}, the one its own ALTER converts in) is UTC
     * all year: it shows no offset in January nor in July.
     */
    static boolean timeZoneIsUtc(Connection c) throws SQLException {
        String sql = "SELECT CONVERT_TZ('2024-01-15 12:00:00', '+00:00', @@global.time_zone) = '2024-01-15 12:00:00'"
                + " AND CONVERT_TZ('2024-07-15 12:00:00', '+00:00', @@global.time_zone) = '2024-07-15 12:00:00'";
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(SqlTag.tag(ROLE, sql))) {
            return rs.next() && rs.getBoolean(1);
        }
    }

    /**
     * The table's definition as {@code SHOW CREATE TABLE} gives it, without its first line (the table's name) and its
     * AUTO_INCREMENT counter ({@link #normalize}): two tables with the same columns, keys and options compare equal.
     */
    public static String definition(Connection c, String db, String table) throws SQLException {
        return normalize(showCreate(c, db, table));
    }

    /** A {@code SHOW CREATE TABLE} without its first line (the table's name) and its AUTO_INCREMENT counter. */
    public static String normalize(String createTable) {
        int nl = createTable.indexOf('\n');
        return AUTO_INCREMENT.matcher(nl < 0 ? createTable : createTable.substring(nl + 1)).replaceAll("");
    }

    static String showCreate(Connection c, String db, String table) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(SqlTag.tag(ROLE,
                "SHOW CREATE TABLE " + SqlIdentifiers.qualify(db, table)))) {
            rs.next();
            return rs.getString(2);
        }
    }

    private static List<String> strings(Connection c, String sql, String... params) throws SQLException {
        List<String> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(SqlTag.tag(ROLE, sql))) {
            for (int i = 0; i < params.length; i++) {
                ps.setString(i + 1, params[i]);
            }
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getString(1));
                }
            }
        }
        return out;
    }
}
