package io.vstream.connect.coordinator.cutover;

import io.vstream.connect.coordinator.cutover.CutOverResult.Outcome;
import io.vstream.connect.core.error.ServerErrors;
import io.vstream.connect.core.sql.SqlIdentifiers;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Watches connection B's RENAME from the control connection, so that the lock is released only when the RENAME is
 * sure to go first: before it is issued, that nothing holds the ghost table; then that B waits on the metadata
 * lock ({@code information_schema.PROCESSLIST}, which needs no performance_schema) while A still lives, and on which
 * table. The RENAME takes its locks in name order, so when the ghost's name sorts before the table's (gh-ost's
 * {@code _t_gho} before {@code t}) it must hold the ghost's lock before it can queue on the table: a session that took
 * the ghost's lock after the probe (InnoDB's purge and statistics threads take it too, for moments) leaves it waiting
 * there, and an unlock then lets the queued writes reach the original table before the RENAME (an OnlineDdlIT run
 * lost four acknowledged writes so). Where performance_schema instruments metadata locks the pending lock names the
 * table; else, on MariaDB, a definition read that must not wait tells whether B holds the ghost's exclusive lock.
 * Either way the watch waits for it. Touches the shard (reads, one {@code LOCK TABLES ghost WRITE} probe and
 * definition reads).
 */
final class RenameWatch {
    private static final long POLL_MILLIS = 5;

    /** How the watch can tell which table the RENAME waits on. */
    enum Sight {
        /** performance_schema's metadata_locks names the pending lock. */
        INSTRUMENTED,
        /** MariaDB without the instrument: the ghost's name sorts first, so B must be seen holding its lock. */
        GHOST_HELD_PROBE,
        /** Only the sentry A holds may sort before the table: B waiting on a metadata lock waits on one of those. */
        NAME_ORDER,
        /** MySQL without the instrument and a ghost that sorts first: B's wait cannot be placed (a warning says so). */
        BLIND
    }

    private final CutOverTables tables;
    private final Sight sight;
    private final long lockId;
    private final long renameId;
    private final CompletableFuture<Void> rename;
    private final long restoreLockWaitSeconds;

    RenameWatch(CutOverTables tables, Sight sight, long lockId, long renameId, CompletableFuture<Void> rename,
                long restoreLockWaitSeconds) {
        this.tables = tables;
        this.sight = sight;
        this.lockId = lockId;
        this.renameId = renameId;
        this.rename = rename;
        this.restoreLockWaitSeconds = restoreLockWaitSeconds;
    }

    /**
     * How a watch on this server sees B's wait: {@code mdlInstrumented} (performance_schema's metadata-lock
     * instrument on), {@code ghostLocksFirst} (the ghost's name sorts before the table's in lock order).
     */
    static Sight sight(boolean mdlInstrumented, boolean ghostLocksFirst, boolean mariaDb) {
        if (mdlInstrumented) {
            return Sight.INSTRUMENTED;
        }
        if (!ghostLocksFirst) {
            return Sight.NAME_ORDER;
        }
        return mariaDb ? Sight.GHOST_HELD_PROBE : Sight.BLIND;
    }

    /**
     * Fails unless the ghost table is free: a RENAME whose first lock (in name order) is the ghost's would wait there
     * instead of on the table, and unlocking would let writes reach the original table (gh-ost's hole). The probe
     * takes and releases a write lock with a 1 s timeout; {@code restoreLockWaitSeconds} is set again afterwards.
     */
    static void probeGhostIdle(Connection control, CutOverTables tables, long restoreLockWaitSeconds)
            throws SQLException, CutOverAttempt.Abort {
        String ghost = SqlIdentifiers.qualify(tables.database(), tables.ghost());
        try {
            ServerTables.execute(control, "SET SESSION lock_wait_timeout = 1");
            ServerTables.execute(control, "LOCK TABLES " + ghost + " WRITE");
            ServerTables.execute(control, "UNLOCK TABLES");
        } catch (SQLException e) {
            if (e.getErrorCode() == ServerErrors.LOCK_WAIT_TIMEOUT) {
                throw new CutOverAttempt.Abort(Outcome.ABORTED, "the ghost table " + ghost + " is in use by another"
                        + " session (an open transaction or a running query); only the applier may use it and it"
                        + " must be idle before the RENAME", e);
            }
            throw e;
        } finally {
            ServerTables.execute(control, "SET SESSION lock_wait_timeout = " + restoreLockWaitSeconds);
        }
    }

    /**
     * Step 5: returns once B is seen waiting on the metadata lock of the table or the sentry (not on the ghost's);
     * else aborts when {@code timeout} passes.
     */
    void awaitWaiting(Connection control, String oldTable, Duration timeout)
            throws SQLException, InterruptedException, CutOverAttempt.Abort {
        long deadline = System.nanoTime() + timeout.toNanos();
        String last = "not in the processlist";
        while (System.nanoTime() < deadline) {
            if (rename.isDone()) {
                Throwable failure = Waits.failureOf(rename);
                throw new CutOverAttempt.Abort(Outcome.ABORTED, "the RENAME returned before the unlock: "
                        + Waits.describe(failure), failure);
            }
            if (ServerTables.session(control, lockId) == null) {
                throw new CutOverAttempt.Abort(Outcome.ABORTED, "the lock holder (connection " + lockId
                        + ") is gone", null);
            }
            ServerTables.Session b = ServerTables.session(control, renameId);
            if (b != null && b.waitsOnMetadataLock("RENAME TABLE")) {
                String why = waitsElsewhere(control, oldTable);
                if (why == null) {
                    return;
                }
                last = why;
            } else if (b != null) {
                last = "state '" + b.state() + "'";
            }
            Thread.sleep(POLL_MILLIS);
        }
        throw new CutOverAttempt.Abort(Outcome.ABORTED, "the RENAME (connection " + renameId + ") was not seen"
                + " waiting on the metadata lock of " + tables.table() + " within " + timeout.toMillis() + " ms ("
                + last + "); unlocking would have let writes reach the original table first", null);
    }

    /** For a B that waits on a metadata lock: null when it waits on the table or the sentry, else where it waits. */
    private String waitsElsewhere(Connection control, String oldTable) throws SQLException {
        return switch (sight) {
            case NAME_ORDER, BLIND -> null;
            case INSTRUMENTED -> {
                List<String> pending = ServerTables.pendingTableLocks(control, renameId, tables.database());
                if (pending.contains(tables.table()) || pending.contains(oldTable)) {
                    yield null;
                }
                yield pending.contains(tables.ghost()) ? ghostBusy() : "waiting, pending locks " + pending;
            }
            case GHOST_HELD_PROBE -> ServerTables.exclusivelyLocked(control, tables.database(), tables.ghost(),
                    restoreLockWaitSeconds) ? null : ghostBusy();
        };
    }

    private String ghostBusy() {
        return "it waits for the ghost table " + tables.ghost() + ", which another session holds (an open"
                + " transaction, a query, or InnoDB's purge for a moment)";
    }

    /**
     * Step 6, after the sentry is dropped and only where performance_schema instruments metadata locks: whether B's
     * pending request is now on the table itself, so it goes before the queued writes at the unlock. False on
     * timeout, on any error, or when B has ended.
     */
    boolean queuedOnTable(Connection control, Duration timeout) {
        if (control == null) {
            return false;
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        try {
            while (System.nanoTime() < deadline && !rename.isDone()) {
                if (ServerTables.pendingTableLocks(control, renameId, tables.database()).contains(tables.table())) {
                    return true;
                }
                Thread.sleep(POLL_MILLIS);
            }
        } catch (SQLException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return false;
    }
}
