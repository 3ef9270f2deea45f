package io.vstream.connect.coordinator.copy;

import io.vstream.connect.coordinator.cutover.ConnectionFactory;
import io.vstream.connect.jdbc.MigrationPlans;
import io.vstream.connect.core.position.LastPk;
import io.vstream.connect.core.sql.KeyValues;
import io.vstream.connect.core.sql.SqlTag;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fills one shard's ghost table from the original on the shard itself (the server copy of an online ALTER): splits
 * the table into key ranges once (their progress in {@link GhostCopyState}, on the shard), then copies them
 * {@code threads} at a time, each on its own connection ({@link RangeCopy}), until every range is done. The
 * coordinator's round tells it to wait (a throttle, with the reason) or go on, and reads its failure; the rows copied
 * are read from the shard. Only the changes travel through Kafka: the applier writes them into the ghost meanwhile.
 */
public final class GhostCopier implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(GhostCopier.class);
    private static final long ROWS_PER_RANGE_AT_LEAST = 20_000;

    /** What the applier of this shard has applied, as a GTID position (null: nothing yet). */
    @FunctionalInterface
    public interface AppliedPosition {
        String read(Connection c) throws SQLException;
    }

    private final String shard;
    private final ConnectionFactory connections;
    private final MigrationPlans.Plan plan;
    private final String stateDb;
    private final GhostCopySettings settings;
    private final AppliedPosition applied;
    private volatile GhostCopyStatements statements; // in the server's dialect, once start() has asked it
    private volatile int parallel; // key ranges copied at once, once start() has asked the server
    private final List<Thread> threads = new ArrayList<>();
    private final ConcurrentLinkedQueue<GhostCopyState.Range> pending = new ConcurrentLinkedQueue<>();
    private final java.util.concurrent.atomic.AtomicInteger working = new java.util.concurrent.atomic.AtomicInteger();
    private volatile KeyBuild building;
    private volatile boolean rangesCopied; // every key range is copied (the deferred keys may still be building)
    private volatile String throttle;
    private volatile String failure;
    private volatile boolean stopped;
    private long paceNanos; // guarded by this: when the rate cap lets the next rows go
    private boolean checkMissing;

    public GhostCopier(String shard, ConnectionFactory connections, MigrationPlans.Plan plan, String stateDb,
                       GhostCopySettings settings, AppliedPosition applied) {
        this.shard = shard;
        this.connections = connections;
        this.plan = plan;
        this.stateDb = stateDb;
        this.settings = settings;
        this.applied = applied;
    }

    /**
     * Plans the ranges (the first time: a restarted copy takes the plan on the shard) and starts copying the ranges
     * that are not done. Returns at once.
     */
    public void start() throws SQLException {
        List<GhostCopyState.Range> ranges;
        try (Connection c = connections.open()) {
            GhostCopyStatements.Dialect dialect = GhostCopyStatements.Dialect.of(version(c));
            statements = new GhostCopyStatements(plan, dialect);
            parallel = settings.threadsFor(dialect.mariaDb() ? processors(c) : 0);
            GhostCopyState.ensure(c, stateDb);
            ranges = GhostCopyState.load(c, stateDb, plan.migration());
            if (ranges.isEmpty()) {
                List<LastPk> splits = splits(c);
                GhostCopyState.plan(c, stateDb, plan.migration(), plan.table(), splits);
                ranges = GhostCopyState.load(c, stateDb, plan.migration());
                LOG.info("Migration {}: shard {}: copying {} into {} on the shard in {} key range(s), {} at a time{}",
                        plan.migration(), shard, plan.table(), plan.ghostTable(), ranges.size(), parallel,
                        settings.threads() == 0 ? " (ddl.copy.threads=0: one per processor of the server, at most "
                                + GhostCopySettings.AUTO_MAX_THREADS + ")" : "");
            } else {
                LOG.info("Migration {}: shard {}: resuming the copy of {} ({} of {} key ranges done, {} rows)",
                        plan.migration(), shard, plan.table(), ranges.stream().filter(GhostCopyState.Range::done)
                                .count(), ranges.size(), ranges.stream().mapToLong(GhostCopyState.Range::rowsCopied)
                                .sum());
            }
            checkMissing = otherUniqueKeys(c);
        }
        ranges.stream().filter(r -> !r.done()).forEach(pending::add);
        int n = Math.max(1, Math.min(parallel, pending.size())); // one, to build the keys, when all done
        working.set(n);
        for (int i = 0; i < n; i++) {
            Thread t = new Thread(this::work, "ghost-copy-" + plan.migration() + "-" + shard + "-" + i);
            t.setDaemon(true);
            threads.add(t);
            t.start();
        }
    }

    /**
     * The processors of a MariaDB server: {@code thread_pool_size}, whose default is their count (a DBA who set it
     * sized the server's own thread groups by them); 0 when the server does not say.
     */
    private static int processors(Connection c) {
        try (java.sql.Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT @@thread_pool_size")) {
            return rs.next() ? rs.getInt(1) : 0;
        } catch (SQLException e) {
            return 0;
        }
    }

    private static String version(Connection c) throws SQLException {
        try (java.sql.Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT VERSION()")) {
            return rs.next() ? rs.getString(1) : null;
        }
    }

    /** Copies ranges while there are; the last thread to finish builds the keys deferred until after the copy. */
    private void work() {
        GhostCopyState.Range r;
        while (!stopped && (r = pending.poll()) != null) {
            try {
                new RangeCopy(this, r).run();
            } catch (InterruptedException e) {
                working.decrementAndGet();
                return;
            } catch (RuntimeException e) {
                fail("the copy of key range " + r.no() + " stopped: " + e);
            }
        }
        if (working.decrementAndGet() == 0 && !stopped && failure == null) {
            rangesCopied = true; // the checksum may start while the keys are built
            try {
                new KeyBuild(this).run();
            } catch (RuntimeException e) {
                fail("building the keys deferred until after the copy stopped: " + e);
            }
        }
    }

    /**
     * Split keys that cut the table into {@code threads} ranges of about the same number of rows (by the server's
     * estimate of the rows, each found by its offset in key order); none for a small table or a single thread.
     */
    private List<LastPk> splits(Connection c) throws SQLException {
        List<LastPk> out = new ArrayList<>();
        long rows = estimatedRows(c);
        int ranges = (int) Math.min(parallel, rows / ROWS_PER_RANGE_AT_LEAST);
        for (int i = 1; i < ranges; i++) {
            long offset = rows * i / ranges;
            try (PreparedStatement ps = c.prepareStatement(statements.boundary(false, false, (int) Math.min(
                    Integer.MAX_VALUE, offset + 1))); ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    break;
                }
                LastPk key = keyOf(rs);
                if (!out.isEmpty() && out.get(out.size() - 1).equals(key)) {
                    continue;
                }
                out.add(key);
            }
        }
        return out;
    }

    private long estimatedRows(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(SqlTag.tag(GhostCopyStatements.TAG, "SELECT TABLE_ROWS FROM"
                + " information_schema.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?"))) {
            ps.setString(1, plan.database());
            ps.setString(2, plan.table());
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Math.max(0, rs.getLong(1)) : 0;
            }
        }
    }

    /**
     * Whether the ghost has a unique key besides the one over the shared key: a duplicate on it would keep a row of
     * a chunk out, so each chunk is checked for the rows the ghost lacks.
     */
    private boolean otherUniqueKeys(Connection c) throws SQLException {
        String shared = String.join(",", plan.keyColumns()).toLowerCase(Locale.ROOT);
        try (PreparedStatement ps = c.prepareStatement(SqlTag.tag(GhostCopyStatements.TAG, "SELECT"
                + " GROUP_CONCAT(COLUMN_NAME ORDER BY SEQ_IN_INDEX SEPARATOR ',') FROM information_schema.STATISTICS"
                + " WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? AND NON_UNIQUE = 0 GROUP BY INDEX_NAME"))) {
            ps.setString(1, plan.database());
            ps.setString(2, plan.ghostTable());
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    if (!rs.getString(1).toLowerCase(Locale.ROOT).equals(shared)) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    LastPk keyOf(ResultSet rs) throws SQLException {
        LastPk.Builder b = LastPk.builder();
        List<String> key = statements.originalKey();
        for (int i = 0; i < key.size(); i++) {
            b.add(key.get(i), KeyValues.read(rs, i + 1));
        }
        return b.build();
    }

    /** Asks the copy to wait, with the reason, or (null) to go on; takes effect before the next chunk. */
    public void throttle(String reason) {
        this.throttle = reason;
    }

    /** Why the copy cannot go on (the migration must fail), or null. */
    public String failure() {
        return failure;
    }

    /** Whether every key range has been copied by this copier (the keys deferred until after it may be building). */
    public boolean rangesCopied() {
        return rangesCopied;
    }

    /** Whether every thread has finished (every range done, or the copy failed or was stopped). */
    public boolean finished() {
        return threads.stream().noneMatch(Thread::isAlive);
    }

    /**
     * Stops copying (a chunk in flight commits or rolls back as a whole; a key build in flight is killed) and waits a
     * while for the threads.
     */
    @Override
    public void close() {
        stopped = true;
        KeyBuild b = building;
        if (b != null) {
            b.kill();
        }
        threads.forEach(Thread::interrupt);
        for (Thread t : threads) {
            try {
                t.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    // what the range copies share

    String shard() {
        return shard;
    }

    MigrationPlans.Plan plan() {
        return plan;
    }

    String stateDb() {
        return stateDb;
    }

    GhostCopySettings settings() {
        return settings;
    }

    GhostCopyStatements statements() {
        return statements;
    }

    ConnectionFactory connections() {
        return connections;
    }

    AppliedPosition applied() {
        return applied;
    }

    /** Whether each chunk must be checked for rows the ghost lacks (another unique key may keep one out). */
    boolean checkMissing() {
        return checkMissing;
    }

    boolean stopped() {
        return stopped;
    }

    /** The key build in flight (null: none), for {@link #close()} to kill. */
    void building(KeyBuild build) {
        this.building = build;
    }

    void fail(String why) {
        if (failure == null) {
            failure = why;
            LOG.error("Migration {}: shard {}: the copy failed: {}", plan.migration(), shard, why);
        }
        stopped = true;
    }

    /** Waits while the coordinator throttles the copy. */
    void awaitGo() throws InterruptedException {
        while (throttle != null && !stopped) {
            Thread.sleep(200);
        }
    }

    /** Holds the caller back so that the shard copies at most {@code max.rows.per.second} (0: no cap). */
    void pace(long rows) throws InterruptedException {
        long rate = settings.maxRowsPerSecond();
        if (rate <= 0 || rows <= 0) {
            return;
        }
        long wait;
        synchronized (this) {
            long now = System.nanoTime();
            paceNanos = Math.max(paceNanos, now) + rows * 1_000_000_000L / rate;
            wait = paceNanos - now;
        }
        if (wait > 0) {
            Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
        }
    }
}
