package io.vstream.connect.local.load;

import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.stream.LongStream;

/**
 * The resolved options of a {@link WriteLoad} (see {@link WriteLoadBuilder} for each one's meaning), with what a
 * table of its own overrides (see {@link LoadTable}). Touches no server.
 */
record LoadSettings(Target target, List<LoadTable> tables, int threads, int keySpace, KeyDistribution keys,
                    int minStatements, int maxStatements, double deleteRatio, long seed,
                    double transactionsPerSecond, long maxTransactions, Duration duration, boolean failOnError,
                    boolean keepTransactions) {

    LoadSettings {
        tables = List.copyOf(tables);
        if (tables.isEmpty()) {
            throw new IllegalArgumentException("A write load needs at least one table");
        }
        if (threads < 1) {
            throw new IllegalArgumentException("Need at least 1 thread, got " + threads);
        }
        for (LoadTable table : tables) {
            int tableKeys = table.keySpace() > 0 ? table.keySpace() : keySpace; // the fields are not set yet
            if (tableKeys < threads) {
                throw new IllegalArgumentException("Need at least one key per thread, got " + threads + " threads for "
                        + tableKeys + " keys of table " + table.name());
            }
        }
        if (minStatements < 1 || maxStatements < minStatements) {
            throw new IllegalArgumentException("Statements per transaction must be 1 <= min <= max, got "
                    + minStatements + ".." + maxStatements);
        }
    }

    LoadTable table(String name) {
        return tables.stream().filter(t -> t.name().equals(name)).findFirst().orElseThrow(
                () -> new IllegalArgumentException("The write load has no table " + name));
    }

    /** A table by weight: with equal weights {@code random.nextInt(tables)}, one draw as ever. */
    LoadTable pickTable(Random random) {
        int pick = random.nextInt(tables.stream().mapToInt(LoadTable::weight).sum());
        for (LoadTable table : tables) {
            pick -= table.weight();
            if (pick < 0) {
                return table;
            }
        }
        throw new IllegalStateException("unreachable: the pick is below the weights' sum");
    }

    /** The table's key space, or the load's. */
    int keySpace(LoadTable table) {
        return table.keySpace() > 0 ? table.keySpace() : keySpace;
    }

    /** The table's delete ratio, or the load's. */
    double deleteRatio(LoadTable table) {
        return Double.isNaN(table.deleteRatio()) ? deleteRatio : table.deleteRatio();
    }

    /** The shard of the table's row with this key: the target's router on the row's sharding key. */
    int shardOf(LoadTable table, long key) {
        return target.shardOf(table.shardingKey().applyAsLong(key));
    }

    /** The keys in {@code [1, keys]} that thread {@code thread} alone writes, ascending. */
    long[] keysOf(int thread, int keys) {
        return LongStream.rangeClosed(1, keys).filter(key -> owner(key, threads) == thread).toArray();
    }

    static int owner(long key, int threads) {
        long mixed = key * 0x9E3779B97F4A7C15L;
        return (int) Math.floorMod(mixed ^ (mixed >>> 32), (long) threads);
    }
}
