package io.vstream.connect.source;

import io.vstream.connect.core.position.LastPk;
import io.vstream.connect.core.sql.KeyPredicates;
import io.vstream.connect.core.sql.SqlIdentifiers;
import io.vstream.connect.core.sql.SqlTag;
import io.vstream.connect.core.sql.ValueBinder;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The copy phase's chunk statement for one table: the next rows after a last key, in key order, with a limit
 * ({@code SELECT cols FROM t WHERE k1 > ? OR (k1 = ? AND k2 > ?) ORDER BY k1, k2 LIMIT n}, a form the optimizer
 * turns into one index range), and the reading of a row's key back into a {@link LastPk}.
 */
final class ChunkQuery {
    private final CopyTable table;
    private final String firstChunkSql;
    private final String nextChunkSql;
    private final int[] keyIndexes;

    ChunkQuery(CopyTable table, List<SourceColumn> selected) {
        this.table = table;
        List<String> cols = new ArrayList<>();
        for (SourceColumn c : selected) {
            String q = SqlIdentifiers.quote(c.name());
            cols.add(readAsText(c) ? "CAST(" + q + " AS CHAR)" : readAsNumber(c) ? "(" + q + " + 0)"
                    : isFloat(c) ? "CAST(" + q + " AS DOUBLE)"
                    : c.fixedBinaryLength().isPresent()
                    ? "CAST(" + q + " AS BINARY(" + c.fixedBinaryLength().getAsLong() + "))" : q);
        }
        String from = " FROM " + SqlIdentifiers.qualify(table.database(), table.name());
        String order = " ORDER BY " + SqlIdentifiers.quoteList(table.keyColumns()) + " LIMIT ?";
        String select = "SELECT " + String.join(", ", cols) + from;
        this.firstChunkSql = SqlTag.tag("copy", select + order);
        this.nextChunkSql = SqlTag.tag("copy", select + " WHERE " + KeyPredicates.after(table.keyColumns()) + order);
        this.keyIndexes = new int[table.keyColumns().size()];
        for (int i = 0; i < keyIndexes.length; i++) {
            int idx = -1;
            for (int j = 0; j < selected.size(); j++) {
                if (selected.get(j).name().equalsIgnoreCase(table.keyColumns().get(i))) {
                    idx = j;
                }
            }
            keyIndexes[i] = idx + 1;
        }
    }

    /**
     * Whether the column is read as the server's own text: DATE, DATETIME and TIMESTAMP values. The driver's
     * {@code getString} of such a column formats the year of the era (the year 0000 comes back as 0001) and pads
     * fractions; the server's text is the value exactly, also for a date no calendar has.
     */
    static boolean readAsText(SourceColumn c) {
        return switch (c.dataType().toLowerCase(Locale.ROOT)) {
            case "date", "datetime", "timestamp" -> true;
            default -> false;
        };
    }

    /**
     * Whether the column is read as its number, as the binlog carries it: an ENUM's index (0 for its invalid-value
     * entry, which reads as {@code ''} like a {@code ''} member would), a SET's bits.
     */
    static boolean readAsNumber(SourceColumn c) {
        return switch (c.dataType().toLowerCase(Locale.ROOT)) {
            case "enum", "set" -> true;
            default -> false;
        };
    }

    /**
     * Whether the column is a FLOAT, read as the double of its exact value: the server sends a FLOAT as text with six
     * significant digits ({@code -3.40282e38}), which is another float than the one stored.
     */
    static boolean isFloat(SourceColumn c) {
        return c.dataType().equalsIgnoreCase("float");
    }

    /** Prepares the statement for the chunk after {@code lastPk} ({@code null}: from the first row). */
    PreparedStatement prepare(Connection conn, LastPk lastPk, int limit) throws SQLException {
        PreparedStatement ps = conn.prepareStatement(lastPk == null ? firstChunkSql : nextChunkSql);
        int p = 1;
        if (lastPk != null) {
            for (Object v : KeyPredicates.afterArgs(lastPk.values())) {
                ValueBinder.bind(ps, p++, bindable(v));
            }
        }
        ps.setInt(p, limit);
        return ps;
    }

    private static Object bindable(Object v) {
        return v instanceof BigInteger b ? new BigDecimal(b) : v;
    }

    /** The key of the current row of {@code rs}, typed as the offset codec stores it. */
    LastPk keyOf(ResultSet rs) throws SQLException {
        LastPk.Builder b = LastPk.builder();
        for (int i = 0; i < keyIndexes.length; i++) {
            String name = table.keyColumns().get(i);
            SourceColumn c = table.columns().get(table.columnIndex(name));
            b.add(c.name(), keyValue(rs, keyIndexes[i], c));
        }
        return b.build();
    }

    private static Object keyValue(ResultSet rs, int index, SourceColumn c) throws SQLException {
        switch (c.dataType().toLowerCase(Locale.ROOT)) {
            case "tinyint", "smallint", "mediumint", "int", "integer", "year":
                return rs.getLong(index);
            case "bigint": {
                if (c.unsigned()) {
                    BigDecimal d = rs.getBigDecimal(index);
                    BigInteger v = d.toBigIntegerExact();
                    return v.bitLength() < 64 ? (Object) v.longValue() : v;
                }
                return rs.getLong(index);
            }
            case "decimal", "numeric":
                return rs.getBigDecimal(index);
            case "binary", "varbinary", "bit", "inet6", "inet4", "uuid":
                return rs.getBytes(index);
            default:
                // strings compare in the column's collation; temporal values as their literal text
                return rs.getString(index);
        }
    }
}
