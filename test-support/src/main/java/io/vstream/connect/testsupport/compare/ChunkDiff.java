package io.vstream.connect.testsupport.compare;

import io.vstream.connect.local.compare.RowDifference;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The row-level diff of one chunk whose checksums differ: loads the source rows of the chunk (at most a
 * chunk's worth), streams the target rows of the same key range, and reports rows missing in the target,
 * extra in the target, and rows with different values (by target column name). Reads both servers.
 */
final class ChunkDiff {

    private final ComparedColumns columns;

    ChunkDiff(ComparedColumns columns) {
        this.columns = columns;
    }

    List<RowDifference> diff(List<Object> lower, List<Object> upper) throws SQLException {
        Map<List<String>, List<String>> sourceRows = new LinkedHashMap<>();
        read(columns.source, lower, upper, (key, values) -> sourceRows.put(key, values));
        List<RowDifference> differences = new ArrayList<>();
        read(columns.target, lower, upper, (key, targetValues) -> {
            List<String> sourceValues = sourceRows.remove(key);
            if (sourceValues == null) {
                differences.add(RowDifference.extra(keyMap(key)));
            } else if (!sourceValues.equals(targetValues)) {
                differences.add(RowDifference.different(keyMap(key), columnDifferences(sourceValues, targetValues)));
            }
        });
        sourceRows.keySet().forEach(key -> differences.add(RowDifference.missing(keyMap(key))));
        return differences;
    }

    private List<RowDifference.ColumnDifference> columnDifferences(List<String> source, List<String> target) {
        List<RowDifference.ColumnDifference> out = new ArrayList<>();
        for (int i = 0; i < source.size(); i++) {
            if (!Objects.equals(source.get(i), target.get(i))) {
                out.add(new RowDifference.ColumnDifference(columns.targetNames.get(i), source.get(i), target.get(i)));
            }
        }
        return out;
    }

    private Map<String, String> keyMap(List<String> key) {
        Map<String, String> out = new LinkedHashMap<>();
        for (int i = 0; i < key.size(); i++) {
            out.put(columns.targetNames.get(i), key.get(i));
        }
        return out;
    }

    private interface RowSink {
        void accept(List<String> key, List<String> values);
    }

    private void read(ComparedColumns.SideSql side, List<Object> lower, List<Object> upper, RowSink sink)
            throws SQLException {
        String sql = ChunkQueries.rows(side, lower != null, upper != null);
        try (PreparedStatement statement = side.table().connection().prepareStatement(sql)) {
            ChunkQueries.bind(statement, lower, upper);
            try (ResultSet rows = statement.executeQuery()) {
                int width = side.compared().size();
                while (rows.next()) {
                    List<String> values = new ArrayList<>(width);
                    for (int i = 1; i <= width; i++) {
                        values.add(rows.getString(i));
                    }
                    sink.accept(new ArrayList<>(values.subList(0, columns.keyCount)), values);
                }
            }
        }
    }
}
