package io.vstream.connect.sink;

import java.util.List;
import java.util.Set;

/**
 * A target table as the applier writes it: its qualified name, its key columns (the source's primary key) and the
 * columns that are NOT NULL (where a null temporal value means the zero date).
 */
record TargetTable(String database, String table, List<String> keyColumns, Set<String> notNullColumns) {
    String qualified() {
        return io.vstream.connect.core.sql.SqlIdentifiers.qualify(database, table);
    }
}
