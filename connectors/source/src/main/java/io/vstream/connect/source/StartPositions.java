package io.vstream.connect.source;

import io.vstream.connect.core.position.OffsetCodec;
import io.vstream.connect.core.position.ShardGtid;
import io.vstream.connect.core.position.Vgtid;
import io.vstream.connect.core.topology.ShardAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Reads {@code start.position}: a VGTID in JSON with one entry per shard of the topology. */
final class StartPositions {
    private StartPositions() {
    }

    /** The problems of a start position for this keyspace and topology; empty when it is usable. */
    static List<String> validate(String json, String keyspace, List<ShardAddress> shards) {
        List<String> problems = new ArrayList<>();
        if (json == null || json.isBlank()) {
            problems.add("start.mode is 'position' but start.position is empty: give a VGTID such as"
                    + " {\"shard_gtids\":[{\"keyspace\":\"ks\",\"shard\":\"-80\",\"gtid\":\"MariaDB/0-1-42\"}]}");
            return problems;
        }
        Vgtid vgtid;
        try {
            vgtid = OffsetCodec.vgtidFromJson(json);
        } catch (RuntimeException e) {
            problems.add("start.position is not a valid VGTID: " + e.getMessage());
            return problems;
        }
        for (ShardAddress s : shards) {
            if (keyspace != null && vgtid.shard(keyspace, s.name()).isEmpty()) {
                problems.add("start.position has no entry for shard '" + s.name() + "' of keyspace '" + keyspace
                        + "'; add {\"keyspace\":\"" + keyspace + "\",\"shard\":\"" + s.name() + "\",\"gtid\":...}");
            }
        }
        return problems;
    }

    /** The configured start of one shard, if the VGTID names it. */
    static Optional<ShardGtid> forShard(String json, String keyspace, String shard) {
        if (json == null || json.isBlank()) {
            return Optional.empty();
        }
        return OffsetCodec.vgtidFromJson(json).shard(keyspace, shard);
    }
}
