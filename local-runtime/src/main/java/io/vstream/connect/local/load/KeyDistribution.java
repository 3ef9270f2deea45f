package io.vstream.connect.local.load;

import java.util.Random;

/**
 * Which keys a {@link WriteLoad} thread touches: a position in the (sorted) list of keys the thread owns.
 * {@link #uniform()} spreads writes evenly; {@link #hot(double, int)} sends a fraction of writes to a few
 * hot keys, for lock contention and repeated changes of one row. Touches no server.
 */
public interface KeyDistribution {

    /**
     * A position in {@code [0, size)}.
     *
     * @param random  the thread's seeded random
     * @param size    how many keys the thread owns
     * @param threads how many threads share the key space (hot keys are split between them)
     */
    int pick(Random random, int size, int threads);

    static KeyDistribution uniform() {
        return new KeyDistribution() {
            @Override
            public int pick(Random random, int size, int threads) {
                return random.nextInt(size);
            }

            @Override
            public String toString() {
                return "uniform";
            }
        };
    }

    /** {@code hotFraction} of writes go to {@code hotKeys} keys (in all), the rest uniformly to all keys. */
    static KeyDistribution hot(double hotFraction, int hotKeys) {
        if (hotFraction < 0 || hotFraction > 1 || hotKeys < 1) {
            throw new IllegalArgumentException("hot keys need 0 <= fraction <= 1 and at least 1 key, got "
                    + hotFraction + " and " + hotKeys);
        }
        return new KeyDistribution() {
            @Override
            public int pick(Random random, int size, int threads) {
                int hotPerThread = Math.max(1, Math.min(size, (hotKeys + threads - 1) / threads));
                return random.nextDouble() < hotFraction ? random.nextInt(hotPerThread) : random.nextInt(size);
            }

            @Override
            public String toString() {
                return "hot(" + hotFraction + " of writes to " + hotKeys + " keys)";
            }
        };
    }
}
