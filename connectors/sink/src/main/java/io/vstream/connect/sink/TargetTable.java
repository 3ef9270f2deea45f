package io.vstream.connect.sink;

import io.vstream.connect.core.mapping.ColumnMapping;
import java.util.List;
import java.util.Set;

/**
 * A target table as the applier writes it: its qualified name, its key columns (target names), the NOT NULL columns
 * (where a null temporal value means the zero date), and, for a ghost table, the column mapping from the source
 * table (renamed columns, dropped ones) plus whether a unique key the migration adds must fail on duplicates, and
 * its generated columns (lower case), which are never written; and how its rows' fields are named back to the source
 * columns ({@link OriginalNames}).
 */
record TargetTable(String database, String table, List<String> keyColumns, Set<String> notNullColumns,
                   ColumnMapping mapping, boolean strictUnique, Set<String> generatedColumns, OriginalNames names) {

    TargetTable(String database, String table, List<String> keyColumns, Set<String> notNullColumns,
                Set<String> generatedColumns, OriginalNames names) {
        this(database, table, keyColumns, notNullColumns, null, false, generatedColumns, names);
    }

    /**
     * The target column a source column's value is written to; {@code null} when the target drops the column or
     * computes it (a generated column: the server refuses a value for it, and derives its own from the row).
     */
    String writtenColumn(String sourceColumn) {
        String target = targetName(sourceColumn);
        return target == null || generatedColumns.contains(target.toLowerCase(java.util.Locale.ROOT)) ? null : target;
    }

    String qualified() {
        return io.vstream.connect.core.sql.SqlIdentifiers.qualify(database, table);
    }

    /** The target column of a source column, or {@code null} when the target drops it. */
    String targetName(String sourceColumn) {
        return mapping == null ? sourceColumn : mapping.target(sourceColumn);
    }

    /** The source column a target column comes from. */
    String sourceName(String targetColumn) {
        if (mapping == null) {
            return targetColumn;
        }
        for (var e : mapping.shared().entrySet()) {
            if (e.getValue().equalsIgnoreCase(targetColumn)) {
                return e.getKey();
            }
        }
        return targetColumn;
    }
}
