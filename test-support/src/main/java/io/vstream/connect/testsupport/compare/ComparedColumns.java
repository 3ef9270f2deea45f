package io.vstream.connect.testsupport.compare;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The columns a comparison reads, resolved against both servers' {@code information_schema}: the target
 * key (its primary key unless given) and the compared target columns, each with the SQL that reads it on
 * the target and its mapped expression on the source. Reads metadata from both servers.
 */
final class ComparedColumns {

    final List<String> targetNames;
    final int keyCount;
    final SideSql source;
    final SideSql target;

    private ComparedColumns(List<String> targetNames, int keyCount, SideSql source, SideSql target) {
        this.targetNames = List.copyOf(targetNames);
        this.keyCount = keyCount;
        this.source = source;
        this.target = target;
    }

    /** The SQL one side uses: its table, its key columns, and every compared expression (keys first). */
    record SideSql(TableRef table, List<String> keys, List<String> compared) {
    }

    List<String> keyNames() {
        return targetNames.subList(0, keyCount);
    }

    static ComparedColumns resolve(TableRef source, TableRef target, ColumnMapping mapping, List<String> keyColumns)
            throws SQLException {
        List<String> targetColumns = columns(target);
        if (targetColumns.isEmpty()) {
            throw new IllegalArgumentException("The target table " + target + " does not exist");
        }
        Set<String> sourceColumns = lower(columns(source));
        if (sourceColumns.isEmpty()) {
            throw new IllegalArgumentException("The source table " + source + " does not exist");
        }
        Set<String> known = lower(targetColumns);
        for (String mentioned : mapping.mentionedTargetColumns()) {
            if (!known.contains(mentioned.toLowerCase(Locale.ROOT))) {
                throw new IllegalArgumentException("The column mapping names " + mentioned
                        + ", which the target table " + target + " does not have (it has " + targetColumns + ")");
            }
        }
        List<String> keys = keyColumns.isEmpty() ? primaryKey(target) : keyColumns;
        if (keys.isEmpty()) {
            throw new IllegalArgumentException("The target table " + target
                    + " has no primary key: give the key columns to the comparator");
        }
        List<String> names = new ArrayList<>(keys);
        for (String column : targetColumns) {
            if (!mapping.isExcluded(column) && !containsIgnoreCase(keys, column)) {
                names.add(column);
            }
        }
        List<String> sourceExprs = new ArrayList<>();
        List<String> targetExprs = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            String name = names.get(i);
            String sourceColumn = mapping.sourceColumn(name);
            if (i < keys.size() && sourceColumn == null) {
                throw new IllegalArgumentException("The key column " + name + " of " + target
                        + " must map to a plain source column, not an expression");
            }
            if (sourceColumn != null && !sourceColumns.contains(sourceColumn.toLowerCase(Locale.ROOT))) {
                throw new IllegalArgumentException("The target column " + name + " of " + target
                        + " has no source column " + sourceColumn + " in " + source
                        + ": map it with renamed(source, target), computed(target, expression) or excluded(target)");
            }
            sourceExprs.add(mapping.sourceExpression(name, TableRef::quote));
            targetExprs.add(TableRef.quote(name));
        }
        int keyCount = keys.size();
        return new ComparedColumns(names, keyCount,
                new SideSql(source, sourceExprs.subList(0, keyCount), sourceExprs),
                new SideSql(target, targetExprs.subList(0, keyCount), targetExprs));
    }

    private static List<String> columns(TableRef table) throws SQLException {
        return strings(table, "SELECT COLUMN_NAME FROM information_schema.COLUMNS "
                + "WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? ORDER BY ORDINAL_POSITION");
    }

    private static List<String> primaryKey(TableRef table) throws SQLException {
        return strings(table, "SELECT COLUMN_NAME FROM information_schema.STATISTICS "
                + "WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? AND INDEX_NAME = 'PRIMARY' ORDER BY SEQ_IN_INDEX");
    }

    private static List<String> strings(TableRef table, String sql) throws SQLException {
        try (PreparedStatement statement = table.connection().prepareStatement(sql)) {
            statement.setString(1, table.database());
            statement.setString(2, table.table());
            List<String> out = new ArrayList<>();
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    out.add(rows.getString(1));
                }
            }
            return out;
        }
    }

    private static Set<String> lower(List<String> names) {
        return names.stream().map(n -> n.toLowerCase(Locale.ROOT)).collect(Collectors.toSet());
    }

    private static boolean containsIgnoreCase(List<String> names, String name) {
        return names.stream().anyMatch(n -> n.equalsIgnoreCase(name));
    }
}
