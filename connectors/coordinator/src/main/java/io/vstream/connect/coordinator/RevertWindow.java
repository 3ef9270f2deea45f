package io.vstream.connect.coordinator;

import io.vstream.connect.jdbc.MigrationPlans;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The revert window of a swapped online DDL ({@code ddl.revert.window.ms}, state REVERTIBLE): the workflow's appliers
 * run on past the swap as the reverse stream, each keeping its shard's original table equal to the new one through
 * the reverse plan ({@link MigrationPlans#saveRevert}), which the applier activates when it passes the swap. The
 * window is counted on each shard's own clock from that moment; it ends when it has lasted {@code
 * ddl.revert.window.ms} on the shard that started first, when the operator releases it, or at once when a shard's
 * reverse stream fails (the original then misses a write: the revert is no longer possible). Ending it retires the
 * appliers: the workflow is COMPLETE, with the reason. Asked to revert ({@code ddl.revert}), it hands the workflow
 * to the revert's cut-over (REVERTING, {@link OnlineDdlCutOver#revert}), which ends in REVERTED or back here.
 * Touches every shard.
 */
final class RevertWindow {
    private static final Logger LOG = LoggerFactory.getLogger(RevertWindow.class);
    private static final DateTimeFormatter UNTIL = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'")
            .withZone(ZoneOffset.UTC);

    private final VStreamCoordinatorConnectorConfig config;
    private final String workflow;
    private final String migration;
    private final ApplierChannel applier;
    private final Consumer<String> tellAll;
    private StatusRecords.Progress progress = StatusRecords.Progress.NONE;

    RevertWindow(VStreamCoordinatorConnectorConfig config, String workflow, String migration, ApplierChannel applier,
                 Consumer<String> tellAll) {
        this.config = config;
        this.workflow = workflow;
        this.migration = migration;
        this.applier = applier;
        this.tellAll = tellAll;
    }

    /** Whether the migration keeps a reverse stream: a window is asked for and every shard has a reverse plan. */
    boolean wanted() throws SQLException {
        if (config.revertWindow().isZero()) {
            return false;
        }
        for (Map.Entry<String, VStreamCoordinatorConnectorConfig.Endpoint> e : config.shards().entrySet()) {
            try (Connection c = Servers.open(e.getValue())) {
                if (MigrationPlans.loadRevert(c, config.stateDatabase(), migration) == null) {
                    LOG.warn("Workflow {}: shard {} has no reverse plan (the ALTER could not be reverted, see the log"
                            + " of its start): no revert window", workflow, e.getKey());
                    return false;
                }
            }
        }
        return true;
    }

    /** Opens the window once every table is swapped: the appliers run on past the swap, into the originals. */
    WorkflowStatus open(WorkflowStatus status) {
        tellAll.accept("RUN");
        LOG.info("Workflow {}: the tables are swapped on every shard; the reverse stream keeps the originals equal to"
                + " the new tables for {} ms (ddl.revert.window.ms)", workflow, config.revertWindow().toMillis());
        return new WorkflowStatus(WorkflowState.REVERTIBLE, null, 0, "the reverse stream starts: the originals follow"
                + " the new tables once each shard's applier passes the swap");
    }

    StatusRecords.Progress progress() {
        return progress;
    }

    /** One round: ends the window when it is over, released or broken; else says until when it lasts. */
    WorkflowStatus step(WorkflowStatus status) throws SQLException {
        if (config.revertReleased()) {
            return end(status, "the operator released the revert window (ddl.revert.release=true)");
        }
        Duration longest = null;
        Instant until = null;
        List<String> starting = new ArrayList<>();
        Long maxLagMs = null;
        String original = null;
        long nowMs = System.currentTimeMillis();
        for (Map.Entry<String, VStreamCoordinatorConnectorConfig.Endpoint> e : config.shards().entrySet()) {
            try (Connection c = Servers.open(e.getValue())) {
                String failure = applier.failure(c);
                if (failure != null) {
                    return end(status, "the reverse stream stopped on shard " + e.getKey() + ": " + failure
                            + "; the original no longer follows the new table, so the revert is no longer possible");
                }
                MigrationPlans.Revert revert = MigrationPlans.loadRevert(c, config.stateDatabase(), migration);
                if (revert == null) {
                    return end(status, "shard " + e.getKey() + " no longer has the migration's reverse plan");
                }
                if (!revert.active()) {
                    starting.add(e.getKey());
                    continue;
                }
                original = revert.plan().ghostTable();
                Instant serverNow = Instant.ofEpochMilli(new java.math.BigDecimal(Servers.string(c,
                        "SELECT UNIX_TIMESTAMP(CURRENT_TIMESTAMP(6))")).movePointRight(3).longValue());
                Duration open = Duration.between(revert.since(), serverNow);
                if (longest == null || open.compareTo(longest) > 0) {
                    longest = open;
                    until = Instant.ofEpochMilli(nowMs).plus(config.revertWindow().minus(open));
                }
                List<ApplierChannel.Applied> rows = applier.applied(c);
                Long lag = rows.size() == 1 ? ApplierLag.millis(rows.get(0), nowMs) : null;
                if (lag != null && (maxLagMs == null || lag > maxLagMs)) {
                    maxLagMs = lag;
                }
            }
        }
        progress = new StatusRecords.Progress(null, null, null, null, null, null, null, null, null, null, maxLagMs);
        if (longest != null && longest.compareTo(config.revertWindow()) >= 0) {
            return end(status, "the revert window of " + config.revertWindow().toMillis() + " ms"
                    + " (ddl.revert.window.ms) is over");
        }
        if (config.revertRequested() && starting.isEmpty()) {
            if (status.attempts() < config.cutOverMaxAttempts()) {
                LOG.info("Workflow {}: revert asked (ddl.revert=true): swapping the originals back on every shard",
                        workflow);
                return new WorkflowStatus(WorkflowState.REVERTING, null, status.attempts(), null);
            }
            return new WorkflowStatus(WorkflowState.REVERTIBLE, null, status.attempts(), status.reason());
        }
        if (!config.revertRequested() && status.attempts() > 0) {
            status = new WorkflowStatus(WorkflowState.REVERTIBLE, null, 0, null); // asked again: tries afresh
        }
        String reason = !starting.isEmpty()
                ? "the reverse stream starts: waiting for the applier of shard(s) " + starting + " to pass the swap"
                : "revertible until " + UNTIL.format(until) + ": the reverse stream keeps the original `" + original
                + "` equal to `" + config.ddlTable() + "` on every shard; 'vsc release " + workflow + "' ends it"
                + " now";
        return new WorkflowStatus(WorkflowState.REVERTIBLE, null, status.attempts(), reason);
    }

    /** A revert's cut-over attempt that did not swap: the window stays open, the next round tries again. */
    WorkflowStatus retry(WorkflowStatus status, String why) {
        return new WorkflowStatus(WorkflowState.REVERTIBLE, null, status.attempts() + 1, "the revert's cut-over"
                + " attempt " + (status.attempts() + 1) + " did not swap (" + why + "); the new tables serve, the"
                + " window stays open and the revert is tried again");
    }

    /** The revert gave up after cutover.max.attempts attempts: the window stays open, nothing is tried until asked. */
    WorkflowStatus revertFailed(WorkflowStatus status, String last) {
        LOG.warn("Workflow {}: the revert failed {} times; the new tables serve and the window stays open", workflow,
                status.attempts());
        return new WorkflowStatus(WorkflowState.REVERTIBLE, null, status.attempts(), "the revert failed "
                + status.attempts() + " times (last: " + last + "); the new tables serve and the reverse stream runs;"
                + " to try again, set ddl.revert=false and then true (or raise cutover.lock.timeout.ms)");
    }

    /**
     * Every shard's original is the table again: the appliers are retired (a revert is not itself kept revertible:
     * the ALTERed table stops changing here) and the workflow is REVERTED.
     */
    WorkflowStatus reverted(WorkflowStatus status) {
        tellAll.accept("HANDED_OFF");
        LOG.info("Workflow {}: reverted: the original tables are the tables again on every shard", workflow);
        return new WorkflowStatus(WorkflowState.REVERTED, null, status.attempts(), "reverted: the original tables"
                + " serve again on every shard, holding every write made to the new ones; the ALTERed tables are"
                + " kept (not updated any more) until dropped");
    }

    /** Retires the appliers: the originals stay as they are, the migration is complete. */
    WorkflowStatus end(WorkflowStatus status, String why) {
        tellAll.accept("HANDED_OFF");
        LOG.info("Workflow {}: the revert window ends ({}); the reverse stream is stopped, the originals are kept as"
                + " they are", workflow, why);
        return new WorkflowStatus(WorkflowState.COMPLETE, null, status.attempts(), "the tables are swapped; the revert"
                + " window has ended: " + why + "; the original tables are kept (not updated any more) until dropped");
    }
}
