package io.vstream.connect.local.load;

import java.time.Duration;
import java.util.List;

/**
 * The resolved options of a {@link WriteLoad} (see {@link WriteLoad.Builder} for each one's meaning).
 * Touches no server.
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
        if (threads < 1 || keySpace < threads) {
            throw new IllegalArgumentException("Need at least 1 thread and at least one key per thread, got "
                    + threads + " threads for " + keySpace + " keys");
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

    /** The keys in {@code [1, keySpace]} that thread {@code thread} alone writes, ascending. */
    long[] keysOf(int thread) {
        return java.util.stream.LongStream.rangeClosed(1, keySpace)
                .filter(key -> owner(key, threads) == thread).toArray();
    }

    static int owner(long key, int threads) {
        long mixed = key * 0x9E3779B97F4A7C15L;
        return (int) Math.floorMod(mixed ^ (mixed >>> 32), (long) threads);
    }
}
