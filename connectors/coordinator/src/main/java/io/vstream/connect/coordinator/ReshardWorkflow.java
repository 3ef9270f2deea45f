package io.vstream.connect.coordinator;

import io.vstream.connect.core.reshard.Journal;
import io.vstream.connect.jdbc.AppliedTable;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The reshard workflow's state machine (seed 004): after the preflight, waits while the applier (the sink in reshard
 * mode) copies the old shards into the new ones and catches up, then switches in steps (see {@link HandoffStep}):
 * <ol>
 *   <li>READ_ONLY: {@code SET GLOBAL read_only = ON} on every old shard, so application writes fail there from now
 *       on (application accounts must not hold READ_ONLY ADMIN / SUPER; docs/reshard.md);</li>
 *   <li>WAIT_APPLIED: read each old shard's final position F, and wait until every new shard's applied state for each
 *       old shard that overlaps it contains F; read each new shard's start position; the journal is built;</li>
 *   <li>JOURNAL: write the journal into every old shard (it reaches their binlogs, where running streams meet it) and
 *       every new shard (it outlives the old ones), and retire the applier.</li>
 * </ol>
 * Every step is idempotent and a restart resumes it: a journal already written on any shard is reused as is, so the
 * positions it records never change. A wait that times out makes the old shards writable again and retries later.
 * Touches the old shards (read_only, journal) and the new shards (journal, the applier's control row), through
 * {@link ReshardServers} (the task wires {@link JdbcReshardServers}); what a round measured is
 * {@link ReshardProgress}'s, what a diff compares {@link ReshardDiff}'s.
 */
final class ReshardWorkflow implements Workflow {
    private static final Logger LOG = LoggerFactory.getLogger(ReshardWorkflow.class);

    private final VStreamCoordinatorConnectorConfig config;
    private final ReshardServers servers;
    private final String workflow;
    private final Map<String, VStreamCoordinatorConnectorConfig.Endpoint> oldShards;
    private final Map<String, VStreamCoordinatorConnectorConfig.Endpoint> newShards;
    private final ReshardProgress measured;
    private final ReshardDiff diff;
    private final WaitPace pace;
    private boolean lanesReleased; // lanes a diff of a dead predecessor may have left held (releaseLanes)

    ReshardWorkflow(VStreamCoordinatorConnectorConfig config, String workflow, ReshardServers servers) {
        this(config, workflow, servers, WaitPace.SYSTEM);
    }

    /** {@code pace}: the time the switch waits on for the new shards (tests give one that does not sleep). */
    ReshardWorkflow(VStreamCoordinatorConnectorConfig config, String workflow, ReshardServers servers, WaitPace pace) {
        this.config = config;
        this.pace = pace;
        this.workflow = workflow;
        this.servers = servers;
        this.oldShards = config.shards();
        this.newShards = config.reshardTargets();
        this.measured = new ReshardProgress(oldShards.keySet());
        this.diff = new ReshardDiff(config);
    }

    @Override
    public WorkflowType type() {
        return WorkflowType.RESHARD;
    }

    @Override
    public StatusRecords.Progress progress() {
        return measured.progress();
    }

    /** Each new shard, fed by the old shards its key range overlaps. */
    @Override
    public List<ShardStatus> shards() {
        return measured.shards();
    }

    /** Once the copy is done and until the switch: see {@link ReshardDiff}. */
    @Override
    public DiffPlan diffPlan(WorkflowStatus status) throws SQLException {
        return diff.plan(status);
    }

    /** Retires the applier; the old shards stay the serving ones (and writable). */
    @Override
    public WorkflowStatus cancel(WorkflowStatus status) throws SQLException {
        try (ReshardServers.Round s = servers.open()) {
            if (s.journal(journalId()).isPresent()) {
                return status.failed("cannot cancel: the switch has been journaled; the new shards serve now");
            }
            s.readOnly(false);
            for (String n : newShards.keySet()) {
                s.retireApplier(n);
            }
        }
        return new WorkflowStatus(WorkflowState.CANCELLED, null, status.attempts(), "cancelled by the operator");
    }

    @Override
    public WorkflowStatus step(WorkflowStatus status) throws SQLException, InterruptedException {
        if (status.state().isFinal()) {
            return status;
        }
        try (ReshardServers.Round s = servers.open()) {
            Map<String, Map<String, AppliedTable.Row>> applied = applied(s);
            measured.measure(s, applied);
            switch (status.state()) {
                case CREATED: {
                    boolean started = applied.values().stream().anyMatch(m -> !m.isEmpty());
                    List<String> problems = s.preflight(started);
                    if (!problems.isEmpty()) {
                        return status.failed("preflight: " + String.join("; ", problems));
                    }
                    LOG.info("Workflow {}: preflight passed ({} -> {})", workflow, oldShards.keySet(),
                            newShards.keySet());
                    return status.to(WorkflowState.COPYING);
                }
                case COPYING:
                case CATCHING_UP:
                case READY:
                case POSTPONED:
                    releaseLanes(s);
                    return watch(status, applied);
                case CUTTING_OVER:
                    return switchOver(status, s);
                default:
                    return status;
            }
        }
    }

    private WorkflowStatus watch(WorkflowStatus status, Map<String, Map<String, AppliedTable.Row>> applied) {
        StatusRecords.Progress progress = measured.progress();
        if (progress.tablesCopying() == null || progress.tablesCopying() > 0 || missingPairs(applied) > 0) {
            return status.state() == WorkflowState.COPYING ? status : status.to(WorkflowState.COPYING);
        }
        // by transactions only: the switch refuses writes until the new shards hold the old ones' final positions,
        // so it must start with little to apply (lag_ms, an upper bound of the backlog's age, is for the status)
        Long lag = progress.lagTransactions();
        if (lag == null || lag > config.readyMaxLag()) {
            return status.state() == WorkflowState.CATCHING_UP ? status : status.to(WorkflowState.CATCHING_UP);
        }
        if (config.postponed()) {
            return status.state() == WorkflowState.POSTPONED ? status : status.to(WorkflowState.POSTPONED);
        }
        if (status.state() != WorkflowState.READY) {
            return status.to(WorkflowState.READY); // published for one round before the switch starts
        }
        LOG.info("Workflow {}: ready (lag {} transactions, {} ms); starting the switch", workflow, lag,
                progress.lagMs());
        return status.at(HandoffStep.READ_ONLY);
    }

    private WorkflowStatus switchOver(WorkflowStatus status, ReshardServers.Round s)
            throws SQLException, InterruptedException {
        long t0 = System.nanoTime();
        Optional<Journal> written = s.journal(journalId());
        if (written.isEmpty()) {
            // 1. stop application writes on the old shards
            s.readOnly(true);
            LOG.info("Workflow {}: switch step 1 (read-only) done on {}", workflow, oldShards.keySet());
            // 2. the old shards' final positions, and every new shard holding them
            Map<String, String> finals = new LinkedHashMap<>();
            for (String old : oldShards.keySet()) {
                finals.put(old, s.oldPosition(old));
            }
            String missing = awaitApplied(s, finals);
            if (missing != null) {
                s.readOnly(false);
                String why = "the applier did not reach the old shards' final positions within "
                        + config.stopTimeout().toMillis() + " ms (" + missing + "); the old shards are writable again";
                LOG.warn("Workflow {}: switch attempt {} aborted: {}; retrying later", workflow,
                        status.attempts() + 1, why);
                if (status.attempts() + 1 >= config.cutOverMaxAttempts()) {
                    return status.failed(why + "; gave up after " + (status.attempts() + 1) + " attempts");
                }
                return status.retry(why);
            }
            List<Journal.ShardPosition> participants = new ArrayList<>();
            finals.forEach((shard, pos) -> participants.add(new Journal.ShardPosition(shard,
                    oldShards.get(shard).toString(), pos)));
            List<Journal.ShardPosition> starts = new ArrayList<>();
            for (String n : newShards.keySet()) {
                starts.add(new Journal.ShardPosition(n, newShards.get(n).toString(), s.newPosition(n)));
            }
            Journal j = new Journal(journalId(), config.reshardKeyspace(), workflow, participants, starts,
                    System.currentTimeMillis());
            LOG.info("Workflow {}: switch step 2 (applied) done in {} ms: {}", workflow, ms(t0), j.toJson());
            written = Optional.of(j);
        } else {
            s.readOnly(true); // a restart after the journal: the old shards must stay read-only
            LOG.info("Workflow {}: resuming the switch with journal {}", workflow, written.get().id());
        }
        // 3. the journal: old shards first (their binlogs carry it to running streams), then the new shards
        Journal j = written.get();
        s.journal(j);
        LOG.info("Workflow {}: switch step 3 (journal {}) done in {} ms; the new shards {} serve keyspace '{}'",
                workflow, j.id(), ms(t0), j.shardNames(), j.keyspace());
        return new WorkflowStatus(WorkflowState.COMPLETE, HandoffStep.JOURNAL, status.attempts(),
                "switched: journal " + j.id() + " retires " + j.participantNames() + " for " + j.shardNames());
    }

    private long journalId() {
        return Journal.idOf(config.reshardKeyspace(), workflow, new ArrayList<>(oldShards.keySet()),
                new ArrayList<>(newShards.keySet()));
    }

    /** Waits until each new shard's applied state contains each overlapping old shard's final position. */
    private String awaitApplied(ReshardServers.Round s, Map<String, String> finals)
            throws SQLException, InterruptedException {
        long deadline = pace.nanoTime() + config.stopTimeout().toNanos();
        String missing;
        do {
            Map<String, Map<String, AppliedTable.Row>> applied = applied(s);
            missing = null;
            for (Map.Entry<String, Map<String, AppliedTable.Row>> t : applied.entrySet()) {
                for (String old : overlapping(t.getKey())) {
                    String have = positionOf(t.getValue().get(old));
                    if (have == null || !CloneWorkflow.reached(have, finals.get(old))) {
                        missing = "new shard " + t.getKey() + " holds " + have + " of old shard " + old + ", needs "
                                + finals.get(old);
                    }
                }
            }
            if (missing == null) {
                return null;
            }
            pace.pause(100);
        } while (pace.nanoTime() < deadline);
        return missing;
    }

    /** New shard -> (old shard -> what the applier holds of it): one read of each new shard's applied state. */
    private Map<String, Map<String, AppliedTable.Row>> applied(ReshardServers.Round s) throws SQLException {
        Map<String, Map<String, AppliedTable.Row>> out = new LinkedHashMap<>();
        for (String n : newShards.keySet()) {
            Map<String, AppliedTable.Row> byOld = new LinkedHashMap<>();
            for (AppliedTable.Row a : s.applied(n)) {
                String shard = a.topic().substring(a.topic().lastIndexOf('.') + 1);
                if (oldShards.containsKey(shard)) {
                    byOld.put(shard, a);
                }
            }
            out.put(n, byOld);
        }
        return out;
    }

    private int missingPairs(Map<String, Map<String, AppliedTable.Row>> applied) {
        int missing = 0;
        for (Map.Entry<String, Map<String, AppliedTable.Row>> t : applied.entrySet()) {
            for (String old : overlapping(t.getKey())) {
                if (t.getValue().get(old) == null) {
                    missing++;
                }
            }
        }
        return missing;
    }

    private List<String> overlapping(String newShard) {
        return ReshardProgress.overlapping(oldShards.keySet(), newShard);
    }

    /**
     * Once per task: a lane an on-demand diff held (its own control row) is let run again. A coordinator that died in
     * a diff's slice left that lane paused or stopped at a position, and nothing else would ever release it.
     */
    private void releaseLanes(ReshardServers.Round s) throws SQLException {
        if (lanesReleased) {
            return;
        }
        for (String n : newShards.keySet()) {
            for (String old : overlapping(n)) {
                String command = s.laneCommand(n, old);
                if (command != null && !"RUN".equals(command)) {
                    s.runLane(n, old);
                    LOG.info("Workflow {}: the lane from old shard {} into new shard {} was left at {} (a diff cut"
                            + " short); it runs again", workflow, old, n, command);
                }
            }
        }
        lanesReleased = true;
    }

    private static String positionOf(AppliedTable.Row a) {
        return a == null ? null : a.position();
    }

    private static long ms(long t0) {
        return (System.nanoTime() - t0) / 1_000_000;
    }
}
