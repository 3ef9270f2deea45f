package io.vstream.connect.sink;

import io.vstream.connect.core.event.EventType;
import io.vstream.connect.jdbc.AppliedTable;
import io.vstream.connect.jdbc.StreamPartition;
import java.sql.Connection;
import java.sql.SQLException;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * Applies one Kafka partition (one source shard's log) to the target, in order, on its own connection: each source
 * transaction (BEGIN..COMMIT) becomes one target transaction, each copy chunk (copy rows closed by their LASTPK) one
 * target transaction that replaces the chunk's key range, and every commit also writes the applied Kafka offset and
 * source position (the partition's row of {@link AppliedTable}), so that the target alone says what it holds. Which
 * event does what (skips after a restart, transactions cut short, stop points) is the {@link EventSequence}'s
 * decision; this class carries the decisions out: rows and chunks through the {@link ChangeWriter}, tables through
 * {@link TargetTables}, DDL through {@link StreamDdl}, the state row through the {@link GroupCommit}, the copy
 * progress in {@link CopyProgress}, the coordinator's commands through the {@link ControlChannel}. In reshard mode one
 * instance applies the log to one new shard, taking only the row images the {@link ReshardApplier} routes to it
 * ({@link RowScope}). Touches the target server only.
 */
final class PartitionApplier implements Applier {
    private final String topic;
    private final int partition;
    private final SinkSettings settings;
    private final TargetConnections connections;
    private final GroupCommit commits;
    private final TargetTables tables;
    private final ControlChannel control;
    private final RecordTyping typing;
    private final GhostTarget ghost; // ghost mode's table and plan; null in the other modes
    // ghost mode, a stream the target holds nothing of, a copy that started at once: where the stream's first record
    // must place its start (CopyStartCheck); null once checked, or with nothing to check
    private String copyStart;
    private final ChangeWriter changes;
    private final StreamDdl ddl;
    private final EventSequence sequence = new EventSequence();
    private final CopyProgress progress = new CopyProgress();
    private Connection conn;

    private volatile long transactionsApplied;
    private volatile long lagMs;

    /** Which images of a row change this target takes (reshard: a row may move from one new shard to another). */
    enum RowScope {
        /** The whole change (every row in clone and ghost mode). */
        ALL,
        /** None of it: the row belongs to another target. */
        NONE,
        /** Only the old image: the row leaves this target (an update moved it), so it is deleted here. */
        OLD_IMAGE,
        /** Only the new image: the row arrives on this target (an update moved it), so it is written here. */
        NEW_IMAGE
    }

    /** An applier into the target {@code settings} names (already resolved: {@link SinkSettings#forTopic}). */
    PartitionApplier(String topic, int partition, SinkSettings settings) {
        this.topic = topic;
        this.partition = partition;
        this.settings = settings;
        this.connections = new TargetConnections(this.settings);
        this.commits = new GroupCommit(settings.stateDatabase(),
                new StreamPartition(settings.stream(), topic, partition));
        this.tables = new TargetTables(this.settings, connections);
        this.ghost = settings.ghost() ? new GhostTarget(settings.stateDatabase(), settings.ghostMigration()) : null;
        this.control = new ControlChannel(settings, connections, topic, partition);
        this.typing = new RecordTyping(settings, topic, partition);
        this.changes = new ChangeWriter(topic, partition, settings, tables, ghost);
        this.ddl = new StreamDdl(topic, partition, settings, tables, ghost, control);
    }

    /**
     * Ghost mode: the migration's plan is not on the target yet. Not a failure: deployed together, the sink starts
     * while the coordinator still creates the ghost, and the plan follows within moments.
     */
    static final class AwaitingPlan extends SQLException {
        AwaitingPlan(String message) {
            super(message);
        }
    }

    /** Connects and loads what the target holds; returns the stored Kafka offset, or -1. */
    @Override
    public long open() throws SQLException {
        close();
        conn = connections.open();
        try (Connection ddl = connections.open()) {
            ddl.setAutoCommit(true);
            AppliedTable.ensure(ddl, settings.stateDatabase());
            RowSchemaStore.ensure(ddl, settings.stateDatabase());
        }
        changes.open(conn);
        if (ghost != null) {
            if (!ghost.load(conn)) {
                throw new AwaitingPlan("waiting for the coordinator to write the plan of migration '"
                        + settings.ghostMigration() + "' on " + settings.host() + ":" + settings.port());
            }
            tables.forget(); // the table is the ghost or the one swapped out, as the plan says
        }
        AppliedTable.Applied applied = commits.load(conn);
        copyStart = ghost != null && applied == null && !ghost.swapped() ? ghost.copyStart(conn) : null;
        typing.load(conn);
        conn.commit();
        if (applied != null) {
            progress.load(applied.copyState(), applied.rowsCopied());
            sequence.loaded(applied.kafkaOffset(), applied.keyspace(), applied.shard(), applied.position());
        } else {
            progress.load(null, null);
            sequence.loaded(-1, sequence.keyspace(), sequence.shard(), sequence.position());
        }
        commits.drop();
        return sequence.appliedOffset();
    }

    @Override
    public long appliedOffset() {
        return sequence.appliedOffset();
    }

    @Override
    public String topic() {
        return topic;
    }

    @Override
    public int partition() {
        return partition;
    }

    /** Makes copy chunks empty only the rows {@code ownership} gives this log ({@link ChangeWriter.RowOwnership}). */
    void ownRowsOnly(ChangeWriter.RowOwnership ownership) {
        changes.ownRowsOnly(ownership);
    }

    /** The target server, {@code host:port}, for messages. */
    String target() {
        return settings.host() + ":" + settings.port();
    }

    @Override
    public void serialMode(boolean on) {
        changes.serialMode(on);
    }

    @Override
    public boolean serial() {
        return changes.serial();
    }

    /** Reads the coordinator's command for this stream on this partition's target (see {@link ControlStore}). */
    @Override
    public ControlStore.Control readControl() throws SQLException {
        impose(fetchControl());
        return sequence.gate().control();
    }

    /**
     * Reshard: this applier is one lane of its stream into a target that other source shards' lanes feed too; it
     * also obeys (and acknowledges in) the lane's own control row ({@link ControlStore}), so the coordinator can
     * hold this lane alone. Called before {@link #open}.
     */
    void controlLane(String sourceShard) {
        control.lane(sourceShard);
    }

    /** The command stored on this target, without putting it in force. */
    ControlStore.Control fetchControl() throws SQLException {
        return control.read();
    }

    /** Puts a command in force (reshard: the most restrictive of all new shards' commands). */
    void impose(ControlStore.Control next) {
        sequence.gate().impose(next);
    }

    /** Records a failure the coordinator must see (ghost mode: the migration cannot go on). */
    @Override
    public void reportFailure(String reason) {
        control.fail(reason);
    }

    @Override
    public ControlStore.Control control() {
        return sequence.gate().control();
    }

    /** Whether the applier has reached what the control asks (and so should stop and acknowledge). */
    @Override
    public boolean holdsStopPoint() {
        return sequence.holdsStopPoint();
    }

    /** Acknowledges the control in force with the exact position the target holds ({@link StopGate}). */
    @Override
    public void acknowledge() throws SQLException {
        boolean pending = commits.pending();
        StopGate.Ack ack = sequence.acknowledgement(pending);
        commits.write(conn); // the acknowledged position is the one the target holds once this commits
        control.acknowledge(conn, sequence.gate().control(), ack, sequence.writtenGtid(pending));
        conn.commit();
        AppliedTable.Applied done = commits.committed();
        if (done != null) {
            sequence.flushed(done.kafkaOffset());
        }
    }

    /**
     * Applies one record; returns false when the control stops the applier before it (the record is not applied and
     * must come again). Throws {@link SQLException} for the caller to classify (retriable or fatal); in serial
     * mode, a fatal error of a row statement is reported through {@code poison} (DLQ) when given, else thrown as a
     * {@link ConnectException} naming the table, the key and the SQL error.
     */
    @Override
    public boolean apply(SinkRecord record, PoisonHandler poison) throws SQLException {
        return apply(record, poison, RowScope.ALL);
    }

    /** {@link #apply(SinkRecord, PoisonHandler)} taking only the {@code scope} of a ROW record's change. */
    boolean apply(SinkRecord record, PoisonHandler poison, RowScope scope) throws SQLException {
        if (sequence.redelivered(record.kafkaOffset())) {
            return true; // redelivered: the target already holds it
        }
        EventType type = typing.typeOf(record);
        record = typing.typed(record, type);
        Struct value = (Struct) record.value();
        if (copyStart != null) {
            String why = CopyStartCheck.refusal(settings.ghostMigration(), topic, copyStart, type,
                    type == EventType.HEARTBEAT || type == EventType.VGTID ? value.getString("position") : null);
            if (why != null) {
                control.fail(why);
                throw new ConnectException(why);
            }
            copyStart = null;
        }
        String gtid = type == EventType.BEGIN || type == EventType.DDL ? value.getString("gtid") : null;
        String op = type == EventType.ROW ? value.getString("op") : null;
        EventSequence.Decision decision = sequence.next(type, gtid, op);
        if (decision.rollbackFirst()) {
            rollbackWork();
        }
        switch (decision.action()) {
            case HOLD -> {
                return false;
            }
            case LEARN_TABLE -> {
                typing.learn(record, value, control::connection);
                if (ghost == null) {
                    tables.define(value);
                } else if (ghost.writes(value.getString("table"))) {
                    tables.ghost(ghost.plan());
                }
            }
            case BEGIN, BEGIN_SKIPPING, IGNORE_COMMIT -> {
                // nothing to do on the target: a transaction begins, or a COMMIT's BEGIN was before the restart point
            }
            case WRITE_ROW, SKIP_ROW, BUFFER_COPY_ROWS -> {
                if (type == EventType.ROWS) {
                    changes.copyRows(record, value, scope, sequence.chunk());
                } else if (changes.row(record, value, poison, scope, sequence.chunk(),
                        decision.action() == EventSequence.Action.SKIP_ROW)) {
                    sequence.wrote();
                }
            }
            case COMMIT, COMMIT_SKIPPED -> commit(record, value, decision.action() == EventSequence.Action.COMMIT);
            case WRITE_CHUNK -> {
                changes.writeChunk(record, value, poison, sequence.chunk(), progress);
                progress.chunkClosed(value.getString("table"), value.getBoolean("completed"),
                        value.getString("lastpk"));
                // a chunk has no position of its own: the position stays where the stream is
                commitState(record, value.getString("keyspace"), value.getString("shard"), sequence.position());
            }
            case COMPLETE_COPY -> {
                progress.complete();
                commitState(record, value.getString("keyspace"), value.getString("shard"),
                        value.getString("position") != null ? value.getString("position") : sequence.position());
            }
            case APPLY_DDL, RECORD_DDL -> ddl(record, value, decision.action() == EventSequence.Action.APPLY_DDL);
            case ADVANCE -> {
                if (value.schema().field("copy") != null && value.getString("copy") != null) {
                    progress.readSource(value.getString("copy")); // the source's copy state at this point
                }
                commitState(record, value.getString("keyspace"), value.getString("shard"),
                        sequence.advancedTo(value.getString("position")));
            }
            case KEEP_POSITION -> commitState(record, sequence.keyspace(), sequence.shard(), sequence.position());
        }
        return true;
    }

    /** The record with a typed value ({@link RowSchemas#typed}); a record without an event header as it is. */
    SinkRecord typed(SinkRecord record) {
        return typing.typedIfEvent(record);
    }

    /** A transaction's COMMIT; {@code written} unless the target held the transaction already (it was skipped). */
    private void commit(SinkRecord record, Struct value, boolean written) throws SQLException {
        if (written) {
            transactionsApplied++;
        }
        commitState(record, value);
        if (record.timestamp() != null) {
            lagMs = Math.max(0, System.currentTimeMillis() - record.timestamp());
        }
    }

    /**
     * A DDL of the stream ({@link StreamDdl}), committed on its own: what came before it first, then its position;
     * replayed unless {@code apply} is false (the target holds it). In ghost mode checked and committed in the batch.
     */
    private void ddl(SinkRecord record, Struct value, boolean apply) throws SQLException {
        if (ghost != null) {
            ddl.check(value, conn);
        } else {
            flush(); // what came before the DDL is committed before the DDL runs, and the DDL's position right after
            if (settings.ddlApply() && apply) {
                ddl.replay(value);
            }
        }
        commitState(record, value);
        if (ghost == null) {
            flush();
        }
    }

    /** {@link #commitState(SinkRecord, String, String, String)} at the record's own keyspace, shard and position. */
    private void commitState(SinkRecord record, Struct value) throws SQLException {
        commitState(record, value.getString("keyspace"), value.getString("shard"), value.getString("position"));
    }

    /**
     * Writes the state for this record in the open transaction: the record is applied once that transaction commits
     * (at once in serial mode, else with the rest of the batch: {@link #flush()}).
     */
    private void commitState(SinkRecord record, String ks, String sh, String pos) throws SQLException {
        changes.flush();
        long copied = progress.rowsCopiedWithChunk();
        commits.stage(new AppliedTable.Applied(record.kafkaOffset(), ks, sh, pos, progress.json(), record.timestamp(),
                copied));
        if (changes.serial()) {
            flush(); // finding a poison record: each transaction on its own
        }
        progress.settle(copied);
        sequence.committed(ks, sh, pos);
        if (changes.serial()) {
            changes.endSerial(conn);
        }
    }

    /** Rolls back a transaction or chunk the log cut short (the {@link EventSequence} already dropped it). */
    private void rollbackWork() throws SQLException {
        if (commits.pending()) {
            // the cut-short transaction shares the target's transaction with applied ones not yet committed: drop
            // them all and go again from what the target holds (open() reloads it); rare (a source reconnecting
            // mid-transaction, a DDL inside one)
            abort();
            throw new java.sql.SQLTransientException(topic + "-" + partition + ": a transaction cut short shares the"
                    + " target's transaction with others not yet committed; re-applying from the last commit");
        }
        changes.discard();
        conn.rollback();
        progress.discardChunk();
    }

    /**
     * Commits the transactions applied since the last commit (a group commit: the sink task calls it at the end of
     * each batch, and before it stops a partition), with the state row that says how far they go.
     */
    @Override
    public void flush() throws SQLException {
        AppliedTable.Applied done = commits.commit(conn);
        if (done != null) {
            sequence.flushed(done.kafkaOffset());
        }
    }

    /** Drops all uncommitted work (after a failure); the committed state stays as loaded or last committed. */
    @Override
    public void abort() {
        commits.drop();
        try {
            changes.discard();
            if (conn != null) {
                conn.rollback();
            }
        } catch (SQLException e) {
            // the connection may be gone; recover() reconnects
        }
        progress.discardChunk();
        sequence.dropWork();
    }

    @Override
    public long rowsApplied() {
        return changes.rowsApplied();
    }

    /** Round trips that wrote rows (multi-row INSERTs, JDBC batches), for the batch size metric. */
    @Override
    public long writeStatements() {
        return changes.writeStatements();
    }

    /** The rows those round trips carried. */
    @Override
    public long writeRows() {
        return changes.writeRows();
    }

    @Override
    public long transactionsApplied() {
        return transactionsApplied;
    }

    @Override
    public long lagMs() {
        return lagMs;
    }

    @Override
    public String position() {
        return sequence.position();
    }

    @Override
    public void close() {
        tables.close();
        control.close();
        if (conn != null) {
            try {
                conn.rollback();
                conn.close();
            } catch (SQLException e) {
                // closing anyway
            }
            conn = null;
        }
    }
}
