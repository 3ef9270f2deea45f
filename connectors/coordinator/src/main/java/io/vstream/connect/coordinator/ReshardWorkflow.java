package io.vstream.connect.coordinator;

import io.vstream.connect.core.keyrange.KeyRange;
import io.vstream.connect.jdbc.StreamTables;
import io.vstream.connect.core.protocol.ControlTable;
import io.vstream.connect.core.vindex.Vindex;
import io.vstream.connect.core.vindex.Vindexes;
import io.vstream.connect.core.reshard.Journal;
import io.vstream.connect.jdbc.JournalTable;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
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
 * Touches the old shards (read_only, journal) and the new shards (journal, the applier's control row).
 */
final class ReshardWorkflow implements Workflow {
    private static final Logger LOG = LoggerFactory.getLogger(ReshardWorkflow.class);

    private final VStreamCoordinatorConnectorConfig config;
    private final ApplierChannel applier;
    private final String workflow;
    private final Map<String, VStreamCoordinatorConnectorConfig.Endpoint> oldShards;
    private final Map<String, VStreamCoordinatorConnectorConfig.Endpoint> newShards;
    private StatusRecords.Progress progress = StatusRecords.Progress.NONE;
    private List<ShardStatus> shardStatuses = List.of();
    private final CopyProgressEstimator estimator = new CopyProgressEstimator(java.time.Duration.ofSeconds(30));
    private long rowsEstimate;
    private long estimateReadAt;
    private boolean lanesReleased; // lanes a diff of a dead predecessor may have left held (releaseLanes)

    ReshardWorkflow(VStreamCoordinatorConnectorConfig config, String workflow) {
        this.config = config;
        this.workflow = workflow;
        this.applier = new ApplierChannel(config.stateDatabase(), config.applierStream());
        this.oldShards = config.shards();
        this.newShards = config.reshardTargets();
    }

    @Override
    public WorkflowType type() {
        return WorkflowType.RESHARD;
    }

    @Override
    public StatusRecords.Progress progress() {
        return progress;
    }

    /** Retires the applier; the old shards stay the serving ones (and writable). */
    @Override
    public WorkflowStatus cancel(WorkflowStatus status) throws SQLException {
        try (Shards s = open()) {
            if (journal(s).isPresent()) {
                return status.failed("cannot cancel: the switch has been journaled; the new shards serve now");
            }
            setReadOnly(s.old, false);
            for (Connection t : s.next.values()) {
                applier.command(t, "HANDED_OFF", null);
            }
        }
        return new WorkflowStatus(WorkflowState.CANCELLED, null, status.attempts(), "cancelled by the operator");
    }

    @Override
    public WorkflowStatus step(WorkflowStatus status) throws SQLException, InterruptedException {
        if (status.state().isFinal()) {
            return status;
        }
        try (Shards s = open()) {
            Map<String, Map<String, ApplierChannel.Applied>> applied = applied(s);
            measure(s, applied);
            switch (status.state()) {
                case CREATED: {
                    boolean started = applied.values().stream().anyMatch(m -> !m.isEmpty());
                    List<String> problems = ReshardPreflight.check(config, s.old, s.next, started);
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

    private WorkflowStatus watch(WorkflowStatus status, Map<String, Map<String, ApplierChannel.Applied>> applied) {
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

    private WorkflowStatus switchOver(WorkflowStatus status, Shards s) throws SQLException, InterruptedException {
        long t0 = System.nanoTime();
        Optional<Journal> written = journal(s);
        if (written.isEmpty()) {
            // 1. stop application writes on the old shards
            setReadOnly(s.old, true);
            LOG.info("Workflow {}: switch step 1 (read-only) done on {}", workflow, s.old.keySet());
            // 2. the old shards' final positions, and every new shard holding them
            Map<String, String> finals = new LinkedHashMap<>();
            for (Map.Entry<String, Connection> e : s.old.entrySet()) {
                finals.put(e.getKey(), position(e.getValue()));
            }
            String missing = awaitApplied(s, finals);
            if (missing != null) {
                setReadOnly(s.old, false);
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
            for (Map.Entry<String, Connection> e : s.next.entrySet()) {
                starts.add(new Journal.ShardPosition(e.getKey(), newShards.get(e.getKey()).toString(),
                        position(e.getValue())));
            }
            Journal j = new Journal(journalId(), config.reshardKeyspace(), workflow, participants, starts,
                    System.currentTimeMillis());
            LOG.info("Workflow {}: switch step 2 (applied) done in {} ms: {}", workflow, ms(t0), j.toJson());
            written = Optional.of(j);
        } else {
            setReadOnly(s.old, true); // a restart after the journal: the old shards must stay read-only
            LOG.info("Workflow {}: resuming the switch with journal {}", workflow, written.get().id());
        }
        // 3. the journal: old shards first (their binlogs carry it to running streams), then the new shards
        Journal j = written.get();
        for (Connection c : s.old.values()) {
            JournalTable.write(c, config.stateDatabase(), j);
        }
        for (Connection c : s.next.values()) {
            JournalTable.write(c, config.stateDatabase(), j);
            applier.command(c, "HANDED_OFF", null);
        }
        LOG.info("Workflow {}: switch step 3 (journal {}) done in {} ms; the new shards {} serve keyspace '{}'",
                workflow, j.id(), ms(t0), j.shardNames(), j.keyspace());
        return new WorkflowStatus(WorkflowState.COMPLETE, HandoffStep.JOURNAL, status.attempts(),
                "switched: journal " + j.id() + " retires " + j.participantNames() + " for " + j.shardNames());
    }

    private long journalId() {
        return Journal.idOf(config.reshardKeyspace(), workflow, new ArrayList<>(oldShards.keySet()),
                new ArrayList<>(newShards.keySet()));
    }

    /** This workflow's journal if any shard holds it already. */
    private Optional<Journal> journal(Shards s) throws SQLException {
        long id = journalId();
        for (Map<String, Connection> group : List.of(s.old, s.next)) {
            for (Connection c : group.values()) {
                for (Journal j : JournalTable.read(c, config.stateDatabase(), config.reshardKeyspace())) {
                    if (j.id() == id) {
                        return Optional.of(j);
                    }
                }
            }
        }
        return Optional.empty();
    }

    /** Waits until each new shard's applied state contains each overlapping old shard's final position. */
    private String awaitApplied(Shards s, Map<String, String> finals) throws SQLException, InterruptedException {
        long deadline = System.nanoTime() + config.stopTimeout().toNanos();
        String missing;
        do {
            Map<String, Map<String, ApplierChannel.Applied>> applied = applied(s);
            missing = null;
            for (Map.Entry<String, Map<String, ApplierChannel.Applied>> t : applied.entrySet()) {
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
            Thread.sleep(100);
        } while (System.nanoTime() < deadline);
        return missing;
    }

    /** New shard -> (old shard -> what the applier holds of it): one read of each new shard's applied state. */
    private Map<String, Map<String, ApplierChannel.Applied>> applied(Shards s) throws SQLException {
        Map<String, Map<String, ApplierChannel.Applied>> out = new LinkedHashMap<>();
        for (Map.Entry<String, Connection> t : s.next.entrySet()) {
            Map<String, ApplierChannel.Applied> byOld = new LinkedHashMap<>();
            for (ApplierChannel.Applied a : applier.applied(t.getValue())) {
                String shard = a.topic().substring(a.topic().lastIndexOf('.') + 1);
                if (oldShards.containsKey(shard)) {
                    byOld.put(shard, a);
                }
            }
            out.put(t.getKey(), byOld);
        }
        return out;
    }

    private int missingPairs(Map<String, Map<String, ApplierChannel.Applied>> applied) {
        int missing = 0;
        for (Map.Entry<String, Map<String, ApplierChannel.Applied>> t : applied.entrySet()) {
            for (String old : overlapping(t.getKey())) {
                if (t.getValue().get(old) == null) {
                    missing++;
                }
            }
        }
        return missing;
    }

    private List<String> overlapping(String newShard) {
        KeyRange range = KeyRange.parse(newShard);
        return oldShards.keySet().stream().filter(o -> KeyRange.parse(o).intersects(range)).toList();
    }

    /**
     * Once the copy is done and until the switch: one part per new shard and old shard whose key ranges overlap. Each
     * part holds only that old shard's lane into the new shard (its own control row, {@link ControlTable#laneKey}) at
     * a snapshot position of the old shard, and compares the rows whose keyspace id both ranges hold: the rows of the
     * new shard that came from other old shards are left out by their keyspace id, so their lanes run on. Not during
     * the copy (the new shards are incomplete), not after the switch (the new shards serve writes, the old ones are
     * retired).
     */
    @Override
    public DiffPlan diffPlan(WorkflowStatus status) throws SQLException {
        switch (status.state()) {
            case CREATED:
            case COPYING:
                return DiffPlan.refusedBecause("the reshard is still copying (state " + status.state() + "): the new"
                        + " shards are incomplete until the copy ends; run the diff once the workflow is CATCHING_UP,"
                        + " READY or POSTPONED");
            case CATCHING_UP:
            case READY:
            case POSTPONED: {
                Vindex vindex = Vindexes.named(config.reshardVindex());
                List<DiffPlan.Part> parts = new ArrayList<>();
                for (Map.Entry<String, VStreamCoordinatorConnectorConfig.Endpoint> n : newShards.entrySet()) {
                    List<StreamTables.Entry> taken;
                    try (Connection target = Servers.open(n.getValue())) {
                        taken = StreamTables.read(target, config.stateDatabase(), config.applierStream());
                    }
                    for (String old : overlapping(n.getKey())) {
                        KeyRange from = KeyRange.parse(old);
                        KeyRange both = from.intersection(KeyRange.parse(n.getKey())).orElseThrow();
                        double share = from.share() > 0 ? both.share() / from.share() : 1.0;
                        List<DiffPlan.Table> tables = new ArrayList<>();
                        for (StreamTables.Entry e : taken) {
                            tables.add(new DiffPlan.Table(e.target(), e.sourceDatabase(), e.sourceTable(),
                                    (src, tgt) -> prepareShare(src, tgt, e, vindex, both), share));
                        }
                        String laneKey = ControlTable.laneKey(config.applierStream(), old);
                        parts.add(new DiffPlan.Part(n.getKey() + " (rows of old shard " + old + ")",
                                oldShards.get(old), n.getValue(), new ApplierHold(new ApplierChannel(
                                config.stateDatabase(), laneKey), laneKey, config.stopTimeout()), tables));
                    }
                }
                return DiffPlan.of("reshard", parts);
            }
            case CUTTING_OVER:
            case STALLED:
                return DiffPlan.waitingBecause("the workflow is " + status.state() + "; the diff runs once it is"
                        + " streaming again");
            case COMPLETE:
                return DiffPlan.refusedBecause("the switch is done: the new shards serve the keyspace and the old ones"
                        + " are retired (read-only, no longer followed); there is nothing to compare them at");
            default:
                return DiffPlan.refusedBecause("the workflow is " + status.state());
        }
    }

    /**
     * The comparison of one table of an old shard with the same table on a new shard, limited to the rows whose
     * keyspace id (the table's sharding column through the vindex, as the applier routes them) lies in {@code both}.
     */
    private MappedChecksum prepareShare(Connection src, Connection tgt, StreamTables.Entry e, Vindex vindex,
                                        KeyRange both) throws SQLException {
        String column = config.reshardColumns().get(e.sourceTable());
        if (column == null) {
            column = config.reshardColumnDefault();
        }
        if (column == null || column.isBlank()) {
            throw new IllegalArgumentException("no sharding column for " + e.sourceTable() + ": add "
                    + e.sourceTable() + ":<column> to reshard.columns, or set reshard.column.default");
        }
        MappedChecksum sum = MappedChecksum.prepareSame(src, e.sourceDatabase(), e.sourceTable(), tgt,
                e.targetDatabase(), e.targetTable(), config.diffChunkRows());
        if (!sum.keyed()) {
            throw new IllegalArgumentException("the table has no primary key (nor a unique key over NOT NULL"
                    + " columns): a new shard's rows of one old shard are told apart by key");
        }
        if (!sum.compares(column)) {
            throw new IllegalArgumentException("its sharding column " + column + " is not on both sides (set the"
                    + " table's column in reshard.columns)");
        }
        return sum.filtered(new ShareFilter(column, vindex, both));
    }

    /**
     * Keeps a row whose keyspace id lies in a key range. A value the vindex cannot map (or NULL) is kept: such a row
     * belongs to no shard, and the applier refuses it, so one found on either side is a difference worth naming.
     */
    record ShareFilter(String column, Vindex vindex, KeyRange range) implements MappedChecksum.RowFilter {
        @Override
        public boolean keeps(Object value) {
            if (value == null) {
                return true;
            }
            try {
                return range.contains(Vindexes.keyspaceIdOfColumn(vindex, value));
            } catch (IllegalArgumentException unmapped) {
                return true;
            }
        }
    }

    /**
     * Once per task: a lane an on-demand diff held (its own control row) is let run again. A coordinator that died in
     * a diff's slice left that lane paused or stopped at a position, and nothing else would ever release it.
     */
    private void releaseLanes(Shards s) throws SQLException {
        if (lanesReleased) {
            return;
        }
        for (Map.Entry<String, Connection> n : s.next.entrySet()) {
            for (String old : overlapping(n.getKey())) {
                ApplierChannel lane = new ApplierChannel(config.stateDatabase(),
                        ControlTable.laneKey(config.applierStream(), old));
                String command = lane.currentCommand(n.getValue());
                if (command != null && !"RUN".equals(command)) {
                    lane.command(n.getValue(), "RUN", null);
                    LOG.info("Workflow {}: the lane from old shard {} into new shard {} was left at {} (a diff cut"
                            + " short); it runs again", workflow, old, n.getKey(), command);
                }
            }
        }
        lanesReleased = true;
    }

    /** Each new shard, fed by the old shards its key range overlaps. */
    @Override
    public List<ShardStatus> shards() {
        return shardStatuses;
    }

    private static String positionOf(ApplierChannel.Applied a) {
        return a == null ? null : a.position();
    }

    private void measure(Shards s, Map<String, Map<String, ApplierChannel.Applied>> applied) throws SQLException {
        Map<String, String> sources = new LinkedHashMap<>();
        for (Map.Entry<String, Connection> e : s.old.entrySet()) {
            sources.put(e.getKey(), position(e.getValue()));
        }
        Long lag = 0L;
        Long lagMs = 0L;
        long now = System.currentTimeMillis();
        Integer copying = 0;
        StringBuilder appliedText = new StringBuilder();
        List<ShardStatus> perShard = new ArrayList<>();
        for (Map.Entry<String, Map<String, ApplierChannel.Applied>> t : applied.entrySet()) {
            // a new shard: fed by each old shard its key range overlaps
            boolean waiting = false;
            boolean shardCopying = false;
            Long shardLag = 0L;
            Long shardLagMs = 0L;
            Long shardRows = 0L;
            List<String> positions = new ArrayList<>();
            for (String old : overlapping(t.getKey())) {
                ApplierChannel.Applied a = t.getValue().get(old);
                if (a == null || a.position() == null) {
                    waiting = true;
                    continue;
                }
                positions.add(old + "=" + a.position());
                Integer n = CloneWorkflow.tablesCopying(a.copyState());
                shardCopying |= n == null || n > 0;
                Long l = CloneWorkflow.lag(sources.get(old), a.position());
                shardLag = shardLag == null || l == null ? null : Math.max(shardLag, l);
                Long ms = ApplierLag.millis(a, now);
                shardLagMs = shardLagMs == null || ms == null ? null : Math.max(shardLagMs, ms);
                shardRows = shardRows == null || a.rowsCopied() == null ? null : shardRows + a.rowsCopied();
            }
            perShard.add(new ShardStatus(t.getKey(), waiting ? ShardStatus.WAITING : shardCopying
                    ? ShardStatus.COPYING : ShardStatus.STREAMING, positions.isEmpty() ? null
                    : String.join(" ", positions), waiting ? null : shardLagMs, waiting ? null : shardLag,
                    shardRows, null));
            for (String old : overlapping(t.getKey())) {
                String have = positionOf(t.getValue().get(old));
                appliedText.append(appliedText.length() == 0 ? "" : " ").append(t.getKey()).append('<').append(old)
                        .append('=').append(have);
                Long l = CloneWorkflow.lag(sources.get(old), have);
                lag = lag == null || l == null ? null : Math.max(lag, l);
                Long ms = ApplierLag.millis(t.getValue().get(old), now);
                lagMs = lagMs == null || ms == null ? null : Math.max(lagMs, ms);
            }
        }
        for (Map<String, ApplierChannel.Applied> byOld : applied.values()) {
            for (ApplierChannel.Applied a : byOld.values()) {
                Integer n = CloneWorkflow.tablesCopying(a.copyState());
                copying = copying == null || n == null ? null : copying + n;
            }
        }
        if (applied.values().stream().allMatch(Map::isEmpty)) {
            copying = null;
        }
        StringBuilder src = new StringBuilder();
        sources.forEach((k, v) -> src.append(src.length() == 0 ? "" : " ").append(k).append('=').append(v));
        CopyProgressEstimator.Estimate rows = rows(s, applied, copying);
        shardStatuses = List.copyOf(perShard);
        progress = new StatusRecords.Progress(src.toString(), appliedText.toString(), lag, copying,
                rows == null ? null : rows.rowsCopied(), rows == null ? null : rows.rowsTotal(),
                rows == null ? null : rows.percent(), rows == null || rows.rowsPerSecond() == null ? null
                        : Math.round(rows.rowsPerSecond() * 10) / 10.0, rows == null ? null : rows.etaMs(), null, lagMs);
    }

    /**
     * The copy's rows: those the appliers counted on every new shard (each chunk once), against the old shards'
     * estimate of their tables' rows (re-read every 10 s) until the copy has completed; null when an applier does not
     * count.
     */
    private CopyProgressEstimator.Estimate rows(Shards s, Map<String, Map<String, ApplierChannel.Applied>> applied,
                                                Integer copying) throws SQLException {
        long copied = 0;
        boolean any = false;
        for (Map<String, ApplierChannel.Applied> byOld : applied.values()) {
            for (ApplierChannel.Applied a : byOld.values()) {
                if (a.rowsCopied() == null) {
                    return null;
                }
                copied += a.rowsCopied();
                any = true;
            }
        }
        if (!any) {
            return null;
        }
        if (estimateReadAt == 0 || System.nanoTime() - estimateReadAt > 10_000_000_000L) {
            long estimate = 0;
            for (Connection c : s.old.values()) {
                try (java.sql.PreparedStatement ps = c.prepareStatement("SELECT COALESCE(SUM(table_rows), 0) FROM"
                        + " information_schema.tables WHERE table_schema = ? AND table_type = 'BASE TABLE'")) {
                    ps.setString(1, config.reshardDatabase());
                    try (java.sql.ResultSet rs = ps.executeQuery()) {
                        estimate += rs.next() ? rs.getLong(1) : 0;
                    }
                }
            }
            rowsEstimate = estimate;
            estimateReadAt = System.nanoTime();
        }
        boolean done = copying != null && copying == 0;
        return estimator.observe(System.nanoTime(), copied, CopyProgressEstimator.shardTotal(copied, rowsEstimate,
                done), done);
    }

    private static String position(Connection c) throws SQLException {
        String p = Servers.string(c, "SELECT @@GLOBAL.gtid_binlog_pos");
        return "MariaDB/" + (p == null ? "" : p);
    }

    private static void setReadOnly(Map<String, Connection> shards, boolean on) throws SQLException {
        for (Connection c : shards.values()) {
            try (Statement st = c.createStatement()) {
                st.execute("SET GLOBAL read_only = " + (on ? "ON" : "OFF"));
            }
        }
    }

    private Shards open() throws SQLException {
        Shards s = new Shards();
        try {
            for (Map.Entry<String, VStreamCoordinatorConnectorConfig.Endpoint> e : oldShards.entrySet()) {
                s.old.put(e.getKey(), Servers.open(e.getValue()));
            }
            for (Map.Entry<String, VStreamCoordinatorConnectorConfig.Endpoint> e : newShards.entrySet()) {
                s.next.put(e.getKey(), Servers.open(e.getValue()));
            }
        } catch (SQLException e) {
            s.close();
            throw e;
        }
        return s;
    }

    private static long ms(long t0) {
        return (System.nanoTime() - t0) / 1_000_000;
    }

    /** One round's connections to the old and the new shards. */
    private static final class Shards implements AutoCloseable {
        final Map<String, Connection> old = new LinkedHashMap<>();
        final Map<String, Connection> next = new LinkedHashMap<>();

        @Override
        public void close() {
            for (Map<String, Connection> group : List.of(old, next)) {
                for (Connection c : group.values()) {
                    try {
                        c.close();
                    } catch (SQLException e) {
                        // closing anyway
                    }
                }
            }
        }
    }
}
