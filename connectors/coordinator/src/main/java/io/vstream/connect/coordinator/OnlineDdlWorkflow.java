package io.vstream.connect.coordinator;

import io.vstream.connect.jdbc.MigrationPlans;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The online-DDL workflow's state machine (seeds 001 and 000): starts the migration ({@link OnlineDdlStart}: the
 * preflight, the instant ALTER or the ghost tables and their plans), waits while the applier (the sink in ghost mode)
 * copies and catches up ({@link OnlineDdlWatch}), then cuts over ({@link OnlineDdlCutOver}: the checksum through the
 * column mapping at exact positions, the atomic swap on every shard, a failed attempt retried with the original table
 * in place); with a revert window, keeps the original following the new table and swaps back on request
 * ({@link RevertWindow}). Touches every shard of the table, through {@link OnlineDdlServers} (the task wires
 * {@link JdbcOnlineDdlServers}).
 */
final class OnlineDdlWorkflow implements Workflow {
    private static final Logger LOG = LoggerFactory.getLogger(OnlineDdlWorkflow.class);

    private final VStreamCoordinatorConnectorConfig config;
    private final String workflow;
    private final String migration;
    private final List<String> shards;
    private final OnlineDdlServers servers;
    private final ApplierChannel applier; // the control row an on-demand diff holds
    private final OnlineDdlStart start;
    private final OnlineDdlWatch watch;
    private final OnlineDdlCutOver cutOver;
    private final RevertWindow revertWindow;
    private volatile long lastWriteBlockMs = -1;
    private OnlineDdlCutOver revertCutOver; // while REVERTING: the swap of the direction the appliers follow
    private WorkflowState lastState;

    OnlineDdlWorkflow(VStreamCoordinatorConnectorConfig config, String workflow, OnlineDdlServers servers) {
        this.config = config;
        this.workflow = workflow;
        this.migration = config.ddlMigration(workflow);
        this.shards = List.copyOf(config.shards().keySet());
        this.servers = servers;
        this.applier = new ApplierChannel(config.stateDatabase(), config.applierStream());
        this.start = new OnlineDdlStart(config, workflow, servers);
        this.watch = new OnlineDdlWatch(config, workflow, servers);
        this.revertWindow = new RevertWindow(config, workflow, migration, servers, this::tellAll);
        this.cutOver = new OnlineDdlCutOver(config, workflow, migration, servers, ms -> lastWriteBlockMs = ms,
                revertWindow);
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
                ? revertWindow.progress() : watch.progress();
    }

    @Override
    public WorkflowStatus step(WorkflowStatus status) throws SQLException, InterruptedException {
        lastState = status.state();
        if (status.state().isFinal()) {
            close(); // a final workflow holds no connection
            return status;
        }
        switch (status.state()) {
            case CREATED:
                return start.run(status);
            case COPYING:
            case CATCHING_UP:
            case READY:
            case POSTPONED:
                return watch.round(status);
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
            revertCutOver = OnlineDdlCutOver.revert(config, workflow, key, servers, ms -> lastWriteBlockMs = ms,
                    revertWindow);
        }
        WorkflowStatus next = revertCutOver.step(status);
        if (next.state() != WorkflowState.REVERTING) {
            revertCutOver = null; // the next swap is of the other direction, with a checksum of its own
        }
        return next;
    }

    @Override
    public void close() {
        servers.copies().close();
        servers.close();
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
                for (Map.Entry<String, VStreamCoordinatorConnectorConfig.Endpoint> e : config.shards().entrySet()) {
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
        return watch.shards();
    }

    @Override
    public long lastWriteBlockMs() {
        return lastWriteBlockMs;
    }

    @Override
    public boolean wantsRound() {
        return servers.copies().wantsRound();
    }

    /** Retires the appliers, drops the ghost tables and the plans; the original tables are untouched. */
    @Override
    public WorkflowStatus cancel(WorkflowStatus status) throws SQLException {
        if (status.state() == WorkflowState.REVERTIBLE || status.state() == WorkflowState.REVERTING) {
            // swapped already: nothing to undo, so a cancel ends the revert window
            return revertWindow.end(status, "the operator cancelled the workflow (workflow.cancel=true) after its"
                    + " cut-over, which ends the revert window");
        }
        servers.copies().close();
        cutOver.tellAll("HANDED_OFF");
        for (String shard : shards) {
            try (OnlineDdlShard s = servers.open(shard)) {
                MigrationPlans.Plan plan = s.plan(migration);
                if (plan != null && !cutOver.swapped(shard)) {
                    s.dropGhostTable(plan.database(), plan.ghostTable());
                }
                s.forgetMigration();
            }
        }
        LOG.info("Workflow {}: cancelled; ghost tables dropped, original tables untouched", workflow);
        return new WorkflowStatus(WorkflowState.CANCELLED, null, status.attempts(), "cancelled by the operator");
    }
}
