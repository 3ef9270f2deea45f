package io.vstream.connect.testsupport.compare;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Builds the SQL of a chunked comparison for one side: the next chunk boundary in key order, a chunk's
 * {@code COUNT(*)} and {@code BIT_XOR(CRC32(CONCAT_WS(...)))} with NULLs marked, and a chunk's rows.
 * A chunk is the key range {@code (lower, upper]}; a null bound is open. Every statement carries a
 * comment so a DBA recognises it in the processlist. Touches no server itself.
 */
final class ChunkQueries {

    private static final String TAG = "/* vstream test-support: table comparison */ ";

    private ChunkQueries() {
    }

    /** The key of the {@code chunkSize}-th row after {@code lower}: the chunk's inclusive upper bound. */
    static String upperBound(ComparedColumns.SideSql side, boolean hasLower, int chunkSize) {
        return "SELECT " + TAG + String.join(", ", side.keys()) + " FROM " + side.table().qualified()
                + where(side, hasLower, false) + orderBy(side) + " LIMIT 1 OFFSET " + (chunkSize - 1);
    }

    static String checksum(ComparedColumns.SideSql side, boolean hasLower, boolean hasUpper) {
        StringBuilder row = new StringBuilder("CONCAT_WS('#'");
        for (String expression : side.compared()) {
            row.append(", ISNULL(").append(expression).append("), ").append(expression);
        }
        row.append(')');
        return "SELECT " + TAG + "COUNT(*), COALESCE(BIT_XOR(CRC32(" + row + ")), 0) FROM "
                + side.table().qualified() + where(side, hasLower, hasUpper);
    }

    /**
     * The compared expressions (keys first) of the chunk's rows, in key order, each as the server's text ({@code
     * CONCAT(x)}: the driver's own formatting of a DATETIME turns the year 0000 into 0001, which would hide a
     * difference the checksum found).
     */
    static String rows(ComparedColumns.SideSql side, boolean hasLower, boolean hasUpper) {
        List<String> texts = new ArrayList<>();
        for (String expression : side.compared()) {
            texts.add("CONCAT(" + expression + ")");
        }
        return "SELECT " + TAG + String.join(", ", texts) + " FROM " + side.table().qualified()
                + where(side, hasLower, hasUpper) + orderBy(side);
    }

    /** Binds the lower then the upper bound, each when present. */
    static void bind(PreparedStatement statement, List<Object> lower, List<Object> upper) throws SQLException {
        int index = 1;
        for (List<Object> bound : List.of(nonNull(lower), nonNull(upper))) {
            for (Object value : bound) {
                statement.setObject(index++, value);
            }
        }
    }

    private static List<Object> nonNull(List<Object> bound) {
        return bound == null ? Collections.emptyList() : bound;
    }

    private static String where(ComparedColumns.SideSql side, boolean hasLower, boolean hasUpper) {
        if (!hasLower && !hasUpper) {
            return "";
        }
        String key = tuple(side.keys());
        String marks = tuple(Collections.nCopies(side.keys().size(), "?"));
        StringBuilder out = new StringBuilder(" WHERE ");
        if (hasLower) {
            out.append(key).append(" > ").append(marks);
        }
        if (hasUpper) {
            out.append(hasLower ? " AND " : "").append(key).append(" <= ").append(marks);
        }
        return out.toString();
    }

    private static String orderBy(ComparedColumns.SideSql side) {
        return " ORDER BY " + String.join(", ", side.keys());
    }

    private static String tuple(List<String> parts) {
        return parts.size() == 1 ? parts.get(0) : "(" + String.join(", ", parts) + ")";
    }
}
