package io.vstream.connect.coordinator.cutover;

import io.vstream.connect.coordinator.cutover.CutOverResult.Outcome;
import io.vstream.connect.core.error.ServerErrors;
import io.vstream.connect.core.sql.SqlIdentifiers;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One sentry cut-over attempt on one shard: the seven steps of {@link CutOverStep} over three connections (A holds
 * the lock, B issues the RENAME, C observes and cleans up), in phases so that {@link MultiShardCutOver} can lock
 * every shard before renaming any. Whatever happens, {@link #abort} or {@link #finish} ends the attempt: both
 * release the lock, leave the sentry only while a RENAME may still be waiting on it, close every connection, and
 * decide the outcome from the server's tables. Touches one shard's primary.
 */
final class CutOverAttempt {
    private static final Logger LOG = LoggerFactory.getLogger(CutOverAttempt.class);
    /** How long a killed or doomed RENAME gets to return before the attempt stops waiting for it. */
    private static final Duration KILL_GRACE = Duration.ofSeconds(2);
    /** The control connection's lock_wait_timeout: its reads and its DROP of the sentry never wait long. */
    private static final int CONTROL_LOCK_WAIT_SECONDS = 5;
    private static final int INSPECT_TRIES = 3;

    /** A step failed: the attempt must end through {@link #abort}. */
    static final class Abort extends Exception {
        private static final long serialVersionUID = 1L;
        final Outcome outcome;

        Abort(Outcome outcome, String reason, Throwable cause) {
            super(reason, cause, false, false);
            this.outcome = outcome;
        }
    }

    @FunctionalInterface
    private interface Body {
        void run() throws Exception;
    }

    private final String shard;
    private final ConnectionFactory connections;
    private final CutOverTables tables;
    private final CutOverSettings settings;
    private final ApplierBarrier barrier;
    private final CutOverListener listener;
    private final int number;
    private final Map<CutOverStep, Duration> durations = new EnumMap<>(CutOverStep.class);
    private final String t;
    private final String ghost;

    private Connection control;
    private Connection lockConn;
    private Connection renameConn;
    private long lockId;
    private long renameId;
    private String oldTable;
    private String old;
    private String position;
    private SwapCheck swapCheck;
    private boolean mdlInstrumented;
    private RenameWatch.Sight sight;
    private boolean locked;
    private CompletableFuture<Void> rename;
    private RenameWatch watch;
    private long lockedAt;
    private long unlockedAt;
    private volatile long renamedAt;

    CutOverAttempt(String shard, ConnectionFactory connections, CutOverTables tables, CutOverSettings settings,
                   ApplierBarrier barrier, CutOverListener listener, int number) {
        this.shard = shard;
        this.connections = connections;
        this.tables = tables;
        this.settings = settings;
        this.barrier = barrier;
        this.listener = listener;
        this.number = number;
        this.t = SqlIdentifiers.qualify(tables.database(), tables.table());
        this.ghost = SqlIdentifiers.qualify(tables.database(), tables.ghost());
    }

    String shard() {
        return shard;
    }

    /** Steps 1 to 5 and, unless one aborts, 6 and 7. */
    CutOverResult run() {
        try {
            prepare();
            lockAndCatchUp();
            issueRename();
        } catch (Abort a) {
            return abort(a.outcome, a.getMessage());
        }
        return finish();
    }

    /** Step 1: checks the tables and creates the sentry; nothing is locked yet. */
    void prepare() throws Abort {
        step(CutOverStep.CREATE_SENTRY, this::createSentry);
    }

    /** Steps 2 and 3: on return the table is locked and the applier has caught up with the position under it. */
    void lockAndCatchUp() throws Abort {
        step(CutOverStep.LOCK, this::lock);
        step(CutOverStep.AWAIT_APPLIER, this::awaitApplier);
    }

    /** Steps 4 and 5: on return the RENAME is queued on the metadata lock behind connection A. */
    void issueRename() throws Abort {
        step(CutOverStep.ISSUE_RENAME, this::startRename);
        step(CutOverStep.VERIFY_RENAME_WAITING, this::awaitRenameWaiting);
    }

    // ---- step 1
    private void createSentry() throws SQLException, Abort {
        control = connections.open();
        ServerTables.execute(control, "SET SESSION lock_wait_timeout = " + CONTROL_LOCK_WAIT_SECONDS);
        String db = tables.database();
        if (!ServerTables.exists(control, db, tables.table())) {
            throw new Abort(Outcome.FAILED, "the table " + t + " does not exist on shard " + shard, null);
        }
        if (!ServerTables.exists(control, db, tables.ghost())) {
            throw new Abort(Outcome.FAILED, "the ghost table " + ghost + " does not exist on shard " + shard
                    + "; the migration must create and fill it before the cut-over", null);
        }
        List<Long> earlier = ServerTables.runningRenames(control, db, tables.table());
        if (!earlier.isEmpty()) {
            throw new Abort(Outcome.ABORTED, "a cut-over RENAME of " + t + " from an earlier attempt is still running"
                    + " (connection " + earlier + "); it ends by its lock_wait_timeout, retry after it", null);
        }
        for (String stale : SentryTable.dropStale(control, tables)) {
            LOG.warn("Cut-over {} attempt {}: dropped the stale sentry {} (an earlier attempt's lock holder died"
                    + " before dropping it)", shard, number, stale);
        }
        oldTable = SentryTable.chooseOldName(control, tables, shard);
        old = SqlIdentifiers.qualify(db, oldTable);
        boolean lowerCase = ServerTables.lowerCaseNames(control);
        boolean sentryLocksFirst = CutOverTables.lockOrder(oldTable, tables.table(), lowerCase) < 0;
        mdlInstrumented = ServerTables.metadataLocksInstrumented(control);
        if (sentryLocksFirst) {
            LOG.warn("Cut-over {}: the old table name {} sorts before {} in the metadata-lock order, so the RENAME"
                    + " queues on {} only once the sentry is dropped; writes waiting on it can slip in before the"
                    + " RENAME if UNLOCK TABLES arrives first. {}", shard, oldTable, tables.table(), tables.table(),
                    mdlInstrumented ? "performance_schema's MDL instrument is on: step 6 checks the queue and aborts"
                            + " instead" : "Prefer a name that extends the table name (the default <table>_old), or"
                            + " enable performance_schema's wait/lock/metadata/sql/mdl instrument");
        }
        boolean ghostLocksFirst = CutOverTables.lockOrder(tables.ghost(), tables.table(), lowerCase) < 0;
        sight = RenameWatch.sight(mdlInstrumented, ghostLocksFirst, ServerTables.isMariaDb(control));
        if (sight == RenameWatch.Sight.BLIND) {
            LOG.warn("Cut-over {}: the ghost table {} sorts before {} in the metadata-lock order, and on this MySQL"
                    + " server without performance_schema's metadata-lock instrument step 5 cannot tell whether the"
                    + " RENAME holds the ghost's lock: a session that takes it between the idle probe and the RENAME"
                    + " would let writes reach the original table. Enable the wait/lock/metadata/sql/mdl instrument"
                    + " (MySQL 8.0's default)", shard, tables.ghost(), tables.table());
        }
        swapCheck = SwapCheck.capture(control, tables);
        SentryTable.create(control, tables, oldTable);
    }

    // ---- step 2
    private void lock() throws SQLException, Abort {
        lockConn = connections.open();
        lockId = ServerTables.connectionId(lockConn);
        ServerTables.execute(lockConn, "SET SESSION lock_wait_timeout = "
                + CutOverSettings.seconds(settings.lockWaitTimeout()) + ", wait_timeout = "
                + settings.lockHolderIdleTimeoutSeconds());
        try {
            ServerTables.execute(lockConn, "LOCK TABLES " + t + " WRITE, " + old + " WRITE");
        } catch (SQLException e) {
            if (e.getErrorCode() == ServerErrors.LOCK_WAIT_TIMEOUT) {
                throw new Abort(Outcome.ABORTED, "could not lock " + t + " within " + settings.lockWaitTimeout()
                        .toSeconds() + " s: a long transaction or query holds it (see the processlist)", e);
            }
            throw e;
        }
        lockedAt = System.nanoTime();
        locked = true;
    }

    // ---- step 3
    private void awaitApplier() throws Exception {
        position = ServerTables.position(lockConn);
        CompletableFuture<Void> applied = Waits.async("cutover-barrier-" + shard, () -> {
            barrier.awaitApplied(position, settings.applierTimeout());
            return null;
        });
        try {
            applied.get(settings.applierTimeout().toMillis() + 1000, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            applied.cancel(true);
            throw new Abort(Outcome.ABORTED, "the applier did not report reaching " + position + " within "
                    + settings.applierTimeout().toMillis() + " ms", e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            throw new Abort(Outcome.ABORTED, "the applier did not reach " + position + ": " + Waits.describe(cause),
                    cause);
        }
    }

    // ---- step 4
    private void startRename() throws SQLException, Abort {
        RenameWatch.probeGhostIdle(control, tables, CONTROL_LOCK_WAIT_SECONDS);
        renameConn = connections.open();
        renameId = ServerTables.connectionId(renameConn);
        ServerTables.execute(renameConn, "SET SESSION lock_wait_timeout = "
                + CutOverSettings.seconds(settings.renameLockWaitTimeout()));
        String sql = "RENAME TABLE " + t + " TO " + old + ", " + ghost + " TO " + t;
        Connection b = renameConn;
        rename = Waits.async("cutover-rename-" + shard, () -> {
            ServerTables.execute(b, sql);
            renamedAt = System.nanoTime();
            return null;
        });
        watch = new RenameWatch(tables, sight, lockId, renameId, rename, CONTROL_LOCK_WAIT_SECONDS);
    }

    // ---- step 5
    private void awaitRenameWaiting() throws Exception {
        watch.awaitWaiting(control, oldTable, settings.metadataLockTimeout());
    }

    // ---- steps 6 and 7
    /** Drops the sentry and unlocks (the RENAME then runs), waits for it and checks the server. */
    CutOverResult finish() {
        long begin = System.nanoTime();
        try {
            ServerTables.execute(lockConn, "DROP TABLE " + old);
        } catch (SQLException e) {
            if (alive(lockConn)) { // the DROP failed but A still holds the lock: stop B first, then unlock
                killRename();
                unlockQuietly();
                return end(Outcome.ABORTED, "step 6 failed: " + Waits.describe(e), true);
            }
            // A is dead: the server released its lock, and B failed on the sentry unless the DROP had run
            return settle("step 6 failed: " + Waits.describe(e));
        }
        if (mdlInstrumented && !watch.queuedOnTable(controlOrNull(), settings.metadataLockTimeout())) {
            killRename();
            unlockQuietly();
            return end(Outcome.ABORTED, "after the sentry was dropped the RENAME did not queue on " + t + "; it was"
                    + " killed before the unlock so that no write reaches the original table", true);
        }
        try {
            ServerTables.execute(lockConn, "UNLOCK TABLES");
        } catch (SQLException e) {
            return settle("step 6 failed: " + Waits.describe(e));
        }
        unlockedAt = System.nanoTime();
        locked = false;
        record(CutOverStep.DROP_SENTRY_AND_UNLOCK, begin);
        Throwable failure = Waits.await(rename, settings.renameLockWaitTimeout().plus(KILL_GRACE));
        return settle(failure == null ? null : "the RENAME failed after the unlock: " + Waits.describe(failure));
    }

    /**
     * Ends an attempt that failed before step 6: stops the RENAME, releases the lock while the sentry still makes
     * any RENAME fail, and drops the sentry once no RENAME can be waiting on it.
     */
    CutOverResult abort(Outcome outcome, String reason) {
        LOG.warn("Cut-over {} attempt {}: aborting: {}", shard, number, reason);
        killRename();
        unlockQuietly();
        if (rename != null && !rename.isDone()) {
            Waits.await(rename, settings.renameLockWaitTimeout().plus(KILL_GRACE));
        }
        return end(outcome, reason, true);
    }

    /** After step 6 began: the statements' return values cannot be trusted (a lost connection); ask the server. */
    private CutOverResult settle(String trouble) {
        String why = trouble;
        if (rename != null) {
            Throwable failure = Waits.await(rename, settings.renameLockWaitTimeout().plus(KILL_GRACE));
            if (failure != null && why != null && !why.contains("RENAME failed")) {
                why = why + "; the RENAME failed: " + Waits.describe(failure);
            }
        }
        unlockQuietly();
        return end(why == null ? Outcome.SWAPPED : Outcome.ABORTED, why, true);
    }

    /**
     * The attempt's end: checks the server's tables to decide what happened, drops the sentry if it is still there
     * and no RENAME can be waiting on it, closes every connection and builds the result.
     */
    private CutOverResult end(Outcome expected, String reason, boolean inspect) {
        Outcome outcome = expected;
        String why = reason;
        try {
            killRename();
            if (inspect && swapCheck != null) {
                SwapCheck.Finding v = inspect();
                switch (v.outcome()) {
                    case SWAPPED -> {
                        outcome = Outcome.SWAPPED;
                        why = Waits.join(expected == Outcome.SWAPPED ? null : "the swap happened although " + reason,
                                v.detail());
                    }
                    case UNKNOWN -> {
                        outcome = Outcome.UNKNOWN;
                        why = Waits.join(reason, v.detail());
                    }
                    default -> {
                        outcome = expected == Outcome.SWAPPED ? Outcome.ABORTED : expected;
                        why = expected == Outcome.SWAPPED ? "the RENAME returned but the server shows the original"
                                + " table in place" : reason;
                    }
                }
            }
            if (unlockedAt != 0 && durations.containsKey(CutOverStep.DROP_SENTRY_AND_UNLOCK)) {
                record(CutOverStep.VERIFY_SWAP, unlockedAt);
            }
            if (outcome != Outcome.SWAPPED && outcome != Outcome.UNKNOWN) {
                if (rename != null && !rename.isDone()) {
                    why = why + "; the sentry " + old + " stays until the RENAME (connection " + renameId + ") ends";
                } else {
                    dropSentryIfOurs();
                }
            }
        } finally {
            closeAll();
        }
        Duration block = lockedAt == 0 ? Duration.ZERO
                : Duration.ofNanos((unlockedAt == 0 ? System.nanoTime() : unlockedAt) - lockedAt);
        Duration latency = renamedAt == 0 || unlockedAt == 0 ? Duration.ZERO
                : Duration.ofNanos(Math.max(0, renamedAt - unlockedAt));
        CutOverResult result = new CutOverResult(shard, outcome, number, oldTable, position, durations, block,
                latency, why);
        if (result.swapped()) {
            LOG.info("Cut-over {}: {} is the new table; the original is kept as {} (writes blocked {} ms, RENAME {} ms"
                    + " after the unlock)", shard, t, old, block.toMillis(), latency.toMillis());
        } else {
            LOG.warn("Cut-over {}", result.summary());
        }
        return result;
    }

    /** Which table is now t, read with up to three fresh control connections before giving up (UNKNOWN). */
    private SwapCheck.Finding inspect() {
        SQLException last = null;
        for (int i = 0; i < INSPECT_TRIES; i++) {
            try {
                return swapCheck.decide(control(), oldTable);
            } catch (SQLException e) {
                last = e;
                Waits.close(control);
                control = null;
                Waits.sleep(1000);
            }
        }
        return new SwapCheck.Finding(Outcome.UNKNOWN, "could not read the shard's tables to tell whether the swap"
                + " happened (" + Waits.describe(last) + "); check " + t + ", " + ghost + " and " + old + " by hand"
                + " before retrying");
    }

    private void dropSentryIfOurs() {
        if (oldTable == null) {
            return;
        }
        try {
            SentryTable.dropIfOurs(control(), tables, oldTable);
        } catch (SQLException e) {
            LOG.warn("Cut-over {}: could not drop the sentry {} ({}); the next attempt drops it", shard, old,
                    Waits.describe(e));
        }
    }

    /** Kills B's RENAME if it still runs and gives it a moment to return. */
    private void killRename() {
        if (rename == null || rename.isDone()) {
            return;
        }
        try {
            ServerTables.killQuery(control(), renameId);
        } catch (SQLException e) {
            LOG.warn("Cut-over {}: could not kill the RENAME (connection {}): {}", shard, renameId,
                    Waits.describe(e));
        }
        Waits.await(rename, KILL_GRACE);
    }

    private static boolean alive(Connection c) {
        try {
            return c != null && c.isValid(1);
        } catch (SQLException e) {
            return false;
        }
    }

    private Connection controlOrNull() {
        try {
            return control();
        } catch (SQLException e) {
            return null;
        }
    }

    private void unlockQuietly() {
        if (!locked) {
            return;
        }
        try {
            ServerTables.execute(lockConn, "UNLOCK TABLES");
        } catch (SQLException e) {
            // a dead connection's locks are released by the server when it notices; closing makes it notice
            LOG.warn("Cut-over {}: UNLOCK TABLES failed ({}); closing the lock connection releases the lock", shard,
                    Waits.describe(e));
            Waits.close(lockConn);
        }
        unlockedAt = System.nanoTime();
        locked = false;
    }

    private Connection control() throws SQLException {
        if (control == null || !control.isValid(1)) {
            Waits.close(control);
            control = connections.open();
            ServerTables.execute(control, "SET SESSION lock_wait_timeout = " + CONTROL_LOCK_WAIT_SECONDS);
        }
        return control;
    }

    private void step(CutOverStep step, Body body) throws Abort {
        long begin = System.nanoTime();
        try {
            body.run();
        } catch (Abort a) {
            throw a;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Abort(Outcome.ABORTED, "step " + step + " was interrupted", e);
        } catch (Exception e) {
            throw new Abort(Outcome.ABORTED, "step " + step + " failed: " + Waits.describe(e), e);
        }
        record(step, begin);
    }

    private void record(CutOverStep step, long begin) {
        Duration took = Duration.ofNanos(System.nanoTime() - begin);
        durations.put(step, took);
        LOG.info("Cut-over {} attempt {}: step {} done in {} ms{}", shard, number, step, took.toMillis(),
                step == CutOverStep.AWAIT_APPLIER ? " (position " + position + ")" : "");
        try {
            listener.stepCompleted(new CutOverListener.Event(shard, number, step, took, lockId, renameId));
        } catch (RuntimeException e) {
            LOG.warn("Cut-over {}: the step listener failed: {}", shard, Waits.describe(e));
        }
    }

    private void closeAll() {
        Waits.close(renameConn);
        Waits.close(lockConn);
        Waits.close(control);
    }
}
