package io.vstream.connect.core.topology;

import io.vstream.connect.core.keyrange.KeyRange;
import java.util.Objects;

/**
 * One entry of a topology, {@code <shard>=<host>:<port>}: a shard's Vitess name (a key range such as {@code -80}),
 * the key range it denotes, and its server. The one parser of that form for every connector.
 */
public record ShardAddress(String name, KeyRange keyRange, String host, int port) {
    public ShardAddress {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(keyRange, "keyRange");
        Objects.requireNonNull(host, "host");
    }

    /**
     * Parses one entry, e.g. {@code -80=db1.example.com:3306}.
     *
     * @throws IllegalArgumentException naming the entry, what is wrong and a valid example
     */
    public static ShardAddress parse(String entry) {
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
            port = Integer.parseInt(address.substring(colon + 1).strip());
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
        return new ShardAddress(shard, range, address.substring(0, colon).strip(), port);
    }

    /** The entry form {@code <shard>=<host>:<port>}. */
    public String format() {
        return name + "=" + host + ":" + port;
    }
}
