package io.vstream.connect.coordinator.cutover;

import io.vstream.connect.testsupport.db.MariaDbServer;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Test tables and load for the cut-over ITs: an original table {@code t} with rows and a ghost {@code _t_gho} with
 * one more column and the same rows; writer and reader threads that count every error by vendor code; and a
 * {@link MirrorApplier} that copies acknowledged writes into the ghost table on its own connection, standing in for
 * the applier (a trigger cannot: LOCK TABLES would lock the tables its trigger uses too). Touches the test servers it
 * is given.
 */
final class CutOverFixture {
    static final int ROWS = 500;
    static final long FIRST_LOAD_ID = 1_000_000;

    private CutOverFixture() {
    }

    /** Creates {@code t} (ROWS rows) and {@code _t_gho} (the same rows, plus a column {@code extra}). */
    static void createTables(MariaDbServer server, String db) {
        StringBuilder rows = new StringBuilder();
        for (int i = 1; i <= ROWS; i++) {
            rows.append(i == 1 ? "" : ",").append('(').append(i).append(",'v").append(i).append("')");
        }
        server.execute(db,
                "CREATE TABLE t (id BIGINT NOT NULL PRIMARY KEY, v VARCHAR(32)) ENGINE=InnoDB",
                "INSERT INTO t (id, v) VALUES " + rows,
                "CREATE TABLE _t_gho (id BIGINT NOT NULL PRIMARY KEY, v VARCHAR(32), extra INT NULL) ENGINE=InnoDB",
                "INSERT INTO _t_gho (id, v) SELECT id, v FROM t");
    }

    static CutOverTables tables(String db) {
        return CutOverTables.of(db, "t", "_t_gho");
    }

    static ConnectionFactory connections(MariaDbServer server) {
        return () -> server.connect(null);
    }

    /** Fast settings for tests: one attempt, short timeouts. */
    static CutOverSettings settings() {
        return CutOverSettings.DEFAULTS.withRetries(1, Duration.ofMillis(100), Duration.ofMillis(100));
    }

    /** Whether {@code db.table} has a column {@code extra} (the ghost's shape). */
    static boolean hasExtraColumn(MariaDbServer server, String db, String table) {
        return server.queryLong(null, "SELECT COUNT(*) FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ?"
                + " AND TABLE_NAME = ? AND COLUMN_NAME = 'extra'", db, table) == 1;
    }

    static boolean exists(MariaDbServer server, String db, String table) {
        return server.queryLong(null, "SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = ?"
                + " AND TABLE_NAME = ?", db, table) == 1;
    }

    /** Tables of {@code db} carrying a cut-over sentry comment. */
    static long sentries(MariaDbServer server, String db) {
        return server.queryLong(null, "SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = ?"
                + " AND TABLE_COMMENT LIKE ?", db, CutOverTables.SENTRY_COMMENT_PREFIX + "%");
    }

    /** A write to {@code db.t} that may wait at most 1 s for a lock: proves no cut-over lock is left. */
    static void writeWithin1s(MariaDbServer server, String db, long id) throws SQLException {
        try (Connection c = server.connect(db); Statement st = c.createStatement()) {
            st.execute("SET SESSION lock_wait_timeout = 1, innodb_lock_wait_timeout = 1");
            st.execute("INSERT INTO t (id, v) VALUES (" + id + ", 'after')");
        }
    }

    /** Writer and reader threads on {@code db.t} of one server (writers only on a primary). */
    static final class Load implements AutoCloseable {
        final Set<Long> acked = ConcurrentHashMap.newKeySet();
        final Map<Integer, AtomicLong> errors = new ConcurrentHashMap<>();
        final List<String> errorSamples = java.util.Collections.synchronizedList(new ArrayList<>());
        final AtomicLong reads = new AtomicLong();
        final AtomicLong writes = new AtomicLong();
        final AtomicLong maxWriteNanos = new AtomicLong();
        final AtomicLong maxReadNanos = new AtomicLong();
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final AtomicLong nextId;
        private final List<Thread> threads = new ArrayList<>();
        private final java.util.function.LongConsumer onAck;
        private final int writers;
        private final int readers;
        /** How many more writes and reads {@link #awaitProgress} waits for, and for how long at most. */
        private static final int PROGRESS = 20;
        private static final Duration PROGRESS_BOUND = Duration.ofSeconds(60);

        Load(MariaDbServer server, String db, int writers, int readers, long firstId) {
            this(server, db, writers, readers, firstId, id -> { });
        }

        Load(MariaDbServer server, String db, int writers, int readers, long firstId,
             java.util.function.LongConsumer onAck) {
            this.nextId = new AtomicLong(firstId);
            this.onAck = onAck;
            this.writers = writers;
            this.readers = readers;
            for (int i = 0; i < writers; i++) {
                threads.add(thread("writer-" + i, () -> writeLoop(server, db)));
            }
            for (int i = 0; i < readers; i++) {
                threads.add(thread("reader-" + i, () -> readLoop(server, db)));
            }
            threads.forEach(Thread::start);
        }

        private Thread thread(String name, Runnable body) {
            Thread t = new Thread(body, "load-" + name);
            t.setDaemon(true);
            return t;
        }

        private void writeLoop(MariaDbServer server, String db) {
            try (Connection c = server.connect(db);
                 PreparedStatement ps = c.prepareStatement("INSERT INTO t (id, v) VALUES (?, 'load')")) {
                session(c);
                while (running.get()) {
                    long id = nextId.getAndIncrement();
                    long begin = System.nanoTime();
                    try {
                        ps.setLong(1, id);
                        ps.executeUpdate();
                        acked.add(id);
                        onAck.accept(id);
                        writes.incrementAndGet();
                    } catch (SQLException e) {
                        error(e);
                    }
                    maxWriteNanos.accumulateAndGet(System.nanoTime() - begin, Math::max);
                }
            } catch (SQLException e) {
                error(e);
            }
        }

        private void readLoop(MariaDbServer server, String db) {
            try (Connection c = server.connect(db);
                 PreparedStatement ps = c.prepareStatement("SELECT v FROM t WHERE id = ?")) {
                session(c);
                while (running.get()) {
                    long begin = System.nanoTime();
                    try {
                        ps.setLong(1, 1 + ThreadLocalRandom.current().nextInt(ROWS));
                        try (ResultSet rs = ps.executeQuery()) {
                            if (!rs.next()) {
                                errorSamples.add("a reader found no row");
                            }
                        }
                        reads.incrementAndGet();
                    } catch (SQLException e) {
                        error(e);
                    }
                    maxReadNanos.accumulateAndGet(System.nanoTime() - begin, Math::max);
                }
            } catch (SQLException e) {
                error(e);
            }
        }

        private static void session(Connection c) throws SQLException {
            try (Statement st = c.createStatement()) {
                st.execute("SET SESSION lock_wait_timeout = 30");
            }
        }

        private void error(SQLException e) {
            errors.computeIfAbsent(e.getErrorCode(), k -> new AtomicLong()).incrementAndGet();
            if (errorSamples.size() < 20) {
                errorSamples.add(e.getErrorCode() + ": " + e.getMessage());
            }
        }

        /**
         * Waits until the load has acknowledged {@value #PROGRESS} more writes and done as many more reads (of the
         * kinds it runs) than when called: the cut-over runs while the load runs, before and after it, whatever the
         * machine's speed.
         */
        void awaitProgress() throws InterruptedException {
            long w = writes.get() + (writers > 0 ? PROGRESS : 0);
            long r = reads.get() + (readers > 0 ? PROGRESS : 0);
            long deadline = System.nanoTime() + PROGRESS_BOUND.toNanos();
            while (writes.get() < w || reads.get() < r) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("the load made no progress within " + PROGRESS_BOUND + ": " + stats());
                }
                Thread.sleep(10);
            }
        }

        long errorCount(int code) {
            AtomicLong n = errors.get(code);
            return n == null ? 0 : n.get();
        }

        @Override
        public void close() throws InterruptedException {
            running.set(false);
            for (Thread t : threads) {
                t.join(35_000);
            }
        }

        String stats() {
            return "writes " + writes + " (max " + maxWriteNanos.get() / 1_000_000 + " ms), reads " + reads
                    + " (max " + maxReadNanos.get() / 1_000_000 + " ms), errors " + errors + " " + errorSamples;
        }
    }

    /**
     * Copies acknowledged writes of {@code t} into {@code _t_gho} every few milliseconds, like an applier streaming
     * the binlog. Its {@link #barrier()} stops the copying, waits briefly for acknowledgements of writes committed
     * before the lock to be recorded, copies the rest and returns: the applier is caught up and idle.
     */
    static final class MirrorApplier implements AutoCloseable {
        private final java.util.concurrent.ConcurrentLinkedQueue<Long> pending =
                new java.util.concurrent.ConcurrentLinkedQueue<>();
        private final Object copying = new Object();
        private final Connection connection;
        private final Thread thread;
        private volatile boolean paused;
        private volatile boolean running = true;
        final AtomicLong copied = new AtomicLong();

        MirrorApplier(MariaDbServer server, String db) throws SQLException {
            connection = server.connect(db);
            thread = new Thread(() -> {
                while (running) {
                    if (!paused) {
                        synchronized (copying) {
                            copyPending();
                        }
                    }
                    try {
                        Thread.sleep(10);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }, "mirror-applier");
            thread.setDaemon(true);
            thread.start();
        }

        void acked(long id) {
            pending.add(id);
        }

        ApplierBarrier barrier() {
            return (position, timeout) -> {
                paused = true;
                Thread.sleep(20);
                synchronized (copying) {
                    copyPending();
                }
            };
        }

        private void copyPending() {
            List<Long> batch = new ArrayList<>();
            for (Long id = pending.poll(); id != null; id = pending.poll()) {
                batch.add(id);
            }
            if (batch.isEmpty()) {
                return;
            }
            StringBuilder sql = new StringBuilder("INSERT INTO _t_gho (id, v) VALUES ");
            for (int i = 0; i < batch.size(); i++) {
                sql.append(i == 0 ? "" : ",").append('(').append(batch.get(i)).append(",'load')");
            }
            try (Statement st = connection.createStatement()) {
                st.execute(sql.toString());
                copied.addAndGet(batch.size());
            } catch (SQLException e) {
                throw new IllegalStateException("the mirror applier failed: " + e.getMessage(), e);
            }
        }

        @Override
        public void close() throws Exception {
            running = false;
            thread.join(5_000);
            connection.close();
        }
    }
}
