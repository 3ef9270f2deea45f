package io.vstream.connect.coordinator.ddl;

import io.vstream.connect.core.sql.SqlIdentifiers;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * What a migration compares between the original table and its ghost: the columns in order (type, nullability,
 * default, generated) and the keys that enforce uniqueness (PRIMARY and UNIQUE, with prefix lengths). Read from
 * information_schema by {@link SchemaReader}; built by hand in tests. Touches no server.
 */
public record TableShape(List<Column> columns, List<UniqueKey> uniqueKeys) {
    public TableShape {
        columns = List.copyOf(columns);
        uniqueKeys = List.copyOf(uniqueKeys);
    }

    /** One column; {@code hasDefault} is false only for a column that has no DEFAULT at all. */
    public record Column(String name, String columnType, String collation, boolean nullable, boolean hasDefault,
                         boolean autoIncrement, boolean generated) {
        /** A NOT NULL column that an INSERT leaving it out cannot fill. */
        boolean needsValue() {
            return !nullable && !hasDefault && !autoIncrement && !generated;
        }
    }

    /** One part of a key: a column ({@code null} for an expression) and its prefix length ({@code null}: whole). */
    public record KeyPart(String column, Integer prefix) {
        @Override
        public String toString() {
            String c = column == null ? "(expression)" : SqlIdentifiers.quote(column);
            return prefix == null ? c : c + "(" + prefix + ")";
        }
    }

    /** A PRIMARY KEY or UNIQUE key. */
    public record UniqueKey(String name, List<KeyPart> parts) {
        public UniqueKey {
            parts = List.copyOf(parts);
        }

        public boolean primary() {
            return "PRIMARY".equalsIgnoreCase(name);
        }

        /** The key as DDL spells it, for messages: {@code PRIMARY KEY (`id`)}, {@code UNIQUE KEY `k` (`a`(10))}. */
        public String describe() {
            String cols = parts.stream().map(KeyPart::toString).collect(Collectors.joining(", ", "(", ")"));
            return primary() ? "PRIMARY KEY " + cols : "UNIQUE KEY " + SqlIdentifiers.quote(name) + " " + cols;
        }
    }

    /** The column named {@code name}, ignoring case as MySQL does for column names. */
    public Optional<Column> column(String name) {
        return columns.stream().filter(c -> c.name().equalsIgnoreCase(name)).findFirst();
    }

    public boolean hasColumn(String name) {
        return column(name).isPresent();
    }
}
