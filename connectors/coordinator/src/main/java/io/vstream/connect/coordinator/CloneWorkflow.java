package io.vstream.connect.coordinator;

import io.vstream.connect.jdbc.AppliedTable;
import io.vstream.connect.jdbc.StreamTables;
import io.vstream.connect.core.position.GtidPosition;
import io.vstream.connect.core.position.MariadbGtid;
import io.vstream.connect.core.position.MariadbGtidPosition;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The clone workflow's state machine (seed 003): waits while the applier copies and catches up, then hands the
 * target over to native replication at an exact position S, in numbered steps (see {@link HandoffStep}):
 * pause the applier; open a consistent snapshot of the source at S and let the applier run to exactly S; compare
 * every table the stream holds by checksum there ({@link CloneComparison}); retire the applier, configure
 * replication from S and start it; verify it runs and catches up ({@link ReplicaCatchUp}).
 * A failed step before the hand-off lets the applier run again and retries later; a restart resumes from the
 * persisted step, checking the target's replication state rather than assuming it. Touches the source (reads) and
 * the target (control row, replication), through {@link CloneServers} (the task wires {@link JdbcCloneServers}).
 */
final class CloneWorkflow implements Workflow {
    private static final Logger LOG = LoggerFactory.getLogger(CloneWorkflow.class);

    private final VStreamCoordinatorConnectorConfig config;
    private final CloneServers servers;
    private final ApplierChannel applier; // the control row an on-demand diff holds
    private final String workflow;
    private final ReplicaCatchUp catchUp;
    private StatusRecords.Progress progress = StatusRecords.Progress.NONE;
    private List<ShardStatus> shardStatuses = List.of();
    /** The tables the hand-off compared in this task (named in the COMPLETE status); null after a restart. */
    private List<String> checked;

    CloneWorkflow(VStreamCoordinatorConnectorConfig config, String workflow, CloneServers servers) {
        this(config, workflow, servers, WaitPace.SYSTEM);
    }

    /** {@code pace}: the time the hand-off's last step waits on (tests give one that does not sleep). */
    CloneWorkflow(VStreamCoordinatorConnectorConfig config, String workflow, CloneServers servers, WaitPace pace) {
        this.config = config;
        this.workflow = workflow;
        this.servers = servers;
        this.applier = new ApplierChannel(config.stateDatabase(), config.applierStream());
        this.catchUp = new ReplicaCatchUp(workflow, config.stopTimeout(), pace);
    }

    @Override
    public WorkflowType type() {
        return WorkflowType.CLONE;
    }

    @Override
    public StatusRecords.Progress progress() {
        return progress;
    }

    /** Retires the applier (the target keeps what it has applied; replication is not set up). */
    @Override
    public WorkflowStatus cancel(WorkflowStatus status) throws SQLException {
        servers.retireApplier();
        return new WorkflowStatus(WorkflowState.CANCELLED, null, status.attempts(), "cancelled by the operator");
    }

    @Override
    public WorkflowStatus step(WorkflowStatus status) throws SQLException, InterruptedException {
        if (status.state().isFinal()) {
            return status;
        }
        try (CloneServers.Round round = servers.open()) {
            List<AppliedTable.Row> applied = round.applied();
            measure(round.sourcePosition(), applied);
            switch (status.state()) {
                case CREATED: {
                    List<String> problems = round.preflight(!applied.isEmpty());
                    if (!problems.isEmpty()) {
                        return status.failed("preflight: " + String.join("; ", problems));
                    }
                    LOG.info("Workflow {}: preflight passed", workflow);
                    return status.to(WorkflowState.COPYING);
                }
                case COPYING:
                case CATCHING_UP:
                case READY:
                case POSTPONED:
                    return watch(status, applied);
                case CUTTING_OVER:
                    return handoff(status, round);
                default:
                    return status;
            }
        }
    }

    private void measure(String src, List<AppliedTable.Row> applied) {
        String sourcePos = src == null ? null : "MariaDB/" + src;
        String appliedPos = applied.size() == 1 ? applied.get(0).position() : null;
        Integer copying = applied.size() == 1 ? tablesCopying(applied.get(0).copyState()) : null;
        Long lagMs = applied.size() == 1 ? ApplierLag.millis(applied.get(0), System.currentTimeMillis()) : null;
        progress = new StatusRecords.Progress(sourcePos, appliedPos, lag(sourcePos, appliedPos), copying, null, null,
                null, null, null, null, lagMs);
        List<ShardStatus> perShard = new ArrayList<>();
        for (AppliedTable.Row a : applied) {
            Integer tables = tablesCopying(a.copyState());
            String state = a.position() == null ? ShardStatus.WAITING : tables == null || tables > 0
                    ? ShardStatus.COPYING : ShardStatus.STREAMING;
            String topic = a.topic() == null ? "" : a.topic();
            perShard.add(new ShardStatus(topic.substring(topic.lastIndexOf('.') + 1), state, a.position(),
                    ApplierLag.millis(a, System.currentTimeMillis()), lag(sourcePos, a.position()), a.rowsCopied(),
                    null));
        }
        shardStatuses = List.copyOf(perShard);
    }

    @Override
    public List<ShardStatus> shards() {
        return shardStatuses;
    }

    /**
     * While the applier streams (caught up or catching up), the diff holds it through its control row; after the
     * hand-off it holds native replication. Not during the copy (the target is incomplete) or the hand-off itself.
     */
    @Override
    public DiffPlan diffPlan(WorkflowStatus status) throws SQLException {
        switch (status.state()) {
            case CREATED:
            case COPYING:
                return DiffPlan.refusedBecause("the clone is still copying (state " + status.state() + "): its target"
                        + " is incomplete until the copy ends; run the diff once the workflow is CATCHING_UP, READY,"
                        + " POSTPONED or COMPLETE");
            case CATCHING_UP:
            case READY:
            case POSTPONED:
            case COMPLETE: {
                try (Connection target = Servers.open(config.target())) {
                    List<DiffPlan.Table> tables = new ArrayList<>();
                    for (StreamTables.Entry e : StreamTables.read(target, config.stateDatabase(),
                            config.applierStream())) {
                        tables.add(new DiffPlan.Table(e.target(), e.sourceDatabase(), e.sourceTable(),
                                (src, tgt) -> MappedChecksum.prepareSame(src, e.sourceDatabase(), e.sourceTable(),
                                        tgt, e.targetDatabase(), e.targetTable(), config.diffChunkRows())));
                    }
                    if (status.state() != WorkflowState.COMPLETE) {
                        return DiffPlan.of("stream", List.of(new DiffPlan.Part(null, config.source(),
                                config.target(), new ApplierHold(applier, config.applierStream(),
                                config.stopTimeout()), tables)));
                    }
                    if (!"HANDED_OFF".equals(applier.currentCommand(target))) {
                        return DiffPlan.refusedBecause("the clone completed without a hand-off to native replication");
                    }
                    return DiffPlan.of("replica", List.of(new DiffPlan.Part(null, config.source(), config.target(),
                            new ReplicaHold(config.stopTimeout()), tables)));
                }
            }
            case CUTTING_OVER:
            case STALLED:
                return DiffPlan.waitingBecause("the workflow is " + status.state() + "; the diff runs once it is"
                        + " streaming or complete");
            default:
                return DiffPlan.refusedBecause("the workflow is " + status.state());
        }
    }

    private WorkflowStatus watch(WorkflowStatus status, List<AppliedTable.Row> applied) {
        if (applied.isEmpty() || progress.appliedPosition() == null && applied.size() == 1) {
            return status.state() == WorkflowState.COPYING ? status : status.to(WorkflowState.COPYING);
        }
        if (applied.size() > 1) {
            return status.failed("the applier stream '" + config.applierStream() + "' applies " + applied.size()
                    + " partitions (source shards): a native replica can mirror exactly one source shard, so the"
                    + " hand-off is not possible; clone each shard with its own sink and coordinator");
        }
        if (progress.tablesCopying() == null || progress.tablesCopying() > 0) {
            return status.state() == WorkflowState.COPYING ? status : status.to(WorkflowState.COPYING);
        }
        Long lag = progress.lagTransactions();
        if (!ApplierLag.caughtUp(lag, config.readyMaxLag(), progress.lagMs(), config.readyMaxLagTime().toMillis())) {
            return status.state() == WorkflowState.CATCHING_UP ? status : status.to(WorkflowState.CATCHING_UP);
        }
        if (config.postponed()) {
            return status.state() == WorkflowState.POSTPONED ? status : status.to(WorkflowState.POSTPONED);
        }
        if (status.state() != WorkflowState.READY) {
            return status.to(WorkflowState.READY); // published for one round before the hand-off starts
        }
        LOG.info("Workflow {}: ready (lag {} transactions, {} ms); starting the hand-off", workflow, lag,
                progress.lagMs());
        return status.at(HandoffStep.PAUSE);
    }

    private WorkflowStatus handoff(WorkflowStatus status, CloneServers.Round round)
            throws SQLException, InterruptedException {
        HandoffStep step = status.step() == null ? HandoffStep.PAUSE : status.step();
        if (step == HandoffStep.REPLICATE || step == HandoffStep.VERIFY
                || "HANDED_OFF".equals(round.applierCommand()) && round.replicationConfigured()) {
            return catchUp.await(status, round, checked);
        }
        long t0 = System.nanoTime();
        // 1. pause the applier at its next transaction boundary
        round.tellApplier("PAUSE", null);
        ApplierChannel.Ack paused = round.awaitAck("PAUSE", null);
        if (paused == null) {
            return abort(round, status, "the applier did not pause within " + config.stopTimeout().toMillis()
                    + " ms");
        }
        LOG.info("Workflow {}: step 1 (pause) done at {} in {} ms", workflow, paused.position(), ms(t0));
        // 2. a consistent snapshot of the source at S; the applier runs to exactly S
        try (CloneServers.Snapshot snap = round.snapshot()) {
            String s = snap.position().format();
            round.tellApplier("STOP_AT", s);
            ApplierChannel.Ack stopped = round.awaitAck("STOP_AT", s);
            if (stopped == null) {
                return abort(round, status, "the applier did not reach " + s + " within "
                        + config.stopTimeout().toMillis() + " ms");
            }
            LOG.info("Workflow {}: step 2 (stop at the snapshot) done: the target holds exactly {} ({} ms)", workflow,
                    s, ms(t0));
            // 3. checksum every table of the stream at S
            CloneComparison compared;
            try {
                compared = snap.compare();
            } catch (SQLException | RuntimeException e) {
                round.tellApplier("RUN", null);
                throw e;
            }
            if (compared.problem() != null) {
                round.tellApplier("RUN", null);
                return status.failed("checksum at " + s + ": " + compared.problem() + "; the applier keeps running;"
                        + " fix it, then restart the workflow (delete the coordinator's offsets)");
            }
            LOG.info("Workflow {}: step 3 (checksum) done: all {} tables match at {}: {} ({} ms)", workflow,
                    compared.tables().size(), s, compared.tables(), ms(t0));
            // 4. retire the applier, and replicate from S. The control write comes before RESET MASTER (a write
            //    after it would put a GTID of the target's own into its binlog, which replication would then
            //    conflict with). Until replication starts nothing has replicated, so a failure lets the applier
            //    run again: the next attempt starts over.
            round.tellApplier("HANDED_OFF", null);
            try {
                round.configureReplication(snap.position(), compared.databases());
            } catch (SQLException | RuntimeException e) {
                round.tellApplier("RUN", null);
                LOG.warn("Workflow {}: step 4 (replicate) failed before replication started; the applier runs"
                        + " again: {}", workflow, e.toString());
                throw e;
            }
            round.startReplication();
            checked = compared.tables();
            LOG.info("Workflow {}: step 4 (replicate) done: the target replicates {} from {} ({} ms)", workflow,
                    compared.databases(), s, ms(t0));
        }
        return catchUp.await(status.at(HandoffStep.VERIFY), round, checked);
    }

    /**
     * Abandons a hand-off attempt before anything replicated: the applier runs again, and the workflow tries again
     * on a later round, or fails after {@code cutover.max.attempts} abandoned attempts.
     */
    private WorkflowStatus abort(CloneServers.Round round, WorkflowStatus status, String why) throws SQLException {
        round.tellApplier("RUN", null);
        int attempts = status.attempts() + 1;
        if (attempts >= config.cutOverMaxAttempts()) {
            LOG.warn("Workflow {}: hand-off attempt {} aborted: {}; no attempt left (cutover.max.attempts={})",
                    workflow, attempts, why, config.cutOverMaxAttempts());
            return new WorkflowStatus(WorkflowState.FAILED, null, attempts, "the hand-off was abandoned " + attempts
                    + " times (last: " + why + "); nothing replicated, and the applier runs on and keeps the target"
                    + " up to date: raise handoff.stop.timeout.ms or cutover.max.attempts, then restart the workflow");
        }
        LOG.warn("Workflow {}: hand-off attempt {} aborted: {}; the applier runs again, retrying later", workflow,
                attempts, why);
        return status.retry(why);
    }

    /**
     * The {@code replicate_wild_do_table} value that carries every table of {@code databases}: {@code db.%} each,
     * with the pattern characters of the name escaped ({@code _} matches one character otherwise).
     */
    static String wildDoTable(List<String> databases) {
        List<String> patterns = new ArrayList<>();
        for (String db : databases) {
            if (db.contains(",")) {
                throw new IllegalArgumentException("database " + db + " has a comma in its name, which"
                        + " replicate_wild_do_table cannot hold");
            }
            patterns.add(db.replace("\\", "\\\\").replace("_", "\\_").replace("%", "\\%") + ".%");
        }
        return String.join(",", patterns);
    }

    /**
     * Whether the applier's position has reached {@code s}. It can be past S only by transactions of tables the
     * stream does not carry (a heartbeat moved it), which replication filters out (see startReplication).
     */
    static boolean reached(String applied, String s) {
        try {
            return GtidPosition.parse(applied).contains(GtidPosition.parse(s));
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** Tables still to copy: null while unknown (no copy progress yet), 0 once the copy has completed. */
    static Integer tablesCopying(String copyState) {
        if (copyState == null || copyState.isBlank()) {
            return null;
        }
        return io.vstream.connect.core.position.OffsetCodec.copyStateFromJson(copyState).size();
    }

    /** Transactions the applier is behind (per MariaDB domain, summed); null when unknown. */
    static Long lag(String source, String applied) {
        if (source == null || applied == null) {
            return null;
        }
        try {
            GtidPosition s = GtidPosition.parse(source);
            GtidPosition a = GtidPosition.parse(applied);
            if (a.contains(s)) {
                return 0L;
            }
            if (!(s instanceof MariadbGtidPosition ms) || !(a instanceof MariadbGtidPosition ma)) {
                return null;
            }
            long lag = 0;
            for (MariadbGtid g : ms.gtids()) {
                long done = ma.gtid(g.domain()).map(MariadbGtid::sequence).orElse(0L);
                lag += Math.max(0, g.sequence() - done);
            }
            return lag;
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private static long ms(long t0) {
        return (System.nanoTime() - t0) / 1_000_000;
    }
}
