package io.vstream.connect.core.position;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * A VGTID: the position of a whole stream, one {@link ShardGtid} per (keyspace, shard), in order. It is the unit of
 * resume: a stream restarted from it neither loses nor repeats a transaction. Immutable.
 */
public record Vgtid(List<ShardGtid> shardGtids) {

    public Vgtid {
        shardGtids = List.copyOf(shardGtids);
        Set<String> seen = new HashSet<>();
        for (ShardGtid sg : shardGtids) {
            if (!seen.add(sg.keyspace() + "/" + sg.shard())) {
                throw new IllegalArgumentException("Shard " + sg.keyspace() + "/" + sg.shard()
                        + " appears twice in a VGTID; it holds one position per shard");
            }
        }
    }

    /** A VGTID of {@code shardGtids}, in that order. */
    public static Vgtid of(ShardGtid... shardGtids) {
        return new Vgtid(List.of(shardGtids));
    }

    /** The entry for {@code keyspace}/{@code shard}, if there is one. */
    public Optional<ShardGtid> shard(String keyspace, String shard) {
        return shardGtids.stream().filter(sg -> sg.isFor(keyspace, shard)).findFirst();
    }

    /** This VGTID with {@code shardGtid} replacing the entry of its shard in place, or appended if new. */
    public Vgtid with(ShardGtid shardGtid) {
        Objects.requireNonNull(shardGtid, "shardGtid");
        List<ShardGtid> next = new ArrayList<>(shardGtids);
        for (int i = 0; i < next.size(); i++) {
            if (next.get(i).isFor(shardGtid.keyspace(), shardGtid.shard())) {
                next.set(i, shardGtid);
                return new Vgtid(next);
            }
        }
        next.add(shardGtid);
        return new Vgtid(next);
    }

    /** This VGTID without the entry of {@code keyspace}/{@code shard} (e.g. a shard retired by a reshard). */
    public Vgtid without(String keyspace, String shard) {
        List<ShardGtid> next = new ArrayList<>(shardGtids);
        next.removeIf(sg -> sg.isFor(keyspace, shard));
        return new Vgtid(next);
    }

    /** True if any shard is still copying. */
    public boolean isCopying() {
        return shardGtids.stream().anyMatch(ShardGtid::isCopying);
    }
}
