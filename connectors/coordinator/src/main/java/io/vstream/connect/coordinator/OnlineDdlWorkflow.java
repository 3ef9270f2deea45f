package io.vstream.connect.coordinator;

import io.vstream.connect.coordinator.copy.DeferredIndexes;
import io.vstream.connect.coordinator.copy.GhostCopyState;
import io.vstream.connect.coordinator.ddl.AlterAnalyzer;
import io.vstream.connect.coordinator.ddl.AlterPlan;
import io.vstream.connect.coordinator.ddl.AlterRefusedException;
import io.vstream.connect.coordinator.ddl.RevertAnalysis;
import io.vstream.connect.coordinator.ddl.SchemaReader;
import io.vstream.connect.core.error.ErrorClassifier;
import io.vstream.connect.jdbc.MigrationPlans;
import io.vstream.connect.core.position.GtidPosition;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The online-DDL workflow (seeds 001 and 000): validates the ALTER and creates the ghost table on every shard (the
 * server parses the ALTER: {@link AlterAnalyzer}), stores the plan where the applier (the sink in ghost mode) reads it,
 * waits while the applier copies and catches up (publishing the copy's progress: rows copied, estimated total,
 * percent, rate, ETA; each round's state decided by {@link ReadinessRound}), then cuts over
 * ({@link OnlineDdlCutOver}: the checksum through the column mapping at exact positions, the atomic swap on every
 * shard, a failed attempt retried with the original table in place). Touches every shard of the table.
 */
final class OnlineDdlWorkflow implements Workflow {
    private static final Logger LOG = LoggerFactory.getLogger(OnlineDdlWorkflow.class);
    private static final long ESTIMATE_EVERY_NANOS = 10_000_000_000L;
    private static final long LOG_PROGRESS_EVERY_NANOS = 10_000_000_000L;

    private final VStreamCoordinatorConnectorConfig config;
    private final String workflow;
    private final String migration;
    private final Map<String, VStreamCoordinatorConnectorConfig.Endpoint> shards;
    private final ApplierChannel applier;
    private final AlterAnalyzer analyzer;
    private StatusRecords.Progress progress = StatusRecords.Progress.NONE;
    private List<ShardStatus> shardStatuses = List.of();
    private final CopyProgressEstimator estimator = new CopyProgressEstimator(Duration.ofSeconds(30));
    private final Map<String, Long> estimates = new HashMap<>(); // per shard: the server's estimate of the table's rows
    private long estimatesReadAt;
    private volatile long lastWriteBlockMs = -1;
    private long progressLoggedAt;
    private boolean copyDoneLogged;
    private boolean appliersReleased;
    private final CutOverChecksum checksum;
    private final ServerCopies copies;
    private final RoundConnections roundConnections = new RoundConnections(); // the watch round's, per shard
    private final OnlineDdlCutOver cutOver;
    private final RevertWindow revertWindow;
    private OnlineDdlCutOver revertCutOver; // while REVERTING: the swap of the direction the appliers follow
    private WorkflowState lastState;

    OnlineDdlWorkflow(VStreamCoordinatorConnectorConfig config, String workflow) {
        this.config = config;
        this.workflow = workflow;
        this.migration = config.ddlMigration(workflow);
        this.shards = config.shards();
        this.applier = new ApplierChannel(config.stateDatabase(), config.applierStream());
        this.analyzer = AlterAnalyzer.builder(workflow).ghostNamePattern(config.getString(
                        VStreamCoordinatorConnectorConfig.DDL_GHOST_FORMAT)).stateDatabase(config.stateDatabase())
                .allowNewUniqueKey(config.allowNewUniqueKey()).build();
        this.checksum = new CutOverChecksum(config, workflow, migration, applier);
        this.copies = new ServerCopies(config, migration, applier);
        this.revertWindow = new RevertWindow(config, workflow, migration, applier, this::tellAll);
        this.cutOver = new OnlineDdlCutOver(config, workflow, migration, applier, checksum, copies,
                ms -> lastWriteBlockMs = ms, revertWindow);
    }

    private void tellAll(String command) {
        cutOver.tellAll(command);
    }

    @Override
    public WorkflowType type() {
        return WorkflowType.ONLINE_DDL;
    }

    @Override
    public StatusRecords.Progress progress() {
        return lastState == WorkflowState.REVERTIBLE || lastState == WorkflowState.REVERTING
                ? revertWindow.progress() : progress;
    }

    @Override
    public WorkflowStatus step(WorkflowStatus status) throws SQLException, InterruptedException {
        lastState = status.state();
        if (status.state().isFinal()) {
            copies.close();
            roundConnections.close(); // a final workflow holds no connection
            return status;
        }
        switch (status.state()) {
            case CREATED:
                return create(status);
            case COPYING:
            case CATCHING_UP:
            case READY:
            case POSTPONED:
                return watch(status);
            case CUTTING_OVER:
                return cutOver.step(status);
            case REVERTIBLE:
                return revertWindow.step(status);
            case REVERTING:
                return revert(status);
            default:
                return status;
        }
    }

    /** Analyzes the ALTER on every shard (creating the ghost tables) and stores the plans; refuses before anything runs. */
    private WorkflowStatus create(WorkflowStatus status) throws SQLException {
        List<String> problems = new ArrayList<>();
        for (Map.Entry<String, VStreamCoordinatorConnectorConfig.Endpoint> e : shards.entrySet()) {
            try (Connection c = Servers.open(e.getValue())) {
                problems.addAll(WorkflowGrants.problems(c, "shard " + e.getKey(),
                        WorkflowGrants.onlineDdlShard(config.ddlDatabase(), config.stateDatabase())));
                problems.addAll(OnlineDdlPreflight.check(c, e.getKey(), config.ddlDatabase(), config.ddlTable(),
                        config.ddlAlter()));
                int copyThreads = config.serverCopy() ? config.ghostCopy().threads() : 0;
                String room = ConnectionHeadroom.problem("shard " + e.getKey(), ConnectionHeadroom.read(c),
                        copyThreads + 7, copyThreads + 3, "the coordinator's " + copyThreads + " copy thread(s)"
                                + " (ddl.copy.threads) and 3 for its rounds, checksum and cut-over; 2 for the source"
                                + " and 2 for the sink");
                if (room != null) {
                    problems.add(room);
                }
            }
        }
        if (!problems.isEmpty()) {
            return status.failed("the preflight refused the migration (nothing was created): "
                    + String.join("; ", problems));
        }
        if (config.preferInstant() && !config.revertWindow().isZero()) {
            LOG.info("Workflow {}: the ALTER copies the table even if the server could run it instantly: a revert"
                    + " (ddl.revert.window.ms) needs the original", workflow);
        } else if (config.preferInstant()) {
            WorkflowStatus instant = new InstantMigration(config, workflow, migration).run(status);
            if (instant != null) {
                return instant;
            }
        }
        Map<String, AlterPlan> plans = new LinkedHashMap<>();
        for (Map.Entry<String, VStreamCoordinatorConnectorConfig.Endpoint> e : shards.entrySet()) {
            try (Connection c = Servers.open(e.getValue())) {
                AlterPlan plan;
                try {
                    plan = analyzer.analyze(c, config.ddlDatabase(), config.ddlTable(), config.ddlAlter());
                } catch (SQLException ex) {
                    if (ErrorClassifier.isRetriable(ex)) {
                        throw ex;
                    }
                    dropGhosts(plans);
                    return status.failed("shard " + e.getKey() + " refused the ghost table: " + ex.getMessage()
                            + " (error " + ex.getErrorCode() + "); the original table is untouched: fix the ALTER"
                            + " (or the rows it cannot hold) and start the migration again");
                }
                AlterPlan first = plans.values().stream().findFirst().orElse(null);
                if (first != null && first.difference(plan).isPresent()) {
                    plans.put(e.getKey(), plan);
                    dropGhosts(plans);
                    return status.failed("shard " + e.getKey() + " migrates differently from the others ("
                            + first.difference(plan).get() + "): the table must have the same definition on every"
                            + " shard");
                }
                plans.put(e.getKey(), plan);
                if (!config.revertWindow().isZero()) {
                    saveRevertPlan(c, e.getKey(), plan);
                }
                if (config.serverCopy() && config.deferIndexes()) {
                    List<String> deferred = DeferredIndexes.defer(c, config.stateDatabase(), migration,
                            plan.database(), plan.ghost(), plan.ghostCreate());
                    if (!deferred.isEmpty()) {
                        LOG.info("Workflow {}: shard {}: key(s) {} of the ghost are built once the copy is done"
                                + " (ddl.copy.defer.indexes)", workflow, e.getKey(), deferred);
                    }
                }
                MigrationPlans.save(c, config.stateDatabase(), new MigrationPlans.Plan(migration, plan.database(),
                        plan.table(), plan.ghost(), plan.mapping(), plan.sharedKey(), plan.writesByDelete()));
                if (!plan.notes().isEmpty()) {
                    LOG.info("Workflow {}: shard {}: {}", workflow, e.getKey(), String.join("; ", plan.notes()));
                }
            } catch (AlterRefusedException ex) {
                dropGhosts(plans);
                return status.failed("the ALTER is refused: " + ex.getMessage());
            }
        }
        AlterPlan any = plans.values().iterator().next();
        LOG.info("Workflow {}: ghost table {} created on {} shard(s); mapping {}", workflow, any.ghost(),
                plans.size(), any.mapping().toJson());
        return status.to(WorkflowState.COPYING);
    }

    /**
     * One round of a revert's swap: of the direction every shard's applier follows (the serving table and the one
     * that follows it), chosen when the swap starts; back to REVERTIBLE when the appliers are not all past their last
     * swap in one direction (nothing to swap yet).
     */
    private WorkflowStatus revert(WorkflowStatus status) throws SQLException, InterruptedException {
        if (revertCutOver == null) {
            String key = revertWindow.activeKey();
            if (key == null) {
                return new WorkflowStatus(WorkflowState.REVERTIBLE, null, status.attempts(), "the revert waits for"
                        + " every shard's applier to pass the last swap");
            }
            revertCutOver = OnlineDdlCutOver.revert(config, workflow, key, applier, ms -> lastWriteBlockMs = ms,
                    revertWindow);
        }
        WorkflowStatus next = revertCutOver.step(status);
        if (next.state() != WorkflowState.REVERTING) {
            revertCutOver = null; // the next swap is of the other direction, with a checksum of its own
        }
        return next;
    }

    /**
     * Stores the shard's reverse plan (the new table's columns onto the original's: {@link RevertAnalysis}), read
     * from both tables while the ghost still has all of its keys. An ALTER that cannot be reverted (a dropped NOT NULL
     * column without a default, no shared unique key the other way) is not refused: it runs without a revert window,
     * the reason logged.
     */
    private void saveRevertPlan(Connection c, String shard, AlterPlan plan) throws SQLException {
        try {
            RevertAnalysis revert = RevertAnalysis.of(plan.database() + "." + plan.table(),
                    SchemaReader.shape(c, plan.database(), plan.table()),
                    SchemaReader.shape(c, plan.database(), plan.ghost()), plan.mapping(), true);
            MigrationPlans.saveDirection(c, config.stateDatabase(), MigrationPlans.revertKey(migration),
                    plan.database(), plan.table(), revert.mapping(), revert.sharedKey(), revert.writesByDelete());
            // after a revert the ALTERed table follows the original again, through the migration's own mapping
            MigrationPlans.saveDirection(c, config.stateDatabase(), MigrationPlans.forwardKey(migration),
                    plan.database(), plan.table(), plan.mapping(), plan.sharedKey(), plan.writesByDelete());
            LOG.info("Workflow {}: shard {}: after the cut-over the reverse stream keeps the original equal to the new"
                    + " table through {}{}{}", workflow, shard, revert.mapping().toJson(),
                    revert.mayNotFit().isEmpty() ? "" : "; a value of " + revert.mayNotFit() + " the original's type"
                            + " cannot hold ends the revert window",
                    revert.notes().isEmpty() ? "" : "; " + String.join("; ", revert.notes()));
        } catch (AlterRefusedException ex) {
            MigrationPlans.delete(c, config.stateDatabase(), MigrationPlans.revertKey(migration));
            MigrationPlans.delete(c, config.stateDatabase(), MigrationPlans.forwardKey(migration));
            LOG.warn("Workflow {}: shard {}: this ALTER cannot be reverted, so it completes at the cut-over without a"
                    + " revert window: {}", workflow, shard, ex.getMessage());
        }
    }

    private void dropGhosts(Map<String, AlterPlan> plans) {
        for (Map.Entry<String, AlterPlan> p : plans.entrySet()) {
            try (Connection c = Servers.open(shards.get(p.getKey()))) {
                analyzer.dropGhost(c, p.getValue());
                MigrationPlans.delete(c, config.stateDatabase(), migration);
                DeferredIndexes.delete(c, config.stateDatabase(), migration);
            } catch (SQLException | IllegalStateException ex) {
                LOG.warn("Workflow {}: could not drop the ghost table on shard {} ({})", workflow, p.getKey(),
                        ex.toString());
            }
        }
    }

    /** Looks at every shard's applier progress; the slowest shard decides the state. */
    private WorkflowStatus watch(WorkflowStatus status) throws SQLException {
        copies.roundStarts();
        boolean awaiting = false;
        if (!appliersReleased) {
            // A coordinator that died in a checksum slice left its applier paused (or stopping at a position): its
            // successor, which lost the slice with its memory, lets every applier run before it waits on them.
            for (VStreamCoordinatorConnectorConfig.Endpoint e : shards.values()) {
                try (Connection c = Servers.open(e)) {
                    applier.command(c, "RUN", null); // a failure is retried with the round (nothing released yet)
                }
            }
            appliersReleased = true;
        }
        boolean refreshEstimates = System.nanoTime() - estimatesReadAt > ESTIMATE_EVERY_NANOS || estimates.isEmpty();
        ReadinessRound round = new ReadinessRound();
        String hold = config.serverCopy() ? copies.hold() : null; // holds every shard's server copy
        for (Map.Entry<String, VStreamCoordinatorConnectorConfig.Endpoint> e : shards.entrySet()) {
            Connection c = roundConnections.get(e.getKey(), e.getValue());
            try {
                String failure = applier.failure(c);
                if (failure != null) {
                    return status.failed("the applier on shard " + e.getKey() + " cannot go on: " + failure
                            + "; the original table is untouched (cancel the workflow to drop the ghost tables)");
                }
                if (refreshEstimates) {
                    estimates.put(e.getKey(), estimateRows(c));
                }
                List<ApplierChannel.Applied> rows = applier.applied(c);
                if (rows.size() != 1 || rows.get(0).position() == null) {
                    awaiting = true; // the copy starts once this shard's applier has a position
                    round.waiting(e.getKey());
                    continue;
                }
                ApplierChannel.Applied a = rows.get(0);
                String why;
                Integer copyingLeft;
                Long rowsCopied;
                if (config.serverCopy()) {
                    String refused = ServerCopies.refuseSourceCopy(e.getKey(), a);
                    if (refused != null) {
                        return status.failed(refused);
                    }
                    GhostCopyState.Summary copy = GhostCopyState.summary(c, config.stateDatabase(), migration);
                    why = copy.done() ? null : hold != null ? hold : throttleReason(e.getKey(), a, true);
                    String stopped = copies.follow(e.getKey(), e.getValue(), copy, why);
                    if (stopped != null) {
                        copies.close();
                        return status.failed("the copy on shard " + e.getKey() + " cannot go on: " + stopped);
                    }
                    rowsCopied = copy.rowsCopied();
                    // the deferred keys are built while the checksum runs (it reads by the shared key only); the
                    // swap waits for them (cutOver)
                    copyingLeft = copy.rowsDone() ? 0 : 1;
                } else {
                    String copy = a.copyState();
                    why = throttleReason(e.getKey(), a, copy == null || !"[]".equals(copy.trim()));
                    applier.throttle(c, config.ddlDatabase(), why, why == null ? Duration.ZERO : Duration.ofSeconds(5));
                    copyingLeft = copy == null || copy.isBlank() ? null
                            : io.vstream.connect.core.position.OffsetCodec.copyStateFromJson(copy).size();
                    rowsCopied = a.rowsCopied();
                }
                String src = "MariaDB/" + Servers.string(c, "SELECT @@GLOBAL.gtid_binlog_pos");
                round.shard(e.getKey(), a.position(), copyingLeft, rowsCopied, estimates.getOrDefault(e.getKey(), 0L),
                        CloneWorkflow.lag(src, a.position()), ApplierLag.millis(a, System.currentTimeMillis()), why);
            } catch (SQLException | RuntimeException failed) {
                roundConnections.discard(e.getKey()); // the next round reconnects
                throw failed;
            }
        }
        shardStatuses = round.shards();
        copies.awaitingApplier(awaiting && config.serverCopy());
        if (refreshEstimates) {
            estimatesReadAt = System.nanoTime();
        }
        String reason = round.throttleReason();
        boolean unknown = round.unknown();
        CopyProgressEstimator.Estimate estimate = round.counted()
                ? estimator.observe(System.nanoTime(), round.copied(), round.total(), !unknown && round.copying() == 0)
                : null;
        progress = new StatusRecords.Progress(null, round.applied(), unknown ? null : round.maxLag(),
                unknown ? null : round.copying(), estimate == null ? null : estimate.rowsCopied(),
                estimate == null ? null : estimate.rowsTotal(), estimate == null ? null : estimate.percent(),
                estimate == null || estimate.rowsPerSecond() == null ? null
                        : Math.round(estimate.rowsPerSecond() * 10) / 10.0,
                estimate == null ? null : estimate.etaMs(), reason, unknown ? null : round.maxLagMs());
        logProgress(estimate, reason);
        if (!java.util.Objects.equals(reason, status.reason()) && status.state() != WorkflowState.CREATED) {
            status = new WorkflowStatus(status.state(), status.step(), status.attempts(), reason);
        }
        if (round.catchingUp(config.readyMaxLagTime())) {
            long now = System.nanoTime();
            if (now - progressLoggedAt >= LOG_PROGRESS_EVERY_NANOS) {
                progressLoggedAt = now;
                Long maxLagMs = round.maxLagMs();
                LOG.info("Workflow {}: catching up: the slowest applier is {} behind (ready within {} ms); applied"
                        + " {}", workflow, maxLagMs == null ? "an unknown time" : maxLagMs + " ms",
                        config.readyMaxLagTime().toMillis(), round.applied());
            }
        }
        return round.decide(status, config.readyMaxLagTime(), config.postponed());
    }

    /** Logs the copy's progress at INFO every 10 seconds while it runs, and once when it has completed. */
    private void logProgress(CopyProgressEstimator.Estimate estimate, String throttled) {
        if (estimate == null) {
            return;
        }
        boolean done = estimate.etaMs() != null && estimate.etaMs() == 0 && estimate.percent() >= 100.0;
        if (done) {
            if (!copyDoneLogged) {
                copyDoneLogged = true;
                LOG.info("Workflow {}: copy completed on every shard: {} rows copied", workflow,
                        estimate.rowsCopied());
            }
            return;
        }
        copyDoneLogged = false;
        long now = System.nanoTime();
        if (now - progressLoggedAt >= LOG_PROGRESS_EVERY_NANOS) {
            progressLoggedAt = now;
            LOG.info("Workflow {}: copying: {}{}", workflow, estimate.describe(),
                    throttled == null ? "" : " (" + throttled + ")");
        }
    }

    /**
     * The server's estimate of the original table's rows (InnoDB statistics: {@code information_schema.TABLES}, or
     * EXPLAIN when that has none); 0 when unknown.
     */
    private long estimateRows(Connection c) throws SQLException {
        try (java.sql.PreparedStatement ps = c.prepareStatement(io.vstream.connect.core.sql.SqlTag.tag("coordinator",
                "SELECT TABLE_ROWS FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?"))) {
            ps.setString(1, config.ddlDatabase());
            ps.setString(2, config.ddlTable());
            try (java.sql.ResultSet rs = ps.executeQuery()) {
                if (rs.next() && rs.getLong(1) > 0) {
                    return rs.getLong(1);
                }
            }
        }
        try (java.sql.Statement st = c.createStatement(); java.sql.ResultSet rs = st.executeQuery(
                io.vstream.connect.core.sql.SqlTag.tag("coordinator", "EXPLAIN SELECT * FROM "
                        + io.vstream.connect.core.sql.SqlIdentifiers.qualify(config.ddlDatabase(),
                        config.ddlTable())))) {
            return rs.next() ? Math.max(0, rs.getLong("rows")) : 0;
        } catch (SQLException e) {
            return 0;
        }
    }

    /**
     * Why the copy on a shard must wait: its applier lags more than the configured time ({@link ApplierLag}) while
     * the copy runs; null when it may go on. The server copy is told directly, the source's copy through
     * {@code _vstream.throttle} on the shard.
     */
    private String throttleReason(String shard, ApplierChannel.Applied a, boolean copying) {
        long max = config.throttleMaxApplierLag().toMillis();
        Long behind = ApplierLag.millis(a, System.currentTimeMillis());
        if (!copying || max <= 0 || behind == null || behind <= max) {
            return null;
        }
        return "the applier on shard " + shard + " is " + behind + " ms behind (max " + max + " ms)";
    }

    @Override
    public void close() {
        copies.close();
        roundConnections.close();
    }

    /**
     * Before the cut-over, each shard's original table against its ghost through the migration's column mapping (as
     * the cut-over's checksum compares them), holding the shard's applier; not while the ghost is still being copied,
     * and not after the swap (the ghost is then the table).
     */
    @Override
    public DiffPlan diffPlan(WorkflowStatus status) {
        switch (status.state()) {
            case CREATED:
            case COPYING:
                return DiffPlan.refusedBecause("the ghost tables are still being copied (state " + status.state()
                        + "); run the diff once the workflow is CATCHING_UP, READY or POSTPONED");
            case CATCHING_UP:
            case READY:
            case POSTPONED: {
                List<DiffPlan.Part> parts = new ArrayList<>();
                for (Map.Entry<String, VStreamCoordinatorConnectorConfig.Endpoint> e : shards.entrySet()) {
                    String table = config.ddlDatabase() + "." + config.ddlTable();
                    DiffPlan.Table t = new DiffPlan.Table(table + " against its ghost", config.ddlDatabase(),
                            config.ddlTable(), (src, tgt) -> {
                                MigrationPlans.Plan plan = MigrationPlans.load(src, config.stateDatabase(),
                                        migration);
                                if (plan == null) {
                                    throw new IllegalArgumentException("the shard has no plan of migration "
                                            + migration);
                                }
                                return MappedChecksum.prepare(src, plan, config.diffChunkRows());
                            });
                    parts.add(new DiffPlan.Part(e.getKey(), e.getValue(), e.getValue(), new ApplierHold(applier,
                            config.applierStream(), config.stopTimeout()), List.of(t)));
                }
                return DiffPlan.of("ghost", parts);
            }
            case CUTTING_OVER:
            case STALLED:
                return DiffPlan.waitingBecause("the workflow is " + status.state() + "; the diff runs once it is"
                        + " streaming again");
            case REVERTIBLE:
            case REVERTING:
                return DiffPlan.refusedBecause("the ALTER has swapped the tables: the new table serves, and the"
                        + " reverse stream keeps the original equal to it until the revert window ends");
            case REVERTED:
                return DiffPlan.refusedBecause("the ALTER is reverted: the original tables serve again");
            case COMPLETE:
                return DiffPlan.refusedBecause("the ALTER is complete: the ghost is the table now, and the original"
                        + " was kept unchanged since the cut-over; there is nothing to compare");
            default:
                return DiffPlan.refusedBecause("the workflow is " + status.state());
        }
    }

    @Override
    public List<ShardStatus> shards() {
        return shardStatuses;
    }

    @Override
    public long lastWriteBlockMs() {
        return lastWriteBlockMs;
    }

    @Override
    public boolean wantsRound() {
        return copies.wantsRound();
    }

    /** Retires the appliers, drops the ghost tables and the plans; the original tables are untouched. */
    @Override
    public WorkflowStatus cancel(WorkflowStatus status) throws SQLException {
        if (status.state() == WorkflowState.REVERTIBLE || status.state() == WorkflowState.REVERTING) {
            // swapped already: nothing to undo, so a cancel ends the revert window
            return revertWindow.end(status, "the operator cancelled the workflow (workflow.cancel=true) after its"
                    + " cut-over, which ends the revert window");
        }
        copies.close();
        cutOver.tellAll("HANDED_OFF");
        for (Map.Entry<String, VStreamCoordinatorConnectorConfig.Endpoint> e : shards.entrySet()) {
            try (Connection c = Servers.open(e.getValue())) {
                MigrationPlans.Plan plan = MigrationPlans.load(c, config.stateDatabase(), migration);
                if (plan != null && !cutOver.swapped(e.getValue())) {
                    analyzer.dropGhost(c, plan.database(), plan.ghostTable());
                }
                MigrationPlans.delete(c, config.stateDatabase(), migration);
                GhostCopyState.delete(c, config.stateDatabase(), migration);
                DeferredIndexes.delete(c, config.stateDatabase(), migration);
            }
        }
        LOG.info("Workflow {}: cancelled; ghost tables dropped, original tables untouched", workflow);
        return new WorkflowStatus(WorkflowState.CANCELLED, null, status.attempts(), "cancelled by the operator");
    }

    static GtidPosition position(String text) {
        return GtidPosition.parse(text);
    }
}
