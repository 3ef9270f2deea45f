package io.vstream.connect.core.position;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The one codec between positions and their stored forms: Kafka Connect source partitions and offsets keyed by
 * shard, and the JSON of a whole {@link Vgtid}. Touches no server.
 *
 * <p><b>Source partition</b>: {@code {"keyspace":"ks","shard":"-80"}}, always in that key order (Connect finds
 * an offset by the serialized bytes of its partition, so the order must never vary).
 *
 * <p><b>Source offset</b> (Connect allows only primitive values): {@code v} = 1 (Long), {@code gtid} = the position
 * as Vitess writes it ({@code MariaDB/0-1-42}, {@code MySQL56/<uuid>:1-42} or {@code current}), and, only while
 * copying, {@code copy} = the table lastPKs as a JSON string: {@code [{"table_name":"t","lastpk":{...}}, ...]}.
 *
 * <p><b>VGTID JSON</b>, close to Vitess's:
 * <pre>
 * {"shard_gtids":[{"keyspace":"ks","shard":"-80","gtid":"MariaDB/0-1-42",
 *   "table_p_ks":[{"table_name":"t","lastpk":{"fields":["id","name"],"values":[{"i":"12"},{"s":"x"}]}},
 *                 {"table_name":"u"}]}]}
 * </pre>
 * {@code table_p_ks} is omitted when not copying; {@code lastpk} is omitted (or null) for a table whose copy has not
 * started. A lastPK value is JSON {@code null} or an object with one type tag and a string value, so each type
 * round-trips exactly: {@code i} Long ({@code "12"}), {@code u} BigInteger ({@code "18446744073709551615"}),
 * {@code d} BigDecimal ({@code "12.50"}, scale kept), {@code s} String, {@code b} byte[] (standard base64).
 */
public final class OffsetCodec {

    public static final String KEYSPACE_KEY = "keyspace";
    public static final String SHARD_KEY = "shard";
    public static final String VERSION_KEY = "v";
    public static final String GTID_KEY = "gtid";
    public static final String COPY_KEY = "copy";
    /** The offset format version this codec writes and reads. */
    public static final long VERSION = 1L;

    private OffsetCodec() {
    }

    /** The source partition of {@code keyspace}/{@code shard}: {@code {"keyspace":..,"shard":..}}, in that order. */
    public static Map<String, String> partition(String keyspace, String shard) {
        Map<String, String> partition = new LinkedHashMap<>();
        partition.put(KEYSPACE_KEY, Objects.requireNonNull(keyspace, "keyspace"));
        partition.put(SHARD_KEY, Objects.requireNonNull(shard, "shard"));
        return Collections.unmodifiableMap(partition);
    }

    /** The source partition of {@code shardGtid}'s shard. */
    public static Map<String, String> partition(ShardGtid shardGtid) {
        return partition(shardGtid.keyspace(), shardGtid.shard());
    }

    /** The source offset of {@code shardGtid}: {@code v}, {@code gtid} and, while copying, {@code copy}. */
    public static Map<String, Object> offset(ShardGtid shardGtid) {
        Map<String, Object> offset = new LinkedHashMap<>();
        offset.put(VERSION_KEY, VERSION);
        offset.put(GTID_KEY, shardGtid.gtidText());
        if (shardGtid.isCopying()) {
            offset.put(COPY_KEY, VgtidJson.writeTablePks(shardGtid.tablePks()));
        }
        return Collections.unmodifiableMap(offset);
    }

    /** The JSON of a copy state (table lastPKs), as the {@code copy} offset key and LASTPK events carry it. */
    public static String copyStateJson(List<TableLastPk> tablePks) {
        return VgtidJson.writeTablePks(tablePks);
    }

    /** Reads a copy state written by {@link #copyStateJson}; a malformed one is refused naming the path. */
    public static List<TableLastPk> copyStateFromJson(String json) {
        return VgtidJson.readTablePks(json, "copy");
    }

    /**
     * Reads a stored offset back. A {@code null} offset means no offset is stored for the shard, a normal state the
     * caller handles (from the connector's start configuration) before calling this.
     *
     * @throws MalformedOffsetException naming the partition and the missing or malformed key, with the fix
     */
    public static ShardGtid fromOffset(Map<String, ?> partition, Map<String, ?> offset) {
        Objects.requireNonNull(partition, "partition");
        Objects.requireNonNull(offset, "offset (null means no stored offset: start from the configured position)");
        OffsetLoader loader = new OffsetLoader(partition, offset);
        String keyspace = loader.partitionString(KEYSPACE_KEY);
        String shard = loader.partitionString(SHARD_KEY);
        long version = loader.integer(VERSION_KEY);
        if (version != VERSION) {
            throw loader.malformed(VERSION_KEY, "is " + version + " but this vstream-connect reads version " + VERSION
                    + (version > VERSION ? " (the offset was written by a newer release; upgrade this one)" : ""), null);
        }
        String gtidText = loader.string(GTID_KEY);
        List<TableLastPk> tablePks = loader.optionalString(COPY_KEY)
                .map(json -> copyState(loader, json))
                .orElse(List.of());
        if (ShardGtid.CURRENT.equals(gtidText)) {
            return ShardGtid.current(keyspace, shard, tablePks);
        }
        try {
            return ShardGtid.of(keyspace, shard, GtidPosition.parse(gtidText), tablePks);
        } catch (MalformedPositionException e) {
            throw loader.malformed(GTID_KEY, "is malformed: " + e.getMessage(), e);
        }
    }

    private static List<TableLastPk> copyState(OffsetLoader loader, String json) {
        try {
            return VgtidJson.readTablePks(json, COPY_KEY);
        } catch (MalformedPositionException e) {
            throw loader.malformed(COPY_KEY, "is malformed: " + e.getMessage(), e);
        }
    }

    /** The JSON of {@code vgtid}, in the Vitess shape described above. */
    public static String toJson(Vgtid vgtid) {
        return VgtidJson.write(Objects.requireNonNull(vgtid, "vgtid"));
    }

    /**
     * Reads the JSON written by {@link #toJson(Vgtid)}.
     *
     * @throws MalformedPositionException naming the JSON path and what is wrong there
     */
    public static Vgtid vgtidFromJson(String json) {
        return VgtidJson.read(Objects.requireNonNull(json, "json"));
    }
}
