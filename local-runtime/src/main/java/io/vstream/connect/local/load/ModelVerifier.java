package io.vstream.connect.local.load;

import io.vstream.connect.local.compare.ComparisonResult;
import io.vstream.connect.local.compare.RowDifference;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SortedMap;
import java.util.function.LongPredicate;

/**
 * Compares a table on some server with a {@link WriteLoad}'s model: every expected row must be there with
 * the expected values (missing / different), no other row may be (extra), and keys with an unknown outcome
 * are skipped. Reads the table in key order; writes nothing.
 */
final class ModelVerifier {

    private static final int MAX_KEPT = 1000;

    private ModelVerifier() {
    }

    static ComparisonResult verify(LoadModel model, LoadTable table, Connection connection, String database,
                                   String tableName, LongPredicate keys) {
        SortedMap<Long, Map<String, Object>> expected = model.expectedRows(table.name());
        Set<Long> uncertain = model.uncertainKeys(table.name());
        String qualified = LoadStatements.quote(database) + "." + LoadStatements.quote(tableName);
        String sql = "SELECT /* vstream write load: verify */ * FROM " + qualified
                + " ORDER BY " + LoadStatements.quote(table.keyColumn());
        List<RowDifference> kept = new ArrayList<>();
        long[] differences = {0};
        Set<Long> seen = new HashSet<>();
        long skipped = 0;
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.setFetchSize(1000);
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    long key = rows.getLong(table.keyColumn());
                    if (uncertain.contains(key)) {
                        skipped++;
                        continue;
                    }
                    seen.add(key);
                    Map<String, Object> row = keys.test(key) ? expected.get(key) : null;
                    RowDifference difference = row == null ? RowDifference.extra(keyOf(table, key))
                            : compareRow(table, key, row, rows);
                    add(difference, kept, differences);
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Verifying " + qualified + " against the write-load model failed: "
                    + e.getMessage(), e);
        }
        long compared = 0;
        for (Long key : expected.keySet()) {
            if (keys.test(key)) {
                compared++;
                if (!seen.contains(key)) {
                    add(RowDifference.missing(keyOf(table, key)), kept, differences);
                }
            }
        }
        String note = uncertain.isEmpty() ? "" : uncertain.size() + " key(s) with an unknown commit outcome not "
                + "claimed (" + skipped + " present)";
        return new ComparisonResult("write-load model of " + table.name() + " vs " + qualified, compared, 0, 0,
                differences[0], kept, note);
    }

    private static RowDifference compareRow(LoadTable table, long key, Map<String, Object> expected, ResultSet rows)
            throws SQLException {
        List<RowDifference.ColumnDifference> columns = new ArrayList<>();
        for (String column : table.rows().columns()) {
            String want = Values.canonical(expected.get(column));
            String have = Values.canonical(rows.getObject(column));
            if (!Objects.equals(want, have)) {
                columns.add(new RowDifference.ColumnDifference(column, want, have));
            }
        }
        return columns.isEmpty() ? null : RowDifference.different(keyOf(table, key), columns);
    }

    private static void add(RowDifference difference, List<RowDifference> kept, long[] count) {
        if (difference != null) {
            count[0]++;
            if (kept.size() < MAX_KEPT) {
                kept.add(difference);
            }
        }
    }

    private static Map<String, String> keyOf(LoadTable table, long key) {
        return Map.of(table.keyColumn(), Long.toString(key));
    }
}
