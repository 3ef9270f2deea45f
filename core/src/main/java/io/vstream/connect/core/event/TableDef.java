package io.vstream.connect.core.event;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A source table's shape at one position of the stream: database, table and its columns in table order. The key
 * columns are those flagged {@link ColumnDef#primaryKey()}, in table order unless given explicitly.
 */
public record TableDef(String database, String table, List<ColumnDef> columns, List<String> keyColumns) {
    public TableDef {
        Objects.requireNonNull(database, "database");
        Objects.requireNonNull(table, "table");
        columns = List.copyOf(columns);
        keyColumns = List.copyOf(keyColumns);
    }

    /** A table whose key is its primary-key columns in table order. */
    public static TableDef of(String database, String table, List<ColumnDef> columns) {
        List<String> keys = new ArrayList<>();
        for (ColumnDef c : columns) {
            if (c.primaryKey()) {
                keys.add(c.name());
            }
        }
        return new TableDef(database, table, columns, keys);
    }

    /** The column with this name (case-insensitive, as MySQL compares column names), or {@code null}. */
    public ColumnDef column(String name) {
        for (ColumnDef c : columns) {
            if (c.name().equalsIgnoreCase(name)) {
                return c;
            }
        }
        return null;
    }

    public boolean hasKey() {
        return !keyColumns.isEmpty();
    }
}
