package io.vstream.connect.sink;

import io.vstream.connect.core.keyrange.KeyRange;
import io.vstream.connect.core.vindex.Vindex;
import io.vstream.connect.core.vindex.Vindexes;
import java.util.HexFormat;
import java.util.Map;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.ConnectException;

/**
 * Routes a row to the new shard that owns it (reshard mode): the keyspace id is the vindex of the table's sharding
 * column value ({@code reshard.vindex}, {@code reshard.columns}, {@code reshard.column.default}), the owner the new
 * shard whose key range contains it. A row it cannot place (no sharding column configured, the column missing or
 * NULL, a value the vindex cannot map, a keyspace id in no new shard) is an error naming the table, the key and the
 * fix, never a silently dropped row. Pure: touches no server.
 */
final class ShardRouter {
    private final Vindex vindex;
    private final Map<String, String> columns;
    private final String defaultColumn;
    private final ReshardTargets targets;

    ShardRouter(Vindex vindex, Map<String, String> columns, String defaultColumn, ReshardTargets targets) {
        this.vindex = vindex;
        this.columns = Map.copyOf(columns);
        this.defaultColumn = defaultColumn == null ? "" : defaultColumn.strip();
        this.targets = targets;
    }

    static ShardRouter of(SinkSettings s) {
        return new ShardRouter(Vindexes.named(s.vindex()), s.shardingColumns(), s.shardingColumnDefault(),
                ReshardTargets.parse(s.targetEntries()));
    }

    ReshardTargets targets() {
        return targets;
    }

    /** The sharding column of a source table. */
    String column(String table) {
        String c = columns.get(table);
        if (c != null) {
            return c;
        }
        if (!defaultColumn.isEmpty()) {
            return defaultColumn;
        }
        throw new ConnectException("Table " + table + " has no sharding column in reshard mode: add " + table
                + ":<column> to reshard.columns, or set reshard.column.default");
    }

    /** The keyspace id of a row image of {@code table} ({@code key}: the record key, for messages only). */
    byte[] keyspaceId(String table, Struct image, Object key) {
        String column = column(table);
        Field field = field(image, column);
        if (field == null) {
            throw new ConnectException("Row of table " + table + " (key " + key + ") has no column " + column
                    + ", its sharding column in reshard mode: set the right column for " + table
                    + " in reshard.columns (or reshard.column.default)");
        }
        return keyspaceId(table, column, image.get(field), key);
    }

    private byte[] keyspaceId(String table, String column, Object value, Object key) {
        if (value == null) {
            throw new ConnectException("Row of table " + table + " (key " + key + ") has NULL in its sharding column "
                    + column + ", so it belongs to no shard: give it a value on the source, or shard " + table
                    + " by a NOT NULL column (reshard.columns)");
        }
        try {
            return Vindexes.keyspaceIdOfColumn(vindex, value);
        } catch (IllegalArgumentException e) {
            throw new ConnectException("Row of table " + table + " (key " + key + "): the " + vindex.name()
                    + " vindex cannot map sharding column " + column + ": " + e.getMessage() + "; set reshard.vindex"
                    + " to the vindex the keyspace is sharded by, or reshard.columns to another column", e);
        }
    }

    /**
     * Whether a row already on a new shard, whose sharding column holds {@code value} (as the JDBC driver reads it),
     * has its keyspace id in {@code range} (an old shard's).
     */
    boolean holds(KeyRange range, String table, Object value) {
        return range.contains(keyspaceId(table, column(table), value, "read from the target"));
    }

    /** The new shard that owns a row image of {@code table}. */
    ReshardTargets.Shard route(String table, Struct image, Object key) {
        byte[] id = keyspaceId(table, image, key);
        ReshardTargets.Shard owner = targets.owner(id);
        if (owner == null) {
            throw new ConnectException("Row of table " + table + " (key " + key + ") has keyspace id "
                    + HexFormat.of().formatHex(id) + ", which no shard of target.topology holds ("
                    + targets.shards().stream().map(ReshardTargets.Shard::name).toList()
                    + "): list new shards that cover the whole key range");
        }
        return owner;
    }

    private static Field field(Struct image, String column) {
        Field f = image.schema().field(column);
        if (f != null) {
            return f;
        }
        for (Field candidate : image.schema().fields()) {
            if (candidate.name().equalsIgnoreCase(column)) {
                return candidate; // MySQL column names are case-insensitive
            }
        }
        String avro = io.vstream.connect.core.event.FieldNames.avro(column);
        return avro.equals(column) ? null : field(image, avro); // a source naming fields by their Avro form
    }
}
