package io.vstream.connect.local.load;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLTransientConnectionException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * One thread of a {@link WriteLoad}: plans transactions from its seeded random over the keys it alone owns,
 * runs each on one shard, records acknowledged commits (with {@code @@last_gtid}) in the model and marks
 * keys of commits with an unknown outcome as uncertain (never writing them again). Reconnects after
 * connection loss. Writes to the target's shards.
 */
final class LoadWorker implements Runnable {

    private static final int PLAN_ATTEMPTS = 16;
    private static final long RECONNECT_BACKOFF_MILLIS = 100;

    private final int index;
    private final LoadSettings settings;
    private final LoadModel model;
    private final LoadCounters counters;
    private final AtomicLong budget;
    private final BooleanSupplier stopRequested;
    private final Consumer<Throwable> onFatal;
    private final Map<String, long[]> keys = new HashMap<>();
    private final Random random;
    private final Connection[] connections;
    private final Pacer pacer;
    private long sequence;

    LoadWorker(int index, LoadSettings settings, LoadModel model, LoadCounters counters, AtomicLong budget,
               BooleanSupplier stopRequested, Consumer<Throwable> onFatal) {
        this.index = index;
        this.settings = settings;
        this.model = model;
        this.counters = counters;
        this.budget = budget;
        this.stopRequested = stopRequested;
        this.onFatal = onFatal;
        Map<Integer, long[]> byKeySpace = new HashMap<>();
        for (LoadTable table : settings.tables()) {
            keys.put(table.name(), byKeySpace.computeIfAbsent(settings.keySpace(table),
                    space -> settings.keysOf(index, space)));
        }
        this.random = new Random(settings.seed() * 1_000_003L + index);
        this.connections = new Connection[settings.target().shardCount()];
        double perThread = settings.transactionsPerSecond() / settings.threads();
        this.pacer = new Pacer(perThread > 0 ? (long) (1e9 / perThread) : 0);
    }

    @Override
    public void run() {
        try {
            while (!stopRequested.getAsBoolean() && budget.getAndDecrement() > 0) {
                if (!pacer.await(stopRequested)) {
                    break;
                }
                runOne();
            }
        } catch (RuntimeException | Error e) {
            onFatal.accept(e);
        } finally {
            for (int shard = 0; shard < connections.length; shard++) {
                close(shard);
            }
        }
    }

    private void runOne() {
        sequence++;
        List<RowChange> changes = plan();
        if (changes.isEmpty()) {
            return;
        }
        int shard = settings.shardOf(settings.table(changes.get(0).table()), changes.get(0).key());
        long started = System.nanoTime();
        Connection connection;
        try {
            connection = connection(shard);
            for (RowChange change : changes) {
                int affected = LoadStatements.execute(connection, settings.table(change.table()), change);
                if (affected != 1) {
                    mismatch(changes, change + " affected " + affected + " rows");
                    rollback(shard);
                    return;
                }
            }
        } catch (SQLException e) {
            failed(shard, changes, e);
            return;
        }
        long commitStarted = System.nanoTime();
        try {
            connection.commit();
        } catch (SQLException e) {
            long now = System.nanoTime();
            counters.unknownOutcomes.incrementAndGet();
            counters.errorCode(e.getErrorCode());
            counters.noteFirstError("COMMIT on " + settings.target().describe(shard) + ": " + e.getMessage());
            model.uncertain(new LoadTransaction(shard, null, index, sequence, changes,
                    LoadTransaction.Outcome.UNKNOWN, now - commitStarted, now - started));
            close(shard);
            fatalIfConfigured(e);
            return;
        }
        long acknowledged = System.nanoTime();
        LoadTransaction committed = new LoadTransaction(shard, lastGtid(shard), index, sequence, changes,
                LoadTransaction.Outcome.COMMITTED, acknowledged - commitStarted, acknowledged - started);
        model.committed(committed);
        counters.commits.incrementAndGet();
        counters.countRows(committed);
        counters.commitLatency.record(committed.commitNanos());
        counters.transactionLatency.record(committed.durationNanos());
    }

    private List<RowChange> plan() {
        int statements = settings.minStatements()
                + random.nextInt(settings.maxStatements() - settings.minStatements() + 1);
        Map<String, Map<Long, Map<String, Object>>> pending = new HashMap<>();
        List<RowChange> changes = new ArrayList<>(statements);
        int shard = -1;
        for (int i = 0; i < statements; i++) {
            RowChange change = planOne(shard, pending);
            if (change != null) {
                changes.add(change);
                shard = settings.shardOf(settings.table(change.table()), change.key());
                pending.computeIfAbsent(change.table(), t -> new HashMap<>()).put(change.key(), change.after());
            }
        }
        return changes;
    }

    private RowChange planOne(int shard, Map<String, Map<Long, Map<String, Object>>> pending) {
        LoadTable table = settings.pickTable(random);
        long[] owned = keys.get(table.name());
        for (int attempt = 0; attempt < PLAN_ATTEMPTS; attempt++) {
            long key = owned[settings.keys().pick(random, owned.length, settings.threads())];
            if (model.isUncertain(table.name(), key)
                    || (shard >= 0 && settings.shardOf(table, key) != shard)) {
                continue;
            }
            Map<Long, Map<String, Object>> inTransaction = pending.getOrDefault(table.name(), Map.of());
            Map<String, Object> current = inTransaction.containsKey(key) ? inTransaction.get(key)
                    : model.row(table.name(), key);
            if (current == null) {
                return new RowChange(table.name(), RowChange.Op.INSERT, key, null,
                        image(table, key, table.rows().insert(key, random)));
            }
            if (random.nextDouble() < settings.deleteRatio(table)) {
                return new RowChange(table.name(), RowChange.Op.DELETE, key, current, null);
            }
            return new RowChange(table.name(), RowChange.Op.UPDATE, key, current,
                    image(table, key, table.rows().update(key, current, random)));
        }
        return null;
    }

    static Map<String, Object> image(LoadTable table, long key, Map<String, Object> values) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put(table.keyColumn(), key);
        for (String column : table.rows().columns()) {
            row.put(column, values.get(column));
        }
        return row;
    }

    private Connection connection(int shard) throws SQLException {
        if (connections[shard] == null) {
            Connection connection = settings.target().connect(shard);
            connection.setAutoCommit(false);
            connections[shard] = connection;
        }
        return connections[shard];
    }

    private String lastGtid(int shard) {
        try (Statement statement = connections[shard].createStatement();
             ResultSet result = statement.executeQuery("SELECT /* vstream write load */ @@last_gtid")) {
            return result.next() ? result.getString(1) : null;
        } catch (SQLException e) {
            close(shard);
            return null;
        }
    }

    /** ER_OPTION_PREVENTS_STATEMENT: the server runs with --read-only. */
    private static final int READ_ONLY = 1290;

    private void failed(int shard, List<RowChange> changes, SQLException e) {
        if (e.getErrorCode() == 1062) {
            mismatch(changes, "duplicate key: " + e.getMessage());
        } else {
            counters.error(settings.target().describe(shard) + ": " + e.getMessage());
            counters.errorCode(e.getErrorCode());
        }
        if (isConnectionLoss(e)) {
            close(shard);
            sleep(RECONNECT_BACKOFF_MILLIS);
        } else if (e.getErrorCode() == READ_ONLY) {
            // the server no longer takes writes (a reshard switched the shard away): connect again, which asks the
            // target where the key's shard lives now
            close(shard);
            sleep(RECONNECT_BACKOFF_MILLIS);
        } else {
            rollback(shard);
        }
        fatalIfConfigured(e);
    }

    /** A row was not as the model said: its true state is unknown, so no key of the transaction is claimed. */
    private void mismatch(List<RowChange> changes, String what) {
        counters.mismatches.incrementAndGet();
        counters.noteFirstError("the model did not expect: " + what);
        changes.forEach(change -> model.markUncertain(change.table(), change.key()));
        fatalIfConfigured(new IllegalStateException("Row state differs from the write-load model: " + what));
    }

    private void fatalIfConfigured(Exception e) {
        if (settings.failOnError()) {
            onFatal.accept(e);
        }
    }

    static boolean isConnectionLoss(SQLException e) {
        String state = e.getSQLState();
        return e instanceof SQLNonTransientConnectionException || e instanceof SQLTransientConnectionException
                || (state != null && state.startsWith("08"));
    }

    private void rollback(int shard) {
        try {
            if (connections[shard] != null) {
                connections[shard].rollback();
            }
        } catch (SQLException e) {
            close(shard);
        }
    }

    private void close(int shard) {
        Connection connection = connections[shard];
        connections[shard] = null;
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException ignored) {
                // the connection is gone either way
            }
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
