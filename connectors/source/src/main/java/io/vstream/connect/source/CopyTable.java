package io.vstream.connect.source;

import java.util.List;

/**
 * A table as the copy phase sees it: its columns (those the binlog row images carry, in table order), the key the
 * copy walks in order (the primary key, or else a unique key over NOT NULL columns) and the server's row estimate.
 */
record CopyTable(String database, String name, List<SourceColumn> columns, List<String> keyColumns,
                 boolean keyIsPrimary, long estimatedRows) {

    int columnIndex(String column) {
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).name().equalsIgnoreCase(column)) {
                return i;
            }
        }
        return -1;
    }
}
