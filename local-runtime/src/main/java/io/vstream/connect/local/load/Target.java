package io.vstream.connect.local.load;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.function.LongToIntFunction;

/**
 * Where a {@link WriteLoad} writes: one or more shards, each reached by a fresh connection to the load's
 * database, and the routing of a row key to its shard (a Vitess vindex plugs in as the router). The load
 * keeps every transaction on one shard.
 */
public interface Target {

    int shardCount();

    /** The shard (0-based, below {@link #shardCount()}) that owns {@code key}. */
    int shardOf(long key);

    /** A new connection to shard {@code shard}, with the load's database selected. */
    Connection connect(int shard) throws SQLException;

    /** For messages, e.g. {@code "shard 1 (mariadbd ...)"}. */
    default String describe(int shard) {
        return "shard " + shard;
    }

    /** One server, one database: every key goes there. */
    static Target single(DatabaseServer server, String database) {
        return sharded(List.of(server), database, key -> 0);
    }

    /** The same database on each server; {@code router} maps a key to a server index. */
    static Target sharded(List<? extends DatabaseServer> servers, String database, LongToIntFunction router) {
        List<DatabaseServer> shards = List.copyOf(servers);
        return new Target() {
            @Override
            public int shardCount() {
                return shards.size();
            }

            @Override
            public int shardOf(long key) {
                int shard = router.applyAsInt(key);
                if (shard < 0 || shard >= shards.size()) {
                    throw new IllegalArgumentException("The router sent key " + key + " to shard " + shard
                            + ", but there are " + shards.size() + " shards");
                }
                return shard;
            }

            @Override
            public Connection connect(int shard) throws SQLException {
                return shards.get(shard).connect(database);
            }

            @Override
            public String describe(int shard) {
                return "shard " + shard + " (" + shards.get(shard) + ", database " + database + ")";
            }
        };
    }

    /** The same database on each server; key {@code k} goes to server {@code floorMod(k, servers.size())}. */
    static Target byModulo(List<? extends DatabaseServer> servers, String database) {
        int count = servers.size();
        return sharded(servers, database, key -> (int) Math.floorMod(key, (long) count));
    }
}
