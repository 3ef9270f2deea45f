package io.vstream.connect.coordinator;

import io.vstream.connect.coordinator.copy.DeferredIndexes;
import io.vstream.connect.coordinator.copy.GhostCopyState;
import io.vstream.connect.jdbc.MigrationPlans;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeoutException;
import java.util.function.LongConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An online DDL's cut-over, once every shard is ready: the checksum on every shard (in slices, each at an exact
 * position: {@link CutOverChecksum}), the keys built after the copy, every applier caught up, then the sentry
 * cut-over on every shard ({@link CutOverRunner}); a failed attempt lets the appliers run again and the workflow tries
 * again on a later round. On success it retires the appliers and forgets the copy's state. Touches every shard,
 * through {@link OnlineDdlServers}.
 */
final class OnlineDdlCutOver {
    private static final Logger LOG = LoggerFactory.getLogger(OnlineDdlCutOver.class);
    private static final long LOG_PROGRESS_EVERY_NANOS = 10_000_000_000L;

    private final VStreamCoordinatorConnectorConfig config;
    private final String workflow;
    private final String migration;
    private final List<String> shards;
    private final OnlineDdlServers servers;
    private final ChecksumSlices checksum;
    private final ShardCopies copies;
    private final LongConsumer writeBlocked;
    private final RevertWindow revertWindow;
    private final boolean revert; // the swap back of a revert: the new table and the kept original exchanged
    private long progressLoggedAt;

    OnlineDdlCutOver(VStreamCoordinatorConnectorConfig config, String workflow, String migration,
                     OnlineDdlServers servers, LongConsumer writeBlocked, RevertWindow revertWindow) {
        this(config, workflow, migration, servers, servers.copies(), writeBlocked, revertWindow, false);
    }

    /**
     * The cut-over of a revert ({@code vsc revert}): the same protocol on the direction plan the appliers follow
     * ({@code key}: the serving table as the table, the one that follows it as its ghost), with its own checksum
     * through that plan's mapping; no copy.
     */
    static OnlineDdlCutOver revert(VStreamCoordinatorConnectorConfig config, String workflow, String key,
                                   OnlineDdlServers servers, LongConsumer writeBlocked, RevertWindow revertWindow) {
        return new OnlineDdlCutOver(config, workflow, key, servers, null, writeBlocked, revertWindow, true);
    }

    private OnlineDdlCutOver(VStreamCoordinatorConnectorConfig config, String workflow, String migration,
                             OnlineDdlServers servers, ShardCopies copies, LongConsumer writeBlocked,
                             RevertWindow revertWindow, boolean revert) {
        this.config = config;
        this.workflow = workflow;
        this.migration = migration;
        this.shards = List.copyOf(config.shards().keySet());
        this.servers = servers;
        this.checksum = servers.checksum(migration);
        this.copies = copies;
        this.writeBlocked = writeBlocked;
        this.revertWindow = revertWindow;
        this.revert = revert;
    }

    String migration() {
        return migration;
    }

    /** Called by {@link CutOverRunner} with the longest write block of an attempt that locked. */
    void writeBlocked(long ms) {
        writeBlocked.accept(ms);
    }

    /** The checksum (in slices, each at an exact position) on every shard, then the atomic swap on every shard. */
    WorkflowStatus step(WorkflowStatus status) throws SQLException, InterruptedException {
        if (status.attempts() >= config.cutOverMaxAttempts() && revert) {
            tellAll("RUN");
            return revertWindow.revertFailed(status, status.reason());
        }
        if (status.attempts() >= config.cutOverMaxAttempts()) {
            tellAll("RUN");
            return status.failed("the cut-over failed " + status.attempts() + " times (last: " + status.reason()
                    + "); the original tables are in place and the applier runs; raise cutover.lock.timeout.ms or"
                    + " cut over at a quieter time");
        }
        if (allSwapped()) {
            return swapped(status);
        }
        List<String> pending = new ArrayList<>();
        boolean compared = true;
        for (String shard : shards) {
            if (swapped(shard)) {
                continue; // an earlier attempt (per-shard mode) swapped it already
            }
            pending.add(shard);
            if (checksum.done(shard)) {
                continue;
            }
            CutOverChecksum.Slice slice = checksum.slice(shard);
            if (slice.mismatch() != null && revert) {
                return revertWindow.end(status, "the revert's checksum found that the original does not hold what the"
                        + " new table holds (" + slice.mismatch() + "): the revert is no longer possible");
            }
            if (slice.mismatch() != null) {
                tellAll("RUN");
                return status.failed(slice.mismatch());
            }
            if (slice.gaveUp() != null) {
                return revert ? revertWindow.retry(status, "checksum: " + slice.gaveUp())
                        : status.retry("checksum: " + slice.gaveUp());
            }
            compared &= checksum.done(shard);
        }
        if (!compared) {
            return status; // more slices of the checksum on the next rounds
        }
        WorkflowStatus waiting = config.serverCopy() && !revert ? awaitKeys(status, pending) : null;
        if (waiting != null) {
            return waiting;
        }
        awaitCaughtUp(pending);
        String failure = servers.attemptCutOver(this, pending);
        if (failure != null) {
            tellAll("RUN");
            LOG.warn("Workflow {}: {}cut-over attempt {} did not swap: {}; retrying", workflow, revert ? "the revert's "
                    : "", status.attempts() + 1, failure);
            return revert ? revertWindow.retry(status, failure) : status.retry(failure);
        }
        return swapped(status);
    }

    /**
     * Every table is swapped: with a revert window the appliers run on as the reverse stream (REVERTIBLE), else they
     * are retired (COMPLETE). Either way the copy's state is forgotten.
     */
    private WorkflowStatus swapped(WorkflowStatus status) throws SQLException {
        if (revert) {
            return revertWindow.swapped(status);
        }
        forgetCopy();
        if (revertWindow.wanted()) {
            return revertWindow.open(status);
        }
        tellAll("HANDED_OFF");
        LOG.info("Workflow {}: the tables are swapped on every shard; complete", workflow);
        return status.to(WorkflowState.COMPLETE);
    }

    /**
     * Null when every shard's ghost has the keys built after its copy ({@link DeferredIndexes}); else the status to
     * publish: unchanged while builds run (started or followed here, e.g. by a restarted coordinator), failed when one
     * cannot go on.
     */
    private WorkflowStatus awaitKeys(WorkflowStatus status, List<String> pending) throws SQLException {
        List<String> building = new ArrayList<>();
        for (String shard : pending) {
            try (OnlineDdlShard s = servers.open(shard)) {
                GhostCopyState.Summary copy = s.copySummary();
                if (!copy.planned() || copy.done()) {
                    continue;
                }
                String stopped = copies.follow(shard, copy, null);
                if (stopped != null) {
                    copies.close();
                    tellAll("RUN");
                    return status.failed("the copy on shard " + shard + " cannot go on: " + stopped);
                }
                building.add(shard);
            }
        }
        if (building.isEmpty()) {
            return null;
        }
        long now = System.nanoTime();
        if (now - progressLoggedAt >= LOG_PROGRESS_EVERY_NANOS) {
            progressLoggedAt = now;
            LOG.info("Workflow {}: the checksum is done; the swap waits for the keys built after the copy on"
                    + " shard(s) {}", workflow, building);
        }
        return status;
    }

    /**
     * Before the cut-over takes its locks, each shard's applier applies what its server had committed (the checksum's
     * last slice held it, so it starts behind by the slice's time): the barrier under the locks, and so the
     * application's write block, then waits only for what was committed since. Bounded by
     * {@code cutover.lock.timeout.ms} per shard; an applier that does not catch up in time is left to the barrier.
     */
    private void awaitCaughtUp(List<String> pending) throws SQLException, InterruptedException {
        for (String shard : pending) {
            try (OnlineDdlShard s = servers.open(shard)) {
                if (!s.awaitCaughtUp(config.cutOverLockTimeout())) {
                    LOG.info("Workflow {}: shard {}: the applier has not caught up within {} ms; cutting over anyway"
                            + " (the barrier waits for it under the locks)", workflow, shard,
                            config.cutOverLockTimeout().toMillis());
                }
            }
        }
    }

    /** The cut-over barrier of one shard: the applier reaches the position read under the lock, and idles there. */
    void awaitApplied(String shard, String position, Duration timeout)
            throws SQLException, TimeoutException, InterruptedException {
        try (OnlineDdlShard s = servers.open(shard)) {
            if (!s.awaitApplied(position, timeout)) {
                throw new TimeoutException("the applier did not reach " + position + " within " + timeout.toMillis()
                        + " ms");
            }
        }
    }

    private boolean allSwapped() throws SQLException {
        for (String shard : shards) {
            if (!swapped(shard)) {
                return false;
            }
        }
        return true;
    }

    /** Whether a shard's table has been swapped: the ghost is gone and the table has the ghost's definition. */
    boolean swapped(String shard) throws SQLException {
        try (OnlineDdlShard s = servers.open(shard)) {
            MigrationPlans.Plan plan = s.plan(migration);
            return plan != null && !s.hasTable(plan.database(), plan.ghostTable());
        }
    }

    /** Forgets the server copy's progress and its deferred keys: the ghost is the table now. */
    private void forgetCopy() {
        for (String shard : shards) {
            try (OnlineDdlShard s = servers.open(shard)) {
                s.forgetCopy();
            } catch (SQLException ex) {
                LOG.warn("Workflow {}: could not remove the copy state on shard {} ({})", workflow, shard,
                        ex.toString());
            }
        }
    }

    /** Gives every shard's applier {@code command}; a shard that cannot be told is logged and left. */
    void tellAll(String command) {
        for (String shard : shards) {
            try (OnlineDdlShard s = servers.open(shard)) {
                s.tellApplier(command);
            } catch (SQLException ex) {
                LOG.warn("Workflow {}: could not tell the applier on shard {} to {} ({})", workflow, shard,
                        command, ex.toString());
            }
        }
    }
}
