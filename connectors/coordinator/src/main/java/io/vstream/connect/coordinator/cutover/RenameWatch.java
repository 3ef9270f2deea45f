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
 * lock ({@code information_schema.PROCESSLIST}, which needs no performance_schema) while A still lives; and where
 * performance_schema instruments metadata locks, which table B waits for. Touches the shard (reads, and one
 * {@code LOCK TABLES ghost WRITE} probe).
 */
final class RenameWatch {
    private static final long POLL_MILLIS = 5;

    private final CutOverTables tables;
    private final boolean mdlInstrumented;
    private final long lockId;
    private final long renameId;
    private final CompletableFuture<Void> rename;

    RenameWatch(CutOverTables tables, boolean mdlInstrumented, long lockId, long renameId,
                CompletableFuture<Void> rename) {
        this.tables = tables;
        this.mdlInstrumented = mdlInstrumented;
        this.lockId = lockId;
        this.renameId = renameId;
        this.rename = rename;
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

    /** Step 5: returns once B is seen waiting on the metadata lock of the table or the sentry; else aborts. */
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
                if (!mdlInstrumented) {
                    return;
                }
                List<String> pending = ServerTables.pendingTableLocks(control, renameId, tables.database());
                if (pending.contains(tables.ghost())) {
                    throw new CutOverAttempt.Abort(Outcome.ABORTED, "the RENAME waits for the ghost table "
                            + tables.ghost() + ", which another session holds (an open transaction?); unlocking now"
                            + " would let writes reach the original table. The applier must be idle before the"
                            + " RENAME", null);
                }
                if (pending.contains(tables.table()) || pending.contains(oldTable)) {
                    return;
                }
                last = "waiting, pending locks " + pending;
            } else if (b != null) {
                last = "state '" + b.state() + "'";
            }
            Thread.sleep(POLL_MILLIS);
        }
        throw new CutOverAttempt.Abort(Outcome.ABORTED, "the RENAME (connection " + renameId + ") was not seen"
                + " waiting on the metadata lock within " + timeout.toMillis() + " ms (" + last + ")", null);
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
