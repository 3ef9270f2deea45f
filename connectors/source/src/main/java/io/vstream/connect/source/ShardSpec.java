package io.vstream.connect.source;

import io.vstream.connect.core.keyrange.KeyRange;
import java.util.Objects;

/**
 * One shard of the keyspace as the topology names it: its Vitess shard name (a key range such as {@code -80}), the
 * key range that name denotes, and the MySQL/MariaDB server to read its binlog from.
 */
public record ShardSpec(String name, KeyRange keyRange, String host, int port) {
    public ShardSpec {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(keyRange, "keyRange");
        Objects.requireNonNull(host, "host");
    }

    /**
     * Parses one topology entry {@code <shard>=<host>:<port>}, e.g. {@code -80=db1.example.com:3306}.
     *
     * @throws IllegalArgumentException naming the entry and a valid example
     */
    public static ShardSpec parse(String entry) {
        io.vstream.connect.core.topology.ShardAddress a = io.vstream.connect.core.topology.ShardAddress.parse(entry);
        return new ShardSpec(a.name(), a.keyRange(), a.host(), a.port());
    }

    /** The entry form {@code <shard>=<host>:<port>}. */
    public String format() {
        return name + "=" + host + ":" + port;
    }
}
