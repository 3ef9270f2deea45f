package io.vstream.connect.coordinator.copy;

import io.vstream.connect.core.error.Backoff;
import io.vstream.connect.core.error.ErrorClassifier;
import io.vstream.connect.core.error.ServerErrors;
import io.vstream.connect.core.position.GtidPosition;
import io.vstream.connect.core.position.LastPk;
import io.vstream.connect.core.sql.ValueBinder;
import io.vstream.connect.core.sql.WriterSession;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Copies one key range of the original into the ghost on the shard, chunk after chunk on its own connection: each
 * chunk is one transaction that finds the chunk's upper key, runs the {@code INSERT ... SELECT} and records the new
 * last key and the rows it added in {@link GhostCopyState}. The chunk's size adapts to the target time
 * ({@link ChunkSizer}); it waits while the copy is throttled and keeps to the rate cap. A chunk never waits for a
 * row a writer holds while it holds its own share locks, which is how it would close a deadlock that InnoDB resolves
 * by failing the writer's transaction (the smaller one): it leaves such rows out ({@code SKIP LOCKED}), records the
 * ones the ghost then lacks in its transaction ({@link HeldRows}; looked for only when the range holds more rows than
 * the chunk read) and, once the range's last chunk is in, copies each
 * on its own in a transaction that waits for the writer and holds nothing else. (With unique keys besides the shared one, whose check
 * for rows left out could not tell a held row from a row the key kept out, a chunk that meets a held row is rolled
 * back and tried again smaller.) After {@value #WAIT_AFTER_CONTENDED} chunks in a row that could not be copied so,
 * one waits for its locks. A deadlock, a lock wait timeout
 * or a lost connection is retried (from the state on the shard, so a chunk whose commit was lost is not copied twice).
 * When the ghost has unique keys besides the shared one, a chunk that left a row out is tried again once the applier
 * has applied what the server had committed then (the stream may hold the change that frees the value); a row that
 * stays out fails the copy with the server's error for it, naming the key. Anything else the server refuses (a value
 * the new type cannot hold) fails the copy at once with the server's error.
 */
final class RangeCopy {
    private static final Logger LOG = LoggerFactory.getLogger(RangeCopy.class);
    private static final int LOCK_WAIT_TIMEOUT_S = 10;
    private static final int MAX_UNIQUE_CONFLICTS = 3;
    /**
     * After this many chunks in a row met a held row (a writer keeps a row of the range locked), the next chunk waits
     * for its locks (at most {@value #LOCK_WAIT_TIMEOUT_S} s) rather than failing at once.
     */
    private static final int WAIT_AFTER_CONTENDED = 20;
    /**
     * A chunk that left out more rows than this (a writer holds much of the range, e.g. a large transaction) is rolled
     * back and tried again smaller rather than recording them all to copy one by one.
     */
    private static final int MAX_HELD_ROWS = 1_000;
    /** How long one try to copy a held row waits for its writer. */
    private static final int HELD_ROW_WAIT_S = 1;
    private static final long LOG_HELD_EVERY_NANOS = 10_000_000_000L;
    private static final long MAX_BACKOFF_MS = 10_000;
    private static final long APPLIER_WAIT_MS = 600_000;

    private final GhostCopier copier;
    private final GhostCopyStatements sql;
    private final int rangeNo;
    private final ChunkSizer sizer;
    private int conflicts;
    private int contended; // chunks in a row that met a row a writer held

    RangeCopy(GhostCopier copier, GhostCopyState.Range range) {
        this.copier = copier;
        this.sql = copier.statements();
        this.rangeNo = range.no();
        GhostCopySettings s = copier.settings();
        this.sizer = new ChunkSizer(s.chunkTarget().toNanos(), s.maxChunkRows());
    }

    void run() throws InterruptedException {
        Backoff backoff = new Backoff(100, MAX_BACKOFF_MS);
        while (!copier.stopped()) {
            try (Connection c = copier.connections().open()) {
                prepare(c);
                copyRange(c);
                return;
            } catch (SQLException e) {
                if (copier.stopped()) {
                    return;
                }
                String fatal = fatal(e);
                if (fatal != null) {
                    copier.fail(fatal);
                    return;
                }
                long wait = backoff.failed();
                LOG.warn("Migration {}: shard {}: key range {}: a chunk failed ({}); retrying in {} ms (attempt {})",
                        copier.plan().migration(), copier.shard(), rangeNo, e.toString(), wait, backoff.failures());
                Thread.sleep(wait);
            }
        }
    }

    /** The session a chunk needs: read committed (no gap locks), a bounded row-lock wait, the applier's SQL mode. */
    private static void prepare(Connection c) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute(WriterSession.SET_READ_COMMITTED);
            st.execute("SET SESSION innodb_lock_wait_timeout = " + LOCK_WAIT_TIMEOUT_S);
            st.execute(WriterSession.SET_UTC);
            st.execute(WriterSession.SET_SQL_MODE);
        }
        c.setAutoCommit(false);
    }

    private void copyRange(Connection c) throws SQLException, InterruptedException {
        GhostCopyState.Range range = reload(c);
        LastPk last = range.last();
        List<Object> end = range.end() == null ? null : range.end().values();
        boolean done = range.chunksDone();
        long started = System.nanoTime();
        long rowsHere = 0;
        int chunks = 0;
        int heldRows = 0; // rows a writer held when their chunk read them, copied on their own at the range's end
        int rolledBack = 0; // chunks rolled back: too many held rows, a lock wait timeout or a deadlock
        long findNanos = 0; // in the boundary queries
        long commitNanos = 0; // in the commits
        while (!done && !copier.stopped()) {
            copier.awaitGo();
            if (copier.stopped()) {
                return;
            }
            int size = sizer.size();
            long begin = System.nanoTime();
            LastPk upper = boundary(c, last, end, size);
            findNanos += System.nanoTime() - begin;
            boolean full = upper != null;
            List<Object> to = full ? upper.values() : end;
            List<Object> from = last == null ? null : last.values();
            GhostCopyStatements.Locking locking = locking();
            int rows;
            try (PreparedStatement ps = c.prepareStatement(sql.insert(last != null, to != null, locking))) {
                bind(ps, GhostCopyStatements.rangeArgs(from, to));
                rows = ps.executeUpdate();
            } catch (SQLException e) {
                if (e.getErrorCode() != ServerErrors.LOCK_WAIT_TIMEOUT && e.getErrorCode() != ServerErrors.DEADLOCK) {
                    throw e;
                }
                contended(c); // NOWAIT met a held row, or (waiting, or on the ghost) a lock timeout or a deadlock
                rolledBack++;
                continue;
            }
            List<LastPk> held = List.of();
            if (locking == GhostCopyStatements.Locking.SKIP_LOCKED) {
                held = lacking(c, from, to, MAX_HELD_ROWS + 1);
                if (held.size() > MAX_HELD_ROWS) {
                    contended(c); // a writer holds much of the range: smaller, and in the end waiting
                    rolledBack++;
                    continue;
                }
            } else if (copier.checkMissing()) {
                List<LastPk> keptOut = lacking(c, from, to, 1); // another unique key kept a row out
                if (!keptOut.isEmpty()) {
                    keptOut(c, keptOut.get(0));
                    continue;
                }
            }
            LastPk next = full ? upper : range.end() != null ? range.end() : last;
            if (!held.isEmpty()) {
                HeldRows.record(c, copier.stateDb(), copier.plan().migration(), copier.plan().table(), rangeNo, held);
            }
            GhostCopyState.advance(c, copier.stateDb(), copier.plan().migration(), copier.plan().table(), rangeNo,
                    next, rows, !full);
            long committing = System.nanoTime();
            c.commit();
            commitNanos += System.nanoTime() - committing;
            conflicts = 0;
            contended = 0;
            if (full) {
                sizer.observe(size, System.nanoTime() - begin);
            }
            last = next;
            rowsHere += rows;
            chunks++;
            copier.pace(rows);
            heldRows += held.size();
            done = !full;
        }
        if (!done || copier.stopped()) {
            return;
        }
        // the chunks are all in; the range is done once the rows they left out are in too
        rowsHere += copyHeld(c);
        if (chunks > 0 && !copier.stopped()) {
            long ms = (System.nanoTime() - started) / 1_000_000;
            LOG.info("Migration {}: shard {}: key range {} copied: {} rows in {} chunks ({} rows a writer held copied"
                    + " on their own after the last chunk, {} chunks rolled back), {} ms ({} rows/s, last chunk size {};"
                    + " {} ms finding chunk ends, {} ms committing)", copier.plan().migration(), copier.shard(),
                    rangeNo, rowsHere, chunks, heldRows, rolledBack, ms, ms == 0 ? rowsHere : rowsHere * 1000 / ms,
                    sizer.size(), findNanos / 1_000_000, commitNanos / 1_000_000);
        }
    }

    /**
     * How the next chunk takes its share locks: leaving out the rows writers hold; but without waiting (failing on a
     * held row) when the ghost has a unique key besides the shared one, whose check for rows the chunk left out could
     * not tell a held row from one that key kept out, or when the server cannot skip locked rows (MariaDB before
     * 10.6); and waiting after {@value #WAIT_AFTER_CONTENDED} chunks in a
     * row could not be copied so.
     */
    private GhostCopyStatements.Locking locking() {
        if (contended >= WAIT_AFTER_CONTENDED) {
            return GhostCopyStatements.Locking.WAIT;
        }
        return copier.checkMissing() || !sql.skipsLocked() ? GhostCopyStatements.Locking.NOWAIT
                : GhostCopyStatements.Locking.SKIP_LOCKED;
    }

    /** Rolls the chunk back; the next one is half as large and comes a moment later. */
    private void contended(Connection c) throws SQLException, InterruptedException {
        c.rollback();
        contended++;
        sizer.contended();
        Thread.sleep(Math.min(200, 5L * contended));
    }

    /**
     * Copies the rows of this range that its chunks left out because a writer held them (recorded in
     * {@link HeldRows}, also by an earlier coordinator), once its last chunk is in: by then the writers have mostly
     * let them go. Each in its own transaction that waits for the writer (holding no other lock of the original
     * meanwhile, in waits of {@value #HELD_ROW_WAIT_S} s so that a stop is not held up) and deletes the row's record;
     * a row the writer deleted is no longer there to copy. Returns the rows copied.
     */
    private long copyHeld(Connection c) throws SQLException, InterruptedException {
        List<HeldRows.Held> held = HeldRows.load(c, copier.stateDb(), copier.plan().migration(), rangeNo);
        c.commit();
        if (held.isEmpty()) {
            return 0;
        }
        try (Statement st = c.createStatement()) {
            st.execute("SET SESSION innodb_lock_wait_timeout = " + HELD_ROW_WAIT_S);
        }
        try {
            return copyHeld(c, held);
        } finally {
            try (Statement st = c.createStatement()) {
                st.execute("SET SESSION innodb_lock_wait_timeout = " + LOCK_WAIT_TIMEOUT_S);
            }
        }
    }

    private long copyHeld(Connection c, List<HeldRows.Held> held) throws SQLException {
        long copied = 0;
        for (HeldRows.Held h : held) {
            long waitingSince = System.nanoTime();
            long loggedAt = waitingSince;
            while (!copier.stopped()) {
                int rows;
                try (PreparedStatement ps = c.prepareStatement(sql.copyOne())) {
                    bind(ps, h.key().values());
                    rows = ps.executeUpdate();
                } catch (SQLException e) {
                    if (e.getErrorCode() != ServerErrors.LOCK_WAIT_TIMEOUT && e.getErrorCode() != ServerErrors.DEADLOCK) {
                        throw e;
                    }
                    c.rollback();
                    if (System.nanoTime() - loggedAt >= LOG_HELD_EVERY_NANOS) {
                        loggedAt = System.nanoTime();
                        LOG.info("Migration {}: shard {}: key range {}: a writer has held a row for {} s; the range is"
                                + " done once it lets the row go", copier.plan().migration(), copier.shard(), rangeNo,
                                (loggedAt - waitingSince) / 1_000_000_000L);
                    }
                    continue;
                }
                if (HeldRows.release(c, copier.stateDb(), h.id())) {
                    GhostCopyState.count(c, copier.stateDb(), copier.plan().migration(), rangeNo, rows);
                    c.commit();
                    copied += rows;
                } else {
                    c.rollback(); // copied and counted by a copier that was stopping
                }
                break;
            }
        }
        return copied;
    }

    /** The keys of the rows of {@code (from, to]} the ghost lacks, in key order, at most {@code limit}. */
    private List<LastPk> lacking(Connection c, List<Object> from, List<Object> to, int limit) throws SQLException {
        List<LastPk> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(sql.lacking(from != null, to != null, limit))) {
            bind(ps, GhostCopyStatements.rangeArgs(from, to));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(copier.keyOf(rs));
                }
            }
        }
        return out;
    }

    /** The key {@code size} rows after {@code last} within the range, or null when the range ends sooner. */
    private LastPk boundary(Connection c, LastPk last, List<Object> end, int size) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql.boundary(last != null, end != null, size))) {
            bind(ps, GhostCopyStatements.rangeArgs(last == null ? null : last.values(), end));
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? copier.keyOf(rs) : null;
            }
        }
    }

    private GhostCopyState.Range reload(Connection c) throws SQLException {
        for (GhostCopyState.Range r : GhostCopyState.load(c, copier.stateDb(), copier.plan().migration())) {
            if (r.no() == rangeNo) {
                c.commit();
                return r;
            }
        }
        throw new SQLException("the copy state of migration " + copier.plan().migration() + " has no key range "
                + rangeNo + " (was the migration cancelled?)");
    }

    /**
     * A unique key of the ghost other than the shared one kept a row of the chunk out (the chunk's transaction is
     * still open). That can pass: the stream may hold the change that frees the value, so the chunk is rolled back and
     * tried again once the applier has applied what the server had committed then. After
     * {@value #MAX_UNIQUE_CONFLICTS} such tries the row is inserted on its own with a plain INSERT within the chunk,
     * whose error names the key and ends the copy.
     */
    private void keptOut(Connection c, LastPk row) throws SQLException, InterruptedException {
        if (++conflicts > MAX_UNIQUE_CONFLICTS) {
            try (PreparedStatement ps = c.prepareStatement(sql.insertOne())) {
                bind(ps, row.values());
                ps.executeUpdate();
            } finally {
                c.rollback();
            }
            conflicts = 0; // it went in after all: the value was freed meanwhile; the next try copies the chunk
            return;
        }
        c.rollback();
        String committed = "MariaDB/" + one(c, "SELECT @@GLOBAL.gtid_binlog_pos");
        c.commit();
        LOG.info("Migration {}: shard {}: key range {}: a unique key of the ghost kept a row out; trying again once"
                + " the applier has applied {}", copier.plan().migration(), copier.shard(), rangeNo, committed);
        long deadline = System.currentTimeMillis() + APPLIER_WAIT_MS;
        GtidPosition target = GtidPosition.parse(committed);
        while (!copier.stopped() && System.currentTimeMillis() < deadline) {
            String applied = copier.applied().read(c);
            c.commit();
            if (applied != null && GtidPosition.parse(applied).contains(target)) {
                return;
            }
            Thread.sleep(200);
        }
    }

    /** The name of the key a duplicate-entry message names ("... for key 'u_sku'"; MySQL 8: 'table.u_sku'). */
    static String duplicateKey(String message) {
        if (message == null) {
            return null;
        }
        int at = message.lastIndexOf("for key '");
        if (at < 0) {
            return null;
        }
        int from = at + "for key '".length();
        int to = message.indexOf('\'', from);
        String key = to < 0 ? message.substring(from) : message.substring(from, to);
        int dot = key.lastIndexOf('.');
        return dot < 0 ? key : key.substring(dot + 1);
    }

    /** The reason a failure ends the copy, or null when it is worth another try. */
    private String fatal(SQLException e) {
        if (e.getErrorCode() == ServerErrors.DUPLICATE_KEY) {
            String key = duplicateKey(e.getMessage());
            return "rows of " + copier.plan().table() + " cannot go into " + copier.plan().ghostTable() + ": a"
                    + " duplicate on its unique key " + (key == null ? "?" : "'" + key + "'") + " (error 1062), also"
                    + " after the applier caught up; the original table is untouched: remove the duplicates or drop"
                    + " the unique key from the ALTER, cancel and start the migration again";
        }
        if (ErrorClassifier.isAccessDenied(e)) {
            return "the server refused the copy: " + e.getMessage() + " (error " + e.getErrorCode() + "); grant the"
                    + " coordinator's account what it names (docs/online-ddl.md lists the grants)";
        }
        if (ErrorClassifier.isRetriable(e)) {
            return null;
        }
        return "the server refused rows of " + copier.plan().table() + " for " + copier.plan().ghostTable() + ": "
                + e.getMessage() + " (error "
                + e.getErrorCode() + "); the original table is untouched: fix the ALTER (or the rows it cannot"
                + " hold), cancel and start the migration again";
    }

    private static String one(Connection c, String query) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(query)) {
            return rs.next() ? rs.getString(1) : null;
        }
    }

    private static void bind(PreparedStatement ps, List<Object> args) throws SQLException {
        for (int i = 0; i < args.size(); i++) {
            ValueBinder.bind(ps, i + 1, args.get(i));
        }
    }
}
