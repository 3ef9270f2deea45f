package io.vstream.connect.local.load;

import io.vstream.connect.local.compare.ComparisonResult;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongPredicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A write-load generator: N background threads run inserts, updates and deletes in transactions of one or
 * more statements against a {@link Target} (one server, or shards routed by key, e.g. by a Vitess vindex), at a set
 * rate or flat out, with a seeded, reproducible choice of tables (by their weights), keys and values, bounded by a
 * transaction count, a duration, or {@link #stop()}. It starts from an empty model, a {@link #preload(int)}, the rows
 * the tables already hold ({@link #adoptExistingRows()}) or a previous load's model, and keeps a model of every
 * ACKNOWLEDGED commit (expected final row per key, the ordered transactions with row images and
 * {@code @@last_gtid}, when each key was last written); a commit whose connection was lost during COMMIT is
 * recorded as unknown and its keys are claimed neither way. Errors are counted (thrown only with
 * {@link WriteLoadBuilder#failOnError(boolean)}). The tests', the benchmark's and the quickstart's load. Writes to
 * the target's shards.
 *
 * <pre>{@code
 * try (WriteLoad load = WriteLoad.builder(Target.single(server, db)).table(LoadTable.standard("orders"))
 *         .threads(2).transactionsPerSecond(500).maxTransactions(5_000).seed(42).build()) {
 *     load.createTables().preload(1_000).start().awaitCompletion(Duration.ofMinutes(1));
 *     assertThat(load.verifyAgainst(connection, "orders").isEqual()).isTrue();
 * }
 * }</pre>
 */
public final class WriteLoad implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(WriteLoad.class);

    private final LoadSettings settings;
    private final LoadModel model;
    private final LoadCounters counters = new LoadCounters();
    private final List<Thread> threads = new ArrayList<>();
    private final AtomicReference<Throwable> fatal = new AtomicReference<>();
    private volatile boolean stopRequested;
    private long startedNanos;
    private long stoppedNanos;

    WriteLoad(LoadSettings settings) {
        this(settings, null);
    }

    /** A load whose model starts as {@code previous}'s ended (see {@link WriteLoadBuilder#continueFrom}). */
    WriteLoad(LoadSettings settings, WriteLoad previous) {
        this.settings = settings;
        this.model = new LoadModel(settings.tables(), settings.keepTransactions());
        if (previous != null) {
            if (previous.isRunning()) {
                throw new IllegalStateException("Stop the previous write load before continuing from its model");
            }
            model.adopt(previous.model);
        }
    }

    public static WriteLoadBuilder builder(Target target) {
        return new WriteLoadBuilder(target);
    }

    /** Creates the tables that have DDL (the standard table) on every shard, if absent. */
    public WriteLoad createTables() {
        for (LoadTable table : settings.tables()) {
            if (table.ddlBody() == null) {
                continue;
            }
            for (int shard = 0; shard < settings.target().shardCount(); shard++) {
                try (Connection connection = settings.target().connect(shard);
                     var statement = connection.createStatement()) {
                    statement.execute("CREATE TABLE IF NOT EXISTS " + LoadStatements.quote(table.name()) + " "
                            + table.ddlBody());
                } catch (SQLException e) {
                    throw new IllegalStateException("Creating " + table.name() + " on "
                            + settings.target().describe(shard) + " failed: " + e.getMessage(), e);
                }
            }
        }
        return this;
    }

    /**
     * Inserts keys {@code 1..rows} of every table (at most its key space; those not in the model yet), recorded in the
     * model.
     */
    public synchronized WriteLoad preload(int rows) {
        if (startedNanos != 0) {
            throw new IllegalStateException("Preload before start(): the load threads own the keys once started");
        }
        long begin = System.nanoTime();
        Preloader.preload(settings, model, rows);
        LOG.info("Preloaded {} rows per table in {} ms", rows, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - begin));
        return this;
    }

    /**
     * Takes the rows the tables already hold (keys within each table's key space; written by someone else, e.g. an
     * application's sample data) into the model, as acknowledged, so that the load updates and deletes them as its
     * own. Each row must be on the shard the target's router names for it.
     */
    public synchronized WriteLoad adoptExistingRows() {
        if (startedNanos != 0) {
            throw new IllegalStateException("Adopt the existing rows before start(): the load threads own the keys"
                    + " once started");
        }
        long begin = System.nanoTime();
        long rows = ExistingRows.adopt(settings, model);
        LOG.info("Adopted {} existing rows into the write load's model in {} ms", rows,
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - begin));
        return this;
    }

    /** Starts the load threads; returns at once. */
    public synchronized WriteLoad start() {
        if (startedNanos != 0) {
            throw new IllegalStateException("A write load runs once; build another for a second run");
        }
        startedNanos = System.nanoTime();
        AtomicLong budget = new AtomicLong(settings.maxTransactions());
        long deadline = settings.duration() == null ? Long.MAX_VALUE : startedNanos + settings.duration().toNanos();
        for (int i = 0; i < settings.threads(); i++) {
            LoadWorker worker = new LoadWorker(i, settings, model, counters, budget,
                    () -> stopRequested || System.nanoTime() - deadline >= 0, this::fatal);
            Thread thread = new Thread(worker, "write-load-" + i);
            thread.setDaemon(true);
            threads.add(thread);
        }
        threads.forEach(Thread::start);
        LOG.info("Started a write load: {} thread(s), {} tps target, {} keys ({}), {}..{} statements/transaction,"
                + " tables {}", settings.threads(),
                settings.transactionsPerSecond() > 0 ? settings.transactionsPerSecond() : "max", settings.keySpace(),
                settings.keys(), settings.minStatements(), settings.maxStatements(),
                settings.tables().stream().map(LoadTable::name).toList());
        return this;
    }

    public boolean isRunning() {
        return threads.stream().anyMatch(Thread::isAlive);
    }

    /** Waits until the count or time bound ends the load; fails if that takes longer than {@code timeout}. */
    public LoadStats awaitCompletion(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        for (Thread thread : threads) {
            try {
                thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("Interrupted while waiting for the write load", e);
            }
            if (thread.isAlive()) {
                throw new IllegalStateException("The write load did not finish within " + timeout + ": " + stats());
            }
        }
        return stop();
    }

    /** Stops the threads after their in-flight transaction and returns the final stats. */
    public synchronized LoadStats stop() {
        stopRequested = true;
        for (Thread thread : threads) {
            try {
                thread.join(TimeUnit.MINUTES.toMillis(1));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        if (stoppedNanos == 0 && startedNanos != 0) {
            stoppedNanos = System.nanoTime();
            LOG.info("Stopped the write load: {}", stats());
        }
        Throwable failure = fatal.get();
        if (failure != null) {
            throw new IllegalStateException("The write load failed: " + failure.getMessage(), failure);
        }
        return stats();
    }

    @Override
    public void close() {
        stop();
    }

    /**
     * Waits until the load has committed at least {@code commits} transactions in all; fails when it has not within
     * {@code timeout} or stopped short of them. For tests that let the load run "a while" before a fault.
     */
    public void awaitCommits(long commits, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (stats().commits() < commits) {
            if (System.nanoTime() > deadline || !isRunning()) {
                throw new AssertionError("the load committed " + stats().commits() + " transactions, not "
                        + commits + (isRunning() ? " within " + timeout : " before it ended"));
            }
            Thread.sleep(100);
        }
    }

    public LoadStats stats() {
        long end = stoppedNanos != 0 ? stoppedNanos : System.nanoTime();
        return counters.snapshot(Duration.ofNanos(startedNanos == 0 ? 0 : end - startedNanos));
    }

    /**
     * Failed statements and COMMITs (unknown outcomes included) by the server's error code, e.g. 1213 (deadlock),
     * 1205 (lock wait timeout); a lost connection counts under the driver's code. A duplicate key is a mismatch with
     * the model ({@link LoadStats#mismatches()}), not counted here.
     */
    public SortedMap<Integer, Long> errorsByCode() {
        return counters.errorCodes();
    }

    /** The expected rows (key column included) of the only table, by key; uncertain keys are absent. */
    public SortedMap<Long, Map<String, Object>> expectedRows() {
        return expectedRows(onlyTable().name());
    }

    public SortedMap<Long, Map<String, Object>> expectedRows(String table) {
        return model.expectedRows(table);
    }

    /** Keys of {@code table} the model claims neither way (unknown commit outcome, or unexpected row state). */
    public Set<Long> uncertainKeys(String table) {
        return model.uncertainKeys(table);
    }

    /**
     * Keys of {@code table} whose last transaction by the load's threads (acknowledged, or with an unknown outcome)
     * ended at or after {@code since}, e.g. the rows a migration's cut-over may have left out of the old table. Neither
     * preloaded nor adopted rows count; a failed write (not committed) does not either.
     */
    public Set<Long> keysWrittenSince(String table, Instant since) {
        return model.keysWrittenSince(table, since.toEpochMilli());
    }

    /** Acknowledged transactions (preload included) in acknowledgement order; empty if not kept. */
    public List<LoadTransaction> committedTransactions() {
        return model.transactions(LoadTransaction.Outcome.COMMITTED);
    }

    /** Acknowledged transactions of one shard in commit order (GTID sequence). */
    public List<LoadTransaction> committedTransactions(int shard) {
        return model.committedOn(shard);
    }

    public List<LoadTransaction> unknownOutcomes() {
        return model.transactions(LoadTransaction.Outcome.UNKNOWN);
    }

    /** Compares {@code table} in the connection's current database with the model of the load table of that name (or the only one). */
    public ComparisonResult verifyAgainst(Connection connection, String table) {
        try {
            return verifyAgainst(connection, connection.getCatalog(), table);
        } catch (SQLException e) {
            throw new IllegalStateException("Could not read the current database of the connection", e);
        }
    }

    public ComparisonResult verifyAgainst(Connection connection, String database, String table) {
        return ModelVerifier.verify(model, modelTable(table), connection, database, table, key -> true);
    }

    /** Compares one shard's copy of {@code table} with the model's keys routed to that shard. */
    public ComparisonResult verifyShard(int shard, String table) {
        LoadTable modelTable = modelTable(table);
        LongPredicate owned = key -> settings.shardOf(modelTable, key) == shard;
        try (Connection connection = settings.target().connect(shard)) {
            return ModelVerifier.verify(model, modelTable, connection, connection.getCatalog(), table, owned);
        } catch (SQLException e) {
            throw new IllegalStateException("Could not connect to " + settings.target().describe(shard), e);
        }
    }

    private LoadTable modelTable(String table) {
        return settings.tables().stream().filter(t -> t.name().equals(table)).findFirst()
                .orElseGet(this::onlyTable);
    }

    private LoadTable onlyTable() {
        if (settings.tables().size() != 1) {
            throw new IllegalArgumentException("The write load has several tables; name one");
        }
        return settings.tables().get(0);
    }

    private void fatal(Throwable failure) {
        if (fatal.compareAndSet(null, failure)) {
            LOG.error("The write load stops: {}", failure.toString());
        }
        stopRequested = true;
    }
}
