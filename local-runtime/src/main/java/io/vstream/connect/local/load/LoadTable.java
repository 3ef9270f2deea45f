package io.vstream.connect.local.load;

import java.util.List;
import java.util.Objects;

/**
 * A table a {@link WriteLoad} writes: its name, its single integer primary-key column, its
 * {@link RowFactory}, and (for the standard table) the DDL that creates it. Touches no server.
 *
 * @param name      the table name (unqualified: the target's database is used)
 * @param keyColumn the primary-key column, holding the load's {@code long} keys
 * @param rows      makes the non-key values
 * @param ddlBody   the part of {@code CREATE TABLE IF NOT EXISTS <name>} after the name, or null if the
 *                  test creates the table itself
 */
public record LoadTable(String name, String keyColumn, RowFactory rows, String ddlBody) {

    public LoadTable {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(keyColumn, "keyColumn");
        Objects.requireNonNull(rows, "rows");
    }

    /** The standard table (see {@link StandardRows}), created by {@link WriteLoad#createTables()}. */
    public static LoadTable standard(String name) {
        return new LoadTable(name, "id", new StandardRows(), StandardRows.DDL);
    }

    /** A table the test creates, written with {@code rows}. */
    public static LoadTable of(String name, String keyColumn, RowFactory rows) {
        return new LoadTable(name, keyColumn, rows, null);
    }

    /** The key column then the factory's columns. */
    public List<String> allColumns() {
        List<String> all = new java.util.ArrayList<>();
        all.add(keyColumn);
        all.addAll(rows.columns());
        return all;
    }
}
