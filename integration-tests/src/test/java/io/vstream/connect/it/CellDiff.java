package io.vstream.connect.it;

import io.vstream.connect.it.FidelityMatrix.Column;
import io.vstream.connect.testsupport.db.MariaDbServer;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.LongPredicate;
import java.util.stream.Collectors;

/**
 * Compares a matrix table of {@link FidelityMatrix} on two servers byte for byte: each cell read as the bytes the
 * server holds ({@link Column#readExpression()}, e.g. {@code HEX(CAST(col AS BINARY))}, so a changed character set
 * shows as other bytes) and its NULL-ness, row by row by key; and the column definitions (type, character set,
 * collation, nullability, default, extra) from {@code information_schema.COLUMNS}. Names every difference as
 * (table, key, column, source, target). Reads both servers as root; writes nothing.
 */
final class CellDiff {
    private static final int SHOWN_HEX = 96;
    static final List<String> DEFINITION = List.of("COLUMN_TYPE", "CHARACTER_SET_NAME", "COLLATION_NAME",
            "IS_NULLABLE", "COLUMN_DEFAULT", "EXTRA");

    private CellDiff() {
    }

    /** A table on a server, the rows of which {@code keys} keeps (a new shard holds only its key range). */
    record Side(MariaDbServer server, String database, String table, LongPredicate keys) {
        static Side of(MariaDbServer server, String database, String table) {
            return new Side(server, database, table, k -> true);
        }

        @Override
        public String toString() {
            return server.name() + ":" + database + "." + table;
        }
    }

    /** Every cell of the matrix's columns by key: "NULL" for SQL NULL, else what the column's read expression gives. */
    static Map<Long, Map<String, String>> cells(FidelityMatrix matrix, Side side) throws SQLException {
        List<Column> columns = matrix.columns;
        String sql = "SELECT " + FidelityMatrix.KEY + ", " + columns.stream().map(Column::readExpression)
                .collect(Collectors.joining(", ")) + " FROM " + FidelityMatrix.quote(side.database()) + "."
                + FidelityMatrix.quote(side.table());
        Map<Long, Map<String, String>> out = new TreeMap<>();
        try (Connection c = side.server().connect(null); Statement st = c.createStatement()) {
            st.execute("SET SESSION time_zone = '+00:00'");
            try (ResultSet rs = st.executeQuery(sql)) {
                while (rs.next()) {
                    long key = rs.getLong(1);
                    if (!side.keys().test(key)) {
                        continue;
                    }
                    Map<String, String> row = new LinkedHashMap<>();
                    for (int i = 0; i < columns.size(); i++) {
                        String v = rs.getString(i + 2);
                        row.put(columns.get(i).name(), v == null ? "NULL" : "x'" + v + "'");
                    }
                    out.put(key, row);
                }
            }
        }
        return out;
    }

    /** Every differing cell, missing row and extra row of {@code target} against {@code source}. */
    static List<String> compareCells(String workflow, FidelityMatrix matrix, Side source, Side target)
            throws SQLException {
        Map<Long, Map<String, String>> expected = cells(matrix, source);
        if (expected.isEmpty()) {
            throw new IllegalStateException("the source " + source + " holds no row: nothing would be compared");
        }
        List<String> out = new ArrayList<>();
        if (!exists(target)) {
            out.add(workflow + ": " + target + ": table missing (" + expected.size() + " source rows)");
            return out;
        }
        Map<Long, Map<String, String>> actual = cells(matrix, target);
        for (Map.Entry<Long, Map<String, String>> e : expected.entrySet()) {
            Map<String, String> held = actual.get(e.getKey());
            if (held == null) {
                out.add(workflow + ": " + target + " key " + e.getKey() + ": row missing");
                continue;
            }
            for (Map.Entry<String, String> cell : e.getValue().entrySet()) {
                String t = held.get(cell.getKey());
                if (!cell.getValue().equals(t)) {
                    out.add(workflow + ": " + target + " key " + e.getKey() + " column " + cell.getKey()
                            + " (" + definitionOf(matrix, cell.getKey()) + "): source " + shown(cell.getValue())
                            + ", target " + shown(t));
                }
            }
        }
        for (Long key : actual.keySet()) {
            if (!expected.containsKey(key)) {
                out.add(workflow + ": " + target + " key " + key + ": extra row");
            }
        }
        return out;
    }

    /** Every column whose definition attributes ({@link #DEFINITION}) differ, and columns missing or extra. */
    static List<String> compareDefinitions(String workflow, Side source, Side target) throws SQLException {
        Map<String, Map<String, String>> expected = definitions(source);
        if (expected.isEmpty()) {
            throw new IllegalStateException("the source " + source + " has no column: nothing would be compared");
        }
        Map<String, Map<String, String>> actual = definitions(target);
        List<String> out = new ArrayList<>();
        if (actual.isEmpty()) {
            out.add(workflow + ": " + target + ": no column definitions (table missing)");
            return out;
        }
        for (Map.Entry<String, Map<String, String>> e : expected.entrySet()) {
            Map<String, String> held = actual.get(e.getKey());
            if (held == null) {
                out.add(workflow + ": " + target + " column " + e.getKey() + ": missing");
                continue;
            }
            for (String attribute : DEFINITION) {
                if (!Objects.equals(e.getValue().get(attribute), held.get(attribute))) {
                    out.add(workflow + ": " + target + " column " + e.getKey() + " " + attribute + ": source "
                            + e.getValue().get(attribute) + ", target " + held.get(attribute));
                }
            }
        }
        for (String name : actual.keySet()) {
            if (!expected.containsKey(name)) {
                out.add(workflow + ": " + target + " column " + name + ": extra");
            }
        }
        return out;
    }

    private static Map<String, Map<String, String>> definitions(Side side) throws SQLException {
        Map<String, Map<String, String>> out = new LinkedHashMap<>();
        try (Connection c = side.server().connect(null);
             PreparedStatement ps = c.prepareStatement("SELECT COLUMN_NAME, " + String.join(", ", DEFINITION)
                     + " FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?"
                     + " ORDER BY ORDINAL_POSITION")) {
            ps.setString(1, side.database());
            ps.setString(2, side.table());
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    Map<String, String> attributes = new LinkedHashMap<>();
                    for (int i = 0; i < DEFINITION.size(); i++) {
                        attributes.put(DEFINITION.get(i), rs.getString(i + 2));
                    }
                    out.put(rs.getString(1), attributes);
                }
            }
        }
        return out;
    }

    private static boolean exists(Side side) {
        return side.server().queryLong(null, "SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = ?"
                + " AND TABLE_NAME = ?", side.database(), side.table()) > 0;
    }

    private static String definitionOf(FidelityMatrix matrix, String column) {
        return matrix.columns.stream().filter(c -> c.name().equals(column)).map(Column::definition)
                .findFirst().orElse("?");
    }

    /** A cell for a message: long values cut, with their length in bytes. */
    private static String shown(String cell) {
        if (cell == null || cell.length() <= SHOWN_HEX + 3) {
            return cell;
        }
        return cell.substring(0, SHOWN_HEX + 2) + "…' (" + (cell.length() - 3) / 2 + " bytes)";
    }
}
