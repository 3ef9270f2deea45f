package io.vstream.connect.coordinator;

import io.vstream.connect.jdbc.AppliedTable;
import io.vstream.connect.jdbc.MigrationPlans;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The revert window of a swapped online DDL ({@code ddl.revert.window.ms}, state REVERTIBLE). The workflow's appliers
 * run on past each swap, each keeping its shard's other table equal to the one that serves: after the cut-over the
 * kept original follows the ALTERed table (the reverse plan), after a revert the ALTERed table follows the original
 * (the forward plan); the applier activates the direction when it passes the swap in its stream
 * ({@link MigrationPlans#activateDirection}). {@code ddl.revert} says which table should serve (true: the original);
 * when the other one serves, the window hands the workflow to a swap (REVERTING, {@link OnlineDdlCutOver#revert}),
 * after which it is REVERTIBLE again the other way round. The window is counted on each shard's own clock from the
 * last swap its applier passed; it ends when it has lasted {@code ddl.revert.window.ms} on the shard that passed it
 * first, when the operator releases it, or at once when a shard's stream fails (the following table then misses a
 * write: the revert is no longer possible). Ending it retires the appliers: COMPLETE when the ALTERed tables serve,
 * REVERTED when the originals do. Touches every shard, through {@link OnlineDdlServers}.
 */
final class RevertWindow {
    private static final Logger LOG = LoggerFactory.getLogger(RevertWindow.class);
    private static final DateTimeFormatter UNTIL = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'")
            .withZone(ZoneOffset.UTC);

    private final VStreamCoordinatorConnectorConfig config;
    private final String workflow;
    private final String migration;
    private final List<String> shards;
    private final OnlineDdlServers servers;
    private final Consumer<String> tellAll;
    private StatusRecords.Progress progress = StatusRecords.Progress.NONE;

    RevertWindow(VStreamCoordinatorConnectorConfig config, String workflow, String migration, OnlineDdlServers servers,
                 Consumer<String> tellAll) {
        this.config = config;
        this.workflow = workflow;
        this.migration = migration;
        this.shards = List.copyOf(config.shards().keySet());
        this.servers = servers;
        this.tellAll = tellAll;
    }

    /** Whether the migration keeps a reverse stream: a window is asked for and every shard has its direction plans. */
    boolean wanted() throws SQLException {
        if (config.revertWindow().isZero()) {
            return false;
        }
        for (String shard : shards) {
            try (OnlineDdlShard s = servers.open(shard)) {
                if (!s.hasDirectionPlans()) {
                    LOG.warn("Workflow {}: shard {} has no reverse plan (the ALTER could not be reverted, see the log"
                            + " of its start): no revert window", workflow, shard);
                    return false;
                }
            }
        }
        return true;
    }

    /** Opens the window after a swap: the appliers run on past it, into the table that follows. */
    WorkflowStatus open(WorkflowStatus status) {
        tellAll.accept("RUN");
        LOG.info("Workflow {}: the tables are swapped on every shard; the other tables follow the serving ones for {}"
                + " ms (ddl.revert.window.ms)", workflow, config.revertWindow().toMillis());
        return new WorkflowStatus(WorkflowState.REVERTIBLE, null, 0, "the reverse stream starts: the other tables"
                + " follow once each shard's applier passes the swap");
    }

    StatusRecords.Progress progress() {
        return progress;
    }

    /**
     * The key of the direction plan every shard follows now (the swap a revert runs is of its table and its
     * follower), or null when the shards are not all past their last swap in the same direction.
     */
    String activeKey() throws SQLException {
        String key = null;
        for (String shard : shards) {
            try (OnlineDdlShard s = servers.open(shard)) {
                MigrationPlans.Direction d = s.activeDirection();
                if (d == null || key != null && !key.equals(d.plan().migration())) {
                    return null;
                }
                key = d.plan().migration();
            }
        }
        return key;
    }

    /**
     * One round: ends the window when it is over, released or broken; hands the workflow to a swap when the table
     * that serves is not the one {@code ddl.revert} asks for; else says until when the window lasts.
     */
    WorkflowStatus step(WorkflowStatus status) throws SQLException {
        Duration longest = null;
        Instant until = null;
        List<String> starting = new ArrayList<>();
        List<String> servingOriginal = new ArrayList<>(); // shards whose original table serves
        List<String> servingAltered = new ArrayList<>(); // shards whose ALTERed table serves
        Boolean original = null;
        boolean mixed = false;
        String follower = null;
        Long maxLagMs = null;
        long nowMs = System.currentTimeMillis();
        for (String shard : shards) {
            try (OnlineDdlShard s = servers.open(shard)) {
                String failure = s.applierFailure();
                if (failure != null) {
                    return end(status, "the reverse stream stopped on shard " + shard + ": " + failure
                            + "; the other table no longer follows the serving one, so the revert is no longer"
                            + " possible");
                }
                MigrationPlans.Direction d = s.activeDirection();
                if (d == null || !s.hasTable(d.plan().database(), d.plan().ghostTable())) {
                    starting.add(shard); // its applier has not passed the last swap yet
                    continue;
                }
                boolean originalHere = !d.reverse();
                (originalHere ? servingOriginal : servingAltered).add(shard);
                mixed |= original != null && original != originalHere;
                original = originalHere;
                follower = d.plan().ghostTable();
                Duration open = Duration.between(d.since(), s.serverNow());
                if (longest == null || open.compareTo(longest) > 0) {
                    longest = open;
                    until = Instant.ofEpochMilli(nowMs).plus(config.revertWindow().minus(open));
                }
                List<AppliedTable.Row> rows = s.applied();
                Long lag = rows.size() == 1 ? ApplierLag.millis(rows.get(0), nowMs) : null;
                if (lag != null && (maxLagMs == null || lag > maxLagMs)) {
                    maxLagMs = lag;
                }
            }
        }
        progress = new StatusRecords.Progress(null, null, null, null, null, null, null, null, null, null, maxLagMs);
        if (config.revertReleased()) {
            return end(status, "the operator released the revert window (ddl.revert.release=true)",
                    config.revertDropOnRelease());
        }
        if (!starting.isEmpty()) {
            return new WorkflowStatus(WorkflowState.REVERTIBLE, null, status.attempts(), "the reverse stream starts:"
                    + " waiting for the applier of shard(s) " + starting + " to pass the last swap");
        }
        if (mixed) {
            return new WorkflowStatus(WorkflowState.REVERTIBLE, null, status.attempts(), "the reverse stream starts:"
                    + " waiting for the appliers to pass the last swap (the original table serves on shard(s) "
                    + servingOriginal + ", the ALTERed one on " + servingAltered + ")");
        }
        if (longest.compareTo(config.revertWindow()) >= 0) {
            return end(status, "the revert window of " + config.revertWindow().toMillis() + " ms"
                    + " (ddl.revert.window.ms) is over");
        }
        if (config.revertRequested() != original) {
            if (status.attempts() < config.cutOverMaxAttempts()) {
                LOG.info("Workflow {}: ddl.revert={}: swapping the {} tables back in on every shard", workflow,
                        config.revertRequested(), original ? "ALTERed" : "original");
                return new WorkflowStatus(WorkflowState.REVERTING, null, status.attempts(), null);
            }
            return new WorkflowStatus(WorkflowState.REVERTIBLE, null, status.attempts(), status.reason());
        }
        String reason = original
                ? "reverted: the original `" + config.ddlTable() + "` serves again on every shard; until "
                + UNTIL.format(until) + " the ALTERed table `" + follower + "` follows it, so 'vsc revert " + workflow
                + "' can swap it back in (ddl.revert=false); 'vsc release " + workflow + "' ends the window now"
                : "revertible until " + UNTIL.format(until) + ": the reverse stream keeps the original `" + follower
                + "` equal to `" + config.ddlTable() + "` on every shard; 'vsc revert " + workflow + "' swaps it"
                + " back, 'vsc release " + workflow + "' ends the window now";
        return new WorkflowStatus(WorkflowState.REVERTIBLE, null, 0, reason);
    }

    /**
     * Whether the original tables serve, from the first shard: its applier's direction says which table follows
     * which, turned around when the follower is gone (a swap the applier has not passed yet).
     */
    private boolean originalServes() throws SQLException {
        try (OnlineDdlShard s = servers.open(shards.get(0))) {
            MigrationPlans.Direction d = s.activeDirection();
            if (d == null) {
                return false; // the first swap: the ALTERed table serves
            }
            boolean passed = s.hasTable(d.plan().database(), d.plan().ghostTable());
            return !d.reverse() == passed;
        }
    }

    /**
     * After a release with ddl.revert.drop.on.release: drops, on every shard, the table the applier was following
     * (it exists, so the applier had passed the last swap; the serving table is never it); says what it dropped.
     */
    private String dropFollowers() throws SQLException {
        List<String> dropped = new ArrayList<>();
        List<String> kept = new ArrayList<>();
        for (String shard : shards) {
            try (OnlineDdlShard s = servers.open(shard)) {
                MigrationPlans.Direction d = s.activeDirection();
                String follower = d == null ? null : d.plan().ghostTable();
                if (follower == null || follower.equalsIgnoreCase(d.plan().table())
                        || !s.hasTable(d.plan().database(), follower)) {
                    kept.add(shard);
                    continue;
                }
                s.dropTable(d.plan().database(), follower);
                dropped.add(shard + ": " + follower);
            }
        }
        LOG.info("Workflow {}: released with ddl.revert.drop.on.release: dropped {}{}", workflow, dropped,
                kept.isEmpty() ? "" : "; nothing to drop on shard(s) " + kept);
        return "dropped (ddl.revert.drop.on.release): " + String.join(", ", dropped)
                + (kept.isEmpty() ? "" : "; nothing to drop on shard(s) " + kept);
    }

    /** A swap of the window that did not happen: the window stays open, the next round tries again. */
    WorkflowStatus retry(WorkflowStatus status, String why) {
        return new WorkflowStatus(WorkflowState.REVERTIBLE, null, status.attempts() + 1, "the revert's cut-over"
                + " attempt " + (status.attempts() + 1) + " did not swap (" + why + "); the window stays open and"
                + " the swap is tried again");
    }

    /** The swap gave up after cutover.max.attempts attempts: the window stays open, nothing is tried until asked. */
    WorkflowStatus revertFailed(WorkflowStatus status, String last) {
        LOG.warn("Workflow {}: the revert's swap failed {} times; the window stays open", workflow, status.attempts());
        return new WorkflowStatus(WorkflowState.REVERTIBLE, null, status.attempts(), "the revert's swap failed "
                + status.attempts() + " times (last: " + last + "); the tables stay as they are and the reverse"
                + " stream runs; to try again, flip ddl.revert and flip it back (or raise cutover.lock.timeout.ms)");
    }

    /** A swap of the window is done on every shard: the appliers run on past it, into the other table. */
    WorkflowStatus swapped(WorkflowStatus status) {
        tellAll.accept("RUN");
        LOG.info("Workflow {}: swapped back on every shard; the tables that served now follow", workflow);
        return new WorkflowStatus(WorkflowState.REVERTIBLE, null, 0, "swapped: the other tables follow once each"
                + " shard's applier passes the swap");
    }

    /**
     * Retires the appliers: the tables stay as they are; the migration is COMPLETE when the ALTERed tables serve,
     * REVERTED when the originals do.
     */
    WorkflowStatus end(WorkflowStatus status, String why) throws SQLException {
        return end(status, why, false);
    }

    /** {@link #end(WorkflowStatus, String)}, dropping the tables that followed when {@code drop}. */
    private WorkflowStatus end(WorkflowStatus status, String why, boolean drop) throws SQLException {
        tellAll.accept("HANDED_OFF");
        boolean reverted = originalServes(); // before a drop: the follower's existence tells the side
        LOG.info("Workflow {}: the revert window ends ({}); the appliers are retired, the {} tables serve", workflow,
                why, reverted ? "original" : "ALTERed");
        String other = reverted ? "ALTERed" : "original";
        String tail = drop ? dropFollowers() : "the " + other + " tables are kept (not updated any more) until dropped";
        return reverted
                ? new WorkflowStatus(WorkflowState.REVERTED, null, status.attempts(), "reverted: the original tables"
                + " serve, holding every write made to the ALTERed ones; the revert window has ended: " + why + "; "
                + tail)
                : new WorkflowStatus(WorkflowState.COMPLETE, null, status.attempts(), "the tables are swapped; the"
                + " revert window has ended: " + why + "; " + tail);
    }

}
