package io.vstream.connect.source;

import com.github.shyiko.mysql.binlog.event.deserialization.ColumnType;
import io.vstream.connect.core.position.Flavor;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Reads a shard's table definitions from {@code information_schema} for the copy phase: the tables of the database
 * (in name order), their columns, and the key to copy by. Refuses, with the reason, a table the copy cannot walk in
 * key order: no primary key and no unique key over NOT NULL columns, or a key on a FLOAT/DOUBLE/JSON/BLOB column.
 */
final class TableInspector {
    private final Connection conn;
    private final String database;
    private final Flavor flavor;

    TableInspector(Connection conn, String database, Flavor flavor) {
        this.conn = conn;
        this.database = database;
        this.flavor = flavor;
    }

    /** The base tables of the database, sorted by name. */
    List<String> tables() throws SQLException {
        List<String> out = new ArrayList<>();
        try (PreparedStatement ps = conn.prepareStatement("/* vstream-connect:copy */ SELECT TABLE_NAME FROM"
                + " information_schema.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_TYPE = 'BASE TABLE'"
                + " ORDER BY TABLE_NAME")) {
            ps.setString(1, database);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getString(1));
                }
            }
        }
        return out;
    }

    /**
     * The table's copy definition, or empty when the table does not exist.
     *
     * @throws UncopyableTableException when it has no usable key (the message gives the reason and the fix)
     */
    Optional<CopyTable> inspect(String table) throws SQLException {
        List<SourceColumn> columns = columns(table);
        if (columns.isEmpty()) {
            return Optional.empty();
        }
        Map<String, List<String>> uniqueKeys = uniqueKeys(table);
        List<String> key = uniqueKeys.get("PRIMARY");
        boolean primary = key != null;
        String rejected = null;
        if (key != null) {
            rejected = unusable(table, "PRIMARY KEY", key, columns);
        }
        if (key == null || rejected != null) {
            key = null;
            for (Map.Entry<String, List<String>> e : uniqueKeys.entrySet()) {
                if (e.getKey().equals("PRIMARY")) {
                    continue;
                }
                String why = unusable(table, "UNIQUE KEY " + e.getKey(), e.getValue(), columns);
                if (why == null) {
                    key = e.getValue();
                    primary = false;
                    break;
                }
                rejected = rejected == null ? why : rejected;
            }
        }
        if (key == null) {
            throw new UncopyableTableException(database, table, rejected != null ? rejected
                    : "it has no PRIMARY KEY and no UNIQUE KEY over NOT NULL columns, so its rows cannot be copied in"
                    + " key order and resumed; add a primary key, or exclude the table (table.exclude.list), or set"
                    + " copy.keyless.tables=skip to stream it without copying its existing rows");
        }
        for (SourceColumn c : columns) {
            if (c.binlogType() == null) {
                throw new UncopyableTableException(database, table, "column `" + c.name() + "` has type "
                        + c.columnType() + ", which the copy phase does not support yet");
            }
        }
        return Optional.of(new CopyTable(database, table, columns, key, primary, estimatedRows(table)));
    }

    private String unusable(String table, String what, List<String> key, List<SourceColumn> columns) {
        for (String k : key) {
            SourceColumn c = columns.stream().filter(x -> x.name().equalsIgnoreCase(k)).findFirst().orElse(null);
            if (c == null) {
                return what + " uses column `" + k + "` that the copy cannot read";
            }
            ColumnType t = c.binlogType();
            if (t == ColumnType.FLOAT || t == ColumnType.DOUBLE || t == ColumnType.JSON || t == ColumnType.BLOB
                    || t == ColumnType.GEOMETRY || t == null) {
                return what + " is on column `" + k + "` of type " + c.columnType() + ", whose values do not"
                        + " order and compare exactly; copy needs a key on integer, decimal, string, binary or"
                        + " temporal columns (add such a primary key, or exclude the table)";
            }
            if (c.nullable()) {
                return what + " has the NULL-able column `" + k + "`";
            }
        }
        return null;
    }

    private List<SourceColumn> columns(String table) throws SQLException {
        List<SourceColumn> out = new ArrayList<>();
        Map<String, String> charsets = new java.util.HashMap<>();
        try (PreparedStatement ps = conn.prepareStatement("/* vstream-connect:copy */ SELECT c.COLUMN_NAME,"
                + " c.DATA_TYPE, c.COLUMN_TYPE, c.IS_NULLABLE, COALESCE(co.ID, 63), COALESCE(c.CHARACTER_OCTET_LENGTH, 0),"
                + " COALESCE(c.NUMERIC_PRECISION, 0), COALESCE(c.NUMERIC_SCALE, 0),"
                + " COALESCE(c.DATETIME_PRECISION, 0), c.EXTRA, c.CHARACTER_SET_NAME"
                + " FROM information_schema.COLUMNS c LEFT JOIN information_schema.COLLATIONS co"
                + " ON co.COLLATION_NAME = c.COLLATION_NAME"
                + " WHERE c.TABLE_SCHEMA = ? AND c.TABLE_NAME = ? ORDER BY c.ORDINAL_POSITION")) {
            ps.setString(1, database);
            ps.setString(2, table);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String dataType = rs.getString(2);
                    String extra = rs.getString(10) == null ? "" : rs.getString(10).toUpperCase(Locale.ROOT);
                    int precision = rs.getInt(7);
                    if ("bit".equalsIgnoreCase(dataType)) {
                        precision = bitWidth(rs.getString(3));
                    }
                    out.add(new SourceColumn(rs.getString(1), dataType, rs.getString(3),
                            "YES".equalsIgnoreCase(rs.getString(4)), rs.getInt(5), rs.getLong(6), precision,
                            rs.getInt(8), rs.getInt(9), extra.contains("VIRTUAL")));
                    charsets.put(rs.getString(1), rs.getString(11));
                }
            }
        }
        return withRealMembers(table, out, charsets);
    }

    /**
     * The columns with each ENUM/SET column's real members, where {@code COLUMN_TYPE} may show some as {@code '?'}
     * ({@link EnumSetMembers}): read from the table's definition on MariaDB. A MySQL server cannot be asked, so there
     * a table with such a column of a character set that holds characters outside the BMP is refused: a copied row
     * would be given a member the metadata spells wrong.
     */
    private List<SourceColumn> withRealMembers(String table, List<SourceColumn> columns, Map<String, String> charsets)
            throws SQLException {
        List<SourceColumn> out = new ArrayList<>(columns.size());
        for (SourceColumn c : columns) {
            ColumnType t = c.binlogType();
            String[] shown = t == ColumnType.ENUM || t == ColumnType.SET ? c.members() : null;
            if (shown == null || !EnumSetMembers.mayBeLossy(shown)) {
                out.add(c);
                continue;
            }
            if (flavor != Flavor.MARIADB) {
                if (EnumSetMembers.holdsCharactersOutsideTheBmp(charsets.get(c.name()))) {
                    throw new UncopyableTableException(database, table, "the server shows the members of its "
                            + c.dataType().toUpperCase(Locale.ROOT) + " column `" + c.name() + "` as " + c.columnType()
                            + ", and MySQL shows a member outside the Basic Multilingual Plane as '?', so the copy"
                            + " cannot tell which member a row holds; leave the table out of copy.table.include.list"
                            + " (it is streamed without its existing rows) or table.exclude.list, or spell the"
                            + " members in the BMP");
                }
                out.add(c);
                continue;
            }
            String[] real = EnumSetMembers.read(conn, database, table, c.name(), t == ColumnType.SET, shown.length);
            out.add(EnumSetMembers.shownAs(real, shown) ? c.withColumnType(EnumSetMembers.columnType(
                    t == ColumnType.SET, real)) : c);
        }
        return out;
    }

    private static int bitWidth(String columnType) {
        int open = columnType.indexOf('(');
        int close = columnType.indexOf(')');
        return open < 0 ? 1 : Integer.parseInt(columnType.substring(open + 1, close).trim());
    }

    /** Unique keys by name, PRIMARY first, each key's columns in key order; prefix keys are left out. */
    private Map<String, List<String>> uniqueKeys(String table) throws SQLException {
        Map<String, List<String>> keys = new LinkedHashMap<>();
        List<String> prefixed = new ArrayList<>();
        try (PreparedStatement ps = conn.prepareStatement("/* vstream-connect:copy */ SELECT INDEX_NAME, COLUMN_NAME,"
                + " SUB_PART FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?"
                + " AND NON_UNIQUE = 0 ORDER BY INDEX_NAME <> 'PRIMARY', INDEX_NAME, SEQ_IN_INDEX")) {
            ps.setString(1, database);
            ps.setString(2, table);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String index = rs.getString(1);
                    rs.getLong(3);
                    if (!rs.wasNull()) {
                        prefixed.add(index);
                    }
                    keys.computeIfAbsent(index, k -> new ArrayList<>()).add(rs.getString(2));
                }
            }
        }
        prefixed.forEach(keys::remove);
        return keys;
    }

    private long estimatedRows(String table) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement("SELECT COALESCE(TABLE_ROWS, 0) FROM information_schema.TABLES"
                + " WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?")) {
            ps.setString(1, database);
            ps.setString(2, table);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getLong(1) : 0;
            }
        }
    }

    /** A table the copy phase refuses, with the reason and the fix. */
    static final class UncopyableTableException extends org.apache.kafka.connect.errors.ConnectException {
        UncopyableTableException(String database, String table, String reason) {
            super("Table `" + database + "`.`" + table + "` cannot be copied: " + reason);
        }
    }
}
