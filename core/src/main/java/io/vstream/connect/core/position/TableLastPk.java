package io.vstream.connect.core.position;

import java.util.Objects;

/**
 * The copy progress of one table on one shard: the {@link LastPk} of the last row copied, or {@code null} when the
 * table's copy has not started yet (the table is still to be copied from its first row).
 */
public record TableLastPk(String table, LastPk lastPk) {

    public TableLastPk {
        Objects.requireNonNull(table, "table");
        if (table.isBlank()) {
            throw new IllegalArgumentException("A table name in a VGTID must not be blank");
        }
    }

    /** A table whose copy has not started yet. */
    public static TableLastPk notStarted(String table) {
        return new TableLastPk(table, null);
    }

    /** True if at least one chunk of this table has been copied. */
    public boolean isStarted() {
        return lastPk != null;
    }
}
