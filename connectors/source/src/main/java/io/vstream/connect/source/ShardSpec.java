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
        String e = entry.strip();
        int eq = e.indexOf('=');
        if (eq <= 0) {
            throw new IllegalArgumentException("Topology entry '" + entry + "' must be <shard>=<host>:<port>,"
                    + " e.g. -80=127.0.0.1:3306");
        }
        String shard = e.substring(0, eq).strip();
        String address = e.substring(eq + 1).strip();
        int colon = address.lastIndexOf(':');
        if (colon <= 0 || colon == address.length() - 1) {
            throw new IllegalArgumentException("Topology entry '" + entry + "': address '" + address
                    + "' must be <host>:<port>, e.g. 127.0.0.1:3306");
        }
        int port;
        try {
            port = Integer.parseInt(address.substring(colon + 1));
        } catch (NumberFormatException ex) {
            throw new IllegalArgumentException("Topology entry '" + entry + "': port '"
                    + address.substring(colon + 1) + "' is not a number");
        }
        if (port <= 0 || port > 65535) {
            throw new IllegalArgumentException("Topology entry '" + entry + "': port " + port + " is out of range");
        }
        KeyRange range;
        try {
            range = KeyRange.parse(shard);
        } catch (IllegalArgumentException ex) {
            throw new IllegalArgumentException("Topology entry '" + entry + "': shard name is not a key range: "
                    + ex.getMessage());
        }
        return new ShardSpec(shard, range, address.substring(0, colon), port);
    }

    /** The entry form {@code <shard>=<host>:<port>}. */
    public String format() {
        return name + "=" + host + ":" + port;
    }
}
