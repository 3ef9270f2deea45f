package io.vstream.connect.local.load;

import java.util.List;
import java.util.Objects;
import java.util.function.LongUnaryOperator;

/**
 * A table a {@link WriteLoad} writes: its name, its single integer primary-key column, its
 * {@link RowFactory}, (for the standard table) the DDL that creates it, and how the load treats it among its tables:
 * its share of the statements, its keys, its deletes and the shard of a row. Touches no server.
 *
 * @param name        the table name (unqualified: the target's database is used)
 * @param keyColumn   the primary-key column, holding the load's {@code long} keys
 * @param rows        makes the non-key values
 * @param ddlBody     the part of {@code CREATE TABLE IF NOT EXISTS <name>} after the name, or null if the
 *                    test creates the table itself
 * @param weight      the table's share of the statements, relative to the other tables' (default 1: all alike)
 * @param keySpace    the table's keys are {@code 1..keySpace}; 0 (the default) takes the load's
 * @param deleteRatio of the writes that hit an existing row, the fraction that delete it; NaN (the default) takes the
 *                    load's
 * @param shardingKey the value the target's router places a row by, from the row's key (default: the key itself). For
 *                    a table sharded by another column than its key (a vindex on {@code customer_id}), the value of
 *                    that column, which the {@link RowFactory} must write into the row
 */
public record LoadTable(String name, String keyColumn, RowFactory rows, String ddlBody, int weight, int keySpace,
                        double deleteRatio, LongUnaryOperator shardingKey) {

    public LoadTable {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(keyColumn, "keyColumn");
        Objects.requireNonNull(rows, "rows");
        Objects.requireNonNull(shardingKey, "shardingKey");
        if (weight < 1) {
            throw new IllegalArgumentException("The weight of table " + name + " must be at least 1, was " + weight);
        }
        if (keySpace < 0) {
            throw new IllegalArgumentException("The key space of table " + name + " must be 0 (the load's) or more,"
                    + " was " + keySpace);
        }
        if (deleteRatio < 0 || deleteRatio > 1) {
            throw new IllegalArgumentException("The delete ratio of table " + name + " must be within [0, 1] (or NaN:"
                    + " the load's), was " + deleteRatio);
        }
    }

    /** A table with the load's key space and delete ratio, weight 1, routed by its key. */
    public LoadTable(String name, String keyColumn, RowFactory rows, String ddlBody) {
        this(name, keyColumn, rows, ddlBody, 1, 0, Double.NaN, LongUnaryOperator.identity());
    }

    /** The standard table (see {@link StandardRows}), created by {@link WriteLoad#createTables()}. */
    public static LoadTable standard(String name) {
        return new LoadTable(name, "id", new StandardRows(), StandardRows.DDL);
    }

    /** A table the test creates, written with {@code rows}. */
    public static LoadTable of(String name, String keyColumn, RowFactory rows) {
        return new LoadTable(name, keyColumn, rows, null);
    }

    /** This table with {@code share} of the statements, relative to the other tables' weights. */
    public LoadTable withWeight(int share) {
        return new LoadTable(name, keyColumn, rows, ddlBody, share, keySpace, deleteRatio, shardingKey);
    }

    /** This table with the keys {@code 1..keys} instead of the load's key space. */
    public LoadTable withKeySpace(int keys) {
        return new LoadTable(name, keyColumn, rows, ddlBody, weight, keys, deleteRatio, shardingKey);
    }

    /** This table with its own delete ratio (0: rows are inserted and updated, never deleted). */
    public LoadTable withDeleteRatio(double ratio) {
        return new LoadTable(name, keyColumn, rows, ddlBody, weight, keySpace, ratio, shardingKey);
    }

    /**
     * This table with its rows placed by {@code shardingKeyOfKey(key)} instead of their key: the value of the column a
     * vindex shards the table by. The factory must write that value into the column, and an update must keep it.
     */
    public LoadTable routedBy(LongUnaryOperator shardingKeyOfKey) {
        return new LoadTable(name, keyColumn, rows, ddlBody, weight, keySpace, deleteRatio, shardingKeyOfKey);
    }

    /** The key column then the factory's columns. */
    public List<String> allColumns() {
        List<String> all = new java.util.ArrayList<>();
        all.add(keyColumn);
        all.addAll(rows.columns());
        return all;
    }
}
