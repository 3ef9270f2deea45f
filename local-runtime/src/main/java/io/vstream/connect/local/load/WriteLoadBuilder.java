package io.vstream.connect.local.load;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/** The options of a {@link WriteLoad}; every one has a default except the target. Touches no server. */
public final class WriteLoadBuilder {

    private final Target target;
    private final List<LoadTable> tables = new ArrayList<>();
    private int threads = 1;
    private int keySpace = 10_000;
    private KeyDistribution keys = KeyDistribution.uniform();
    private int minStatements = 1;
    private int maxStatements = 1;
    private double deleteRatio = 0.1;
    private long seed = 1;
    private double transactionsPerSecond;
    private long maxTransactions = Long.MAX_VALUE;
    private Duration duration;
    private boolean failOnError;
    private boolean keepTransactions = true;
    private WriteLoad previous;

    WriteLoadBuilder(Target target) {
        this.target = Objects.requireNonNull(target, "target");
    }

    /**
     * A table to write (call once per table; default: none, so at least one is required). Its own weight, key space,
     * delete ratio and routing, if any, are {@link LoadTable}'s.
     */
    public WriteLoadBuilder table(LoadTable table) {
        tables.add(Objects.requireNonNull(table, "table"));
        return this;
    }

    /** Writer threads (default 1); each owns a disjoint part of the keys, so the model stays exact. */
    public WriteLoadBuilder threads(int count) {
        this.threads = count;
        return this;
    }

    /** Keys are {@code 1..keys} in every table without a key space of its own (default 10,000). */
    public WriteLoadBuilder keySpace(int keys) {
        this.keySpace = keys;
        return this;
    }

    /** Which keys are written (default uniform). */
    public WriteLoadBuilder keys(KeyDistribution distribution) {
        this.keys = Objects.requireNonNull(distribution, "distribution");
        return this;
    }

    /** Statements per transaction, chosen uniformly in {@code [min, max]} (default 1..1). */
    public WriteLoadBuilder statementsPerTransaction(int min, int max) {
        this.minStatements = min;
        this.maxStatements = max;
        return this;
    }

    /**
     * Of the writes that hit an existing row, the fraction that delete it (default 0.1; others update), in every table
     * without a ratio of its own.
     */
    public WriteLoadBuilder deleteRatio(double ratio) {
        if (ratio < 0 || ratio > 1) {
            throw new IllegalArgumentException("deleteRatio must be within [0, 1], was " + ratio);
        }
        this.deleteRatio = ratio;
        return this;
    }

    /** The seed of every random choice (default 1): one thread with one seed always writes the same rows. */
    public WriteLoadBuilder seed(long value) {
        this.seed = value;
        return this;
    }

    /** Target rate of transaction starts over all threads; 0 (the default) is unthrottled. */
    public WriteLoadBuilder transactionsPerSecond(double rate) {
        this.transactionsPerSecond = rate;
        return this;
    }

    /** Stop after this many transaction attempts over all threads (default: no limit). */
    public WriteLoadBuilder maxTransactions(long count) {
        this.maxTransactions = count;
        return this;
    }

    /** Stop after this long (default: no limit). */
    public WriteLoadBuilder duration(Duration limit) {
        this.duration = limit;
        return this;
    }

    /** Stop the load and throw from {@code stop()} on the first error (default false: errors are counted). */
    public WriteLoadBuilder failOnError(boolean fail) {
        this.failOnError = fail;
        return this;
    }

    /** Keep every transaction with its row images (default true; turn off for long benchmarks). */
    public WriteLoadBuilder keepTransactions(boolean keep) {
        this.keepTransactions = keep;
        return this;
    }

    /**
     * Start from the model of {@code previous} (stopped, same tables): its rows and uncertain keys, so that loads run
     * one after another (one per phase, each with its own counters and transaction log) keep one exact model of the
     * tables. Give this load another {@link #seed} so that it does not repeat the previous one's choices.
     */
    public WriteLoadBuilder continueFrom(WriteLoad previous) {
        this.previous = Objects.requireNonNull(previous, "previous");
        return this;
    }

    public WriteLoad build() {
        return new WriteLoad(new LoadSettings(target, tables, threads, keySpace, keys, minStatements,
                maxStatements, deleteRatio, seed, transactionsPerSecond, maxTransactions, duration, failOnError,
                keepTransactions), previous);
    }
}
