package io.vstream.connect.quickstart;

import io.vstream.connect.core.keyrange.KeyRange;
import io.vstream.connect.core.vindex.Vindex;
import io.vstream.connect.core.vindex.Vindexes;
import java.util.List;

/**
 * The sample keyspace {@code commerce}: its shards in key-range order and the Vitess {@code hash} vindex that places a
 * row on the shard owning its keyspace id (the same vindex code the connectors use). Pure logic.
 */
final class Keyspace {
    static final String NAME = "commerce";
    private static final Vindex HASH = Vindexes.named("hash");

    private final List<MariaDbShard> shards;
    private final List<KeyRange> ranges;

    Keyspace(List<MariaDbShard> shards) {
        this.shards = List.copyOf(shards);
        this.ranges = shards.stream().map(s -> KeyRange.parse(s.shard())).toList();
    }

    List<MariaDbShard> shards() {
        return shards;
    }

    /** The index of the shard that owns {@code shardingKey} through the hash vindex. */
    int shardOf(long shardingKey) {
        byte[] keyspaceId = HASH.keyspaceId(shardingKey);
        for (int i = 0; i < ranges.size(); i++) {
            if (ranges.get(i).contains(keyspaceId)) {
                return i;
            }
        }
        throw new IllegalStateException("no shard owns key " + shardingKey + ": the shards do not cover the keyspace");
    }

    /** {@code -80=127.0.0.1:3307,80-=127.0.0.1:3308}: the form of the connectors' topology keys. */
    String topology() {
        return String.join(",", shards.stream().map(s -> s.shard() + "=" + s.hostPort()).toList());
    }
}
