package io.vstream.connect.sink;

import io.vstream.connect.core.event.CopyRows;
import io.vstream.connect.core.event.EventHeaders;
import io.vstream.connect.core.event.EventType;
import io.vstream.connect.core.position.GtidPosition;
import io.vstream.connect.core.position.LastPk;
import io.vstream.connect.jdbc.MigrationPlans;
import io.vstream.connect.core.position.OffsetCodec;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.header.Header;
import org.apache.kafka.connect.sink.SinkRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies one Kafka partition (one source shard's log) to the target, in order, on its own connection: each source
 * transaction (BEGIN..COMMIT) becomes one target transaction, each copy chunk (copy rows closed by their LASTPK) one
 * target transaction that replaces the chunk's key range, and every commit also writes the applied Kafka offset and
 * source position (the {@link StateStore}), so that the target alone says what it holds. A transaction the target
 * already holds (its GTID is in the applied position) is skipped; a transaction or chunk cut short in the log (a
 * replay follows) is rolled back. In reshard mode one instance applies the log to one new shard, taking only the row
 * images the {@link ReshardApplier} routes to it ({@link RowScope}). Touches the target server only.
 */
final class PartitionApplier implements Applier {
    private static final Logger LOG = LoggerFactory.getLogger(PartitionApplier.class);
    private static final Set<Integer> DDL_ALREADY_DONE = Set.of(1050, 1060, 1061, 1091, 1146, 1051);

    private final String topic;
    private final int partition;
    private final SinkSettings settings;
    private final TargetConnections connections;
    private final StateStore state;
    private final TargetTables tables;
    private ControlStore controlStore;
    private final RowSchemaStore schemaStore;
    private final RowSchemas rowSchemas = new RowSchemas();
    private final GhostTarget ghost; // ghost mode's table and plan; null in the other modes
    private RowOwnership ownership; // reshard into a new shard wider than this log's old shard
    private Connection conn;
    private Connection controlConn; // autocommit: sees the coordinator's latest command
    private RowWriter writer;

    // committed state (what the target holds); the position and copy fields run ahead of it by the transactions of
    // the batch not yet committed (flush), which a failure drops: open() then reloads them all
    private long appliedOffset = -1;
    private String keyspace;
    private String shard;
    private String position;
    private final Map<String, String> copyState = new LinkedHashMap<>();
    private boolean copyCompleted;
    private long rowsCopied; // copy rows written, each chunk counted once (net of the rows a re-sent chunk replaced)

    // work in progress (not committed)
    private String txnGtid;
    private boolean skipping;
    private boolean dirty;
    private final CopyChunk chunk = new CopyChunk();
    private long copiedDelta; // rows_copied change of the chunk being committed
    private boolean serial;
    // the state row of the last transaction applied but not yet committed (null: none is); the group commit that
    // ends with flush() writes it and commits them all
    private StateStore.Applied pendingState;
    private final StopGate gate = new StopGate(); // the command in force and what it lets through
    // the GTID of the last source transaction this applier wrote rows of and committed since it opened (null: none),
    // and of the last one written into the target transaction not yet committed
    private String lastWrittenGtid;
    private String pendingWrittenGtid;
    private volatile long rowsApplied;
    private volatile long statementsBefore; // written by the writers this applier replaced (reconnects, serial mode)
    private volatile long rowsSentBefore;
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

    /**
     * Which rows of a target table this log owns, when the target also holds rows of other logs (reshard: a new shard
     * wider than this log's old shard): a copy chunk then empties only these rows of its key range.
     */
    interface RowOwnership {
        /** The column (source name) that tells a row's owner. */
        String column(String sourceTable);

        /** Whether a row with this {@code column} value (as the target's driver reads it) belongs to this log. */
        boolean owns(String sourceTable, Object value);
    }

    /** An applier into the target {@code settings} names (already resolved: {@link SinkSettings#forTopic}). */
    PartitionApplier(String topic, int partition, SinkSettings settings) {
        this.topic = topic;
        this.partition = partition;
        this.settings = settings;
        this.connections = new TargetConnections(this.settings);
        this.state = new StateStore(settings.stateDatabase(), settings.stream(), topic, partition);
        this.tables = new TargetTables(this.settings, connections);
        this.ghost = settings.ghost() ? new GhostTarget(settings.stateDatabase(), settings.ghostMigration()) : null;
        this.controlStore = new ControlStore(settings.stateDatabase(), settings.stream());
        this.schemaStore = new RowSchemaStore(settings.stateDatabase(), settings.stream(), topic, partition);
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
            StateStore.ensure(ddl, settings.stateDatabase());
            RowSchemaStore.ensure(ddl, settings.stateDatabase());
        }
        retireWriter();
        writer = new RowWriter(conn, serial ? 1 : settings.batchMaxRows());
        if (ghost != null) {
            if (!ghost.load(conn)) {
                throw new AwaitingPlan("waiting for the coordinator to write the plan of migration '"
                        + settings.ghostMigration() + "' on " + settings.host() + ":" + settings.port());
            }
            tables.forget(); // the table is the ghost or the one swapped out, as the plan says
        }
        StateStore.Applied applied = state.load(conn);
        rowSchemas.forget();
        for (RowSchemaStore.Entry e : schemaStore.load(conn)) {
            rowSchemas.learn(e.sourceTable(), e.fieldOffset(), e.rowSchemaJson());
        }
        conn.commit();
        copyState.clear();
        copyCompleted = false;
        rowsCopied = 0;
        if (applied != null) {
            rowsCopied = applied.rowsCopied() == null ? 0 : applied.rowsCopied();
            appliedOffset = applied.kafkaOffset();
            keyspace = applied.keyspace();
            shard = applied.shard();
            position = applied.position();
            if (applied.copyState() != null && !applied.copyState().isEmpty()) {
                readCopyState(applied.copyState());
            }
        } else {
            appliedOffset = -1;
        }
        pendingState = null;
        lastWrittenGtid = null;
        pendingWrittenGtid = null;
        resetWork();
        return appliedOffset;
    }

    @Override
    public long appliedOffset() {
        return appliedOffset;
    }

    @Override
    public String topic() {
        return topic;
    }

    @Override
    public int partition() {
        return partition;
    }

    /** Makes copy chunks empty only the rows {@code ownership} gives this log (see {@link RowOwnership}). */
    void ownRowsOnly(RowOwnership ownership) {
        this.ownership = ownership;
    }

    /** The target server, {@code host:port}, for messages. */
    String target() {
        return settings.host() + ":" + settings.port();
    }

    @Override
    public void serialMode(boolean on) {
        serial = on;
    }

    @Override
    public boolean serial() {
        return serial;
    }

    /** Reads the coordinator's command for this stream on this partition's target (see {@link ControlStore}). */
    @Override
    public ControlStore.Control readControl() throws SQLException {
        impose(fetchControl());
        return gate.control();
    }

    /**
     * Reshard: this applier is one lane of its stream into a target that other source shards' lanes feed too; it
     * also obeys (and acknowledges in) the lane's own control row ({@link ControlStore}), so the coordinator can
     * hold this lane alone. Called before {@link #open}.
     */
    void controlLane(String sourceShard) {
        this.controlStore = new ControlStore(settings.stateDatabase(), settings.stream(),
                io.vstream.connect.core.protocol.ControlTable.laneKey(settings.stream(), sourceShard));
    }

    /** The command stored on this target, without putting it in force. */
    ControlStore.Control fetchControl() throws SQLException {
        return controlStore.read(controlConnection());
    }

    /** The autocommit connection of the control channel (and the row schemas), opened when needed. */
    private Connection controlConnection() throws SQLException {
        if (controlConn == null || !controlConn.isValid(2)) {
            closeControl();
            controlConn = connections.open();
            controlConn.setAutoCommit(true);
            ControlStore.ensure(controlConn, settings.stateDatabase());
        }
        return controlConn;
    }

    /** Puts a command in force (reshard: the most restrictive of all new shards' commands). */
    void impose(ControlStore.Control next) {
        gate.impose(next);
    }

    /** Records a failure the coordinator must see (ghost mode: the migration cannot go on). */
    @Override
    public void reportFailure(String reason) {
        try {
            controlStore.fail(controlConnection(), reason);
        } catch (SQLException e) {
            LOG.warn("{}-{}: cannot record the failure for the coordinator ({})", topic, partition, e.toString());
        }
    }

    @Override
    public ControlStore.Control control() {
        return gate.control();
    }

    private void closeControl() {
        if (controlConn != null) {
            try {
                controlConn.close();
            } catch (SQLException e) {
                // closing anyway
            }
            controlConn = null;
        }
    }

    /** Whether nothing is in progress: no transaction, no uncommitted row, no buffered chunk. */
    boolean atBoundary() {
        return txnGtid == null && !dirty && !chunk.open();
    }

    /** Whether the applier has reached what the control asks (and so should stop and acknowledge). */
    @Override
    public boolean holdsStopPoint() {
        return gate.holds(atBoundary(), position);
    }

    /** Acknowledges the control in force with the exact position the target holds ({@link StopGate}). */
    @Override
    public void acknowledge() throws SQLException {
        StateStore.Applied pending = pendingState;
        String written = pending != null && pendingWrittenGtid != null ? pendingWrittenGtid : lastWrittenGtid;
        StopGate.Ack ack = gate.acknowledgement(position, written);
        if (pending != null) {
            state.save(conn, pending); // the acknowledged position is the one the target holds once this commits
        }
        if (ack.command().equals(ControlStore.PASSED_STOP)) {
            LOG.warn("{}-{}: the stop position {} came after this applier had written transaction {}, which it does"
                    + " not contain: acknowledged as passed, so the coordinator takes a new position", topic,
                    partition, gate.control().stopAt(), written);
            controlStore.acknowledgePassedStop(conn, ack.position());
        } else {
            controlStore.acknowledge(conn, gate.control().command(), ack.position());
        }
        conn.commit();
        if (pending != null) {
            pendingState = null;
            appliedOffset = pending.kafkaOffset();
            lastWrittenGtid = written;
            pendingWrittenGtid = null;
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
        if (record.kafkaOffset() <= appliedOffset) {
            return true; // redelivered: the target already holds it
        }
        EventType type = EventType.fromHeader(header(record, EventHeaders.EVENT));
        if (type == null) {
            throw new ConnectException("Record at " + topic + "-" + partition + "@" + record.kafkaOffset() + " has no "
                    + EventHeaders.EVENT + " header: this sink applies the logs of the vstream source connector");
        }
        record = rowSchemas.typed(record, type);
        if (!(record.value() instanceof Struct value)) {
            throw new ConnectException("Record at " + topic + "-" + partition + "@" + record.kafkaOffset()
                    + " has no value: every record of the source's log has one");
        }
        if (type != EventType.ROW && type != EventType.ROWS && type != EventType.FIELD && type != EventType.LASTPK
                && chunk.open()) {
            chunk.abandon(); // copy rows not closed by their LASTPK: that chunk is copied again later
        }
        if (gate.control().command() != ControlStore.Command.RUN) {
            String gtid = switch (type) {
                case BEGIN, DDL -> value.getString("gtid");
                default -> null;
            };
            boolean starts = type == EventType.BEGIN || type == EventType.DDL
                    || (type == EventType.ROW || type == EventType.ROWS) && !chunk.open() && txnGtid == null;
            if (starts && !gate.mayStart(gtid)) {
                gate.refused(gtid, atBoundary());
                return false;
            }
        }
        switch (type) {
            case FIELD -> {
                learnRowSchema(record, value);
                if (ghost == null) {
                    tables.define(value);
                } else if (ghost.writes(value.getString("table"))) {
                    tables.ghost(ghost.plan());
                }
            }
            case BEGIN -> begin(value.getString("gtid"));
            case ROW -> row(record, value, poison, scope);
            case ROWS -> copyRows(record, value, scope);
            case COMMIT -> commit(record, value.getString("keyspace"), value.getString("shard"),
                    value.getString("position"));
            case LASTPK -> lastPk(record, value, poison);
            case COPY_COMPLETED -> {
                copyState.clear();
                copyCompleted = true;
                commitState(record, value.getString("keyspace"), value.getString("shard"),
                        value.getString("position") != null ? value.getString("position") : position);
            }
            case DDL -> ddl(record, value);
            case VGTID, HEARTBEAT -> {
                if (txnGtid != null) {
                    rollbackWork(); // a transaction cut short: it is replayed after this
                }
                if (value.schema().field("copy") != null && value.getString("copy") != null) {
                    readCopyState(value.getString("copy")); // the source's copy state at this point
                }
                commitState(record, value.getString("keyspace"), value.getString("shard"),
                        laterOf(position, value.getString("position")));
            }
            case JOURNAL -> commitState(record, keyspace, shard, position);
            default -> throw new IllegalStateException("unhandled " + type);
        }
        return true;
    }

    /**
     * Keeps the row schema a FIELD record announces, for the records of its table that come without schemas: in
     * memory, and on the target when it changed (see {@link RowSchemaStore}).
     */
    private void learnRowSchema(SinkRecord record, Struct field) throws SQLException {
        String json = field.schema().field("row_schema") == null ? null : field.getString("row_schema");
        String table = field.getString("table");
        if (rowSchemas.learn(table, record.kafkaOffset(), json)) {
            schemaStore.save(controlConnection(), new RowSchemaStore.Entry(table, record.kafkaOffset(), json));
        }
    }

    /** The record with a typed value ({@link RowSchemas#typed}); a record without an event header as it is. */
    SinkRecord typed(SinkRecord record) {
        EventType type = EventType.fromHeader(header(record, EventHeaders.EVENT));
        return type == null ? record : rowSchemas.typed(record, type);
    }

    private void begin(String gtid) throws SQLException {
        if (txnGtid != null || dirty) {
            rollbackWork(); // the previous transaction never committed in the log: it is being replayed
        }
        txnGtid = gtid;
        skipping = alreadyApplied(gtid);
    }

    private void row(SinkRecord record, Struct envelope, PoisonHandler poison, RowScope scope) throws SQLException {
        String sourceTable = header(record, EventHeaders.TABLE);
        if (ghost != null && !ghost.writes(sourceTable)) {
            return; // ghost mode applies one table
        }
        String op = envelope.getString("op");
        boolean takesNew = scope == RowScope.ALL || scope == RowScope.NEW_IMAGE;
        if ("r".equals(op) && !takesNew) {
            // another target's copy row: the chunk still spans it (its LASTPK empties the range here too)
            if (tables.get(sourceTable) == null) {
                Struct source = envelope.getStruct("source");
                tables.lookup(source.getString("db"), source.getString("keyspace"), sourceTable);
            }
            chunk.spans(sourceTable);
            return;
        }
        if (scope == RowScope.NONE) {
            return; // another target's row
        }
        Struct source = envelope.getStruct("source");
        TargetTable t = target(record, sourceTable, source.getString("db"), source.getString("keyspace"));
        Struct before = t.names().apply(envelope.getStruct("before"));
        Struct after = t.names().apply(envelope.getStruct("after"));
        if ("r".equals(op)) {
            chunk.add(sourceTable, after, record);
            return;
        }
        if (skipping) {
            return;
        }
        try {
            switch (op) {
                case "c", "u" -> {
                    if (scope == RowScope.OLD_IMAGE) {
                        writer.delete(t, before); // the update moved the row to another target
                    } else {
                        writer.invalidCells(after, InvalidCells.of(record));
                        writer.upsert(t, after);
                    }
                }
                case "d" -> writer.delete(t, before);
                default -> throw new ConnectException("Unknown op '" + op + "' at " + topic + "-" + partition + "@"
                        + record.kafkaOffset());
            }
            if (serial) {
                writer.flush();
            }
        } catch (SQLException e) {
            poison(record, op, sourceTable, t, e, poison, keyOf(record));
            return;
        }
        dirty = true;
        rowsApplied++;
    }

    /** The table a row of {@code sourceTable} is written to (looked up on the target the first time). */
    private TargetTable target(SinkRecord record, String sourceTable, String db, String ks) throws SQLException {
        TargetTable t = tables.get(sourceTable);
        if (t == null && ghost != null) {
            t = tables.ghost(ghost.plan());
        }
        if (t == null) {
            t = tables.lookup(db, ks, sourceTable);
        }
        if (t == null) {
            throw new ConnectException("Row of table " + sourceTable + " at " + topic + "-" + partition + "@"
                    + record.kafkaOffset() + " came before its FIELD record and the target has no such table: create"
                    + " it on the target, or start the stream with a copy so that its FIELD comes first");
        }
        return t;
    }

    /**
     * Copy rows that came together in one ROWS record: each joins the open chunk as a ROW record with op {@code r}
     * would. A scope that takes no new image (another new shard's rows, in a reshard) only marks the chunk as spanning
     * the table.
     */
    private void copyRows(SinkRecord record, Struct value, RowScope scope) throws SQLException {
        String sourceTable = value.getString(CopyRows.TABLE);
        if (ghost != null && !ghost.writes(sourceTable)) {
            return; // ghost mode applies one table
        }
        List<Struct> rows = CopyRows.rows(value);
        if (!(scope == RowScope.ALL || scope == RowScope.NEW_IMAGE) || rows.isEmpty()) {
            if (tables.get(sourceTable) == null) {
                tables.lookup(value.getString(CopyRows.DB), value.getString(CopyRows.KEYSPACE), sourceTable);
            }
            chunk.spans(sourceTable);
            return;
        }
        TargetTable t = target(record, sourceTable, value.getString(CopyRows.DB), value.getString(CopyRows.KEYSPACE));
        for (Struct row : rows) {
            chunk.add(sourceTable, t.names().apply(row), record);
        }
    }

    /**
     * A statement failed. Outside serial mode, or for a retriable error, the caller handles it; in serial mode the
     * failing record is known: it goes to the dead letter queue when one is configured, else the task stops naming
     * the table, the key and the SQL error.
     */
    private void poison(SinkRecord record, String op, String sourceTable, TargetTable t, SQLException e,
                        PoisonHandler poison, String key) throws SQLException {
        if (!serial || io.vstream.connect.core.error.ErrorClassifier.isRetriable(e)) {
            throw e;
        }
        String what = "Cannot apply the " + io.vstream.connect.core.event.RowEnvelope.Op.describe(op) + " of table "
                + sourceTable + " to " + t.qualified() + " (key " + key + ", " + topic + "-" + partition
                + "@" + record.kafkaOffset() + "): " + e.getMessage();
        writer.discard();
        if (ghost != null && ghost.swapped()) {
            // a row the follower cannot hold: skipping it would leave it short of a write, so no revert
            throw new ConnectException(what + "; the reverse stream of migration " + settings.ghostMigration()
                    + " stops here: the revert is no longer possible", e);
        }
        if (poison == null) {
            throw new ConnectException(what, e);
        }
        poison.report(record, new ConnectException(what, e));
    }

    private void commit(SinkRecord record, String ks, String sh, String after) throws SQLException {
        if (txnGtid == null) {
            return; // a COMMIT whose BEGIN was before our restart point: nothing of it is pending
        }
        if (!skipping) {
            transactionsApplied++;
            if (dirty) {
                pendingWrittenGtid = txnGtid;
            }
        }
        commitState(record, ks, sh, after);
        if (record.timestamp() != null) {
            lagMs = Math.max(0, System.currentTimeMillis() - record.timestamp());
        }
    }

    private void lastPk(SinkRecord record, Struct value, PoisonHandler poison) throws SQLException {
        String sourceTable = value.getString("table");
        TargetTable t = ghost != null && !ghost.writes(sourceTable) ? null : tables.get(sourceTable);
        if (t == null && ghost != null && ghost.writes(sourceTable)) {
            t = tables.ghost(ghost.plan());
        }
        CopyChunk.Closed closed = chunk.close(sourceTable);
        List<Struct> rows = closed.rows();
        List<SinkRecord> rowRecords = closed.records();
        for (int i = 0; i < rows.size(); i++) {
            writer.invalidCells(rows.get(i), InvalidCells.of(rowRecords.get(i)));
        }
        if (t == null) {
            if (!rows.isEmpty()) {
                throw new ConnectException("Copy rows of " + sourceTable + " came without a FIELD record");
            }
        } else {
            LastPk from = parse(sourceTable, value.getString("from"));
            boolean completed = value.getBoolean("completed");
            LastPk to = completed ? null : parse(sourceTable, value.getString("lastpk"));
            LastPk shape = from != null ? from : to;
            List<String> key = shape != null ? shape.columns()
                    : t.keyColumns().stream().map(t::sourceName).toList();
            List<Object> fromValues = from == null ? null : from.values();
            List<Object> toValues = to == null ? null : to.values();
            int replaced;
            if (!serial) {
                replaced = replaceRange(t, sourceTable, key, fromValues, toValues, rows);
            } else {
                // one row at a time, to name (or dead-letter) the row the target cannot take
                replaced = replaceRange(t, sourceTable, key, fromValues, toValues, List.of());
                for (int i = 0; i < rows.size(); i++) {
                    try {
                        writer.insert(t, rows.get(i));
                        writer.flush();
                    } catch (SQLException e) {
                        poison(rowRecords.get(i), "r", sourceTable, t, e, poison, keyOf(rowRecords.get(i), t,
                                rows.get(i)));
                    }
                }
            }
            rowsApplied += rows.size();
            // a first copy of the range replaces nothing (the stream skips keys beyond the last copied one); a chunk
            // the source sends again after a restart replaces its own earlier rows, which were counted already
            copiedDelta += rows.size() - replaced;
            writer.forgetInvalidCells(); // rows of other new shards (a split) were not written here
        }
        if (value.getBoolean("completed")) {
            copyState.remove(sourceTable);
        } else {
            copyState.put(sourceTable, value.getString("lastpk"));
        }
        commitState(record, value.getString("keyspace"), value.getString("shard"), position);
    }

    /** Replaces the chunk's key range; returns how many rows the range held (of this old shard, in a merge). */
    private int replaceRange(TargetTable t, String sourceTable, List<String> key, List<Object> from, List<Object> to,
                             List<Struct> rows) throws SQLException {
        if (ownership == null) {
            return writer.replaceRange(t, key, from, to, rows);
        }
        return writer.replaceOwnedRange(t, key, from, to, rows, ownership.column(sourceTable),
                v -> ownership.owns(sourceTable, v));
    }

    private void ddl(SinkRecord record, Struct value) throws SQLException {
        if (dirty || txnGtid != null) {
            rollbackWork();
        }
        String gtid = value.getString("gtid");
        if (ghost != null) {
            String statement = value.getString("statement");
            String why = ghost.refusal(statement, value.getString("db"), gtid);
            if (why != null) {
                reportFailure(why);
                throw new ConnectException(why);
            }
            String away = ghost.swappedAway(statement, value.getString("db"));
            if (away != null) {
                followSwap(away, gtid);
            }
            commitState(record, value.getString("keyspace"), value.getString("shard"), value.getString("position"));
            return;
        }
        flush(); // what came before the DDL is committed before the DDL runs, and the DDL's position right after it
        if (settings.ddlApply() && !alreadyApplied(gtid)) {
            try {
                tables.applyDdl(value.getString("db"), value.getString("keyspace"), value.getString("statement"));
            } catch (SQLException e) {
                if (!DDL_ALREADY_DONE.contains(e.getErrorCode())) {
                    throw e;
                }
                LOG.warn("{}-{}: DDL at {} seems applied already ({}); going on", topic, partition, gtid,
                        e.getMessage());
            }
        }
        commitState(record, value.getString("keyspace"), value.getString("shard"), value.getString("position"));
        flush();
    }

    /**
     * The stream reached a swap (the table renamed to {@code away}, the table that followed it to the table's name):
     * from here on the table's changes are those of the table that serves now, and they go into {@code away}, which
     * follows it ({@link GhostTarget#follow}), the switch recorded in this record's transaction so a restarted applier
     * follows the same direction. Without a direction plan the applier has nothing it may write (the coordinator
     * retires it at the swap, so it never gets here) and stops.
     */
    private void followSwap(String away, String gtid) throws SQLException {
        String migration = settings.ghostMigration();
        String table = ghost.plan().table();
        MigrationPlans.Direction direction = ghost.follow(conn, away);
        if (direction == null) {
            String why = "the stream passed a swap of migration " + migration + " (" + gtid + ": " + table + " is the"
                    + " new table, the one it replaced is `" + away + "`), and the migration keeps no reverse stream"
                    + " (ddl.revert.window.ms=0): this applier's work ended at the cut-over; delete the sink connector";
            reportFailure(why);
            throw new ConnectException(why);
        }
        tables.forget();
        tables.ghost(direction.plan());
        LOG.info("{}-{}: migration {} swapped its tables at {}: from here on the changes of {} go into `{}`, which"
                + " follows it through the {} mapping {}", topic, partition, migration, gtid, table, away,
                direction.reverse() ? "reverse" : "forward", direction.plan().mapping().toJson());
    }

    /**
     * Writes the state for this record in the open transaction: the record is applied once that transaction commits
     * (at once in serial mode, else with the rest of the batch: {@link #flush()}).
     */
    private void commitState(SinkRecord record, String ks, String sh, String pos) throws SQLException {
        writer.flush();
        String copy = copyCompleted ? "[]" : null;
        if (!copyState.isEmpty()) {
            List<String> parts = new ArrayList<>();
            for (var e : copyState.entrySet()) {
                String json = e.getValue();
                parts.add(json.substring(1, json.length() - 1)); // each is a one-entry JSON array
            }
            copy = "[" + String.join(",", parts) + "]";
        }
        long copied = Math.max(0, rowsCopied + copiedDelta);
        pendingState = new StateStore.Applied(record.kafkaOffset(), ks, sh, pos, copy, record.timestamp(), copied);
        if (serial) {
            flush(); // finding a poison record: each transaction on its own
        }
        rowsCopied = copied;
        copiedDelta = 0;
        keyspace = ks;
        shard = sh;
        position = pos;
        txnGtid = null;
        skipping = false;
        dirty = false;
        if (serial) {
            serial = false;
            retireWriter();
            writer = new RowWriter(conn, settings.batchMaxRows());
        }
    }

    /** Replaces the copy progress with a copy state JSON ({@code []}: the copy has completed). */
    private void readCopyState(String json) {
        copyState.clear();
        var tables = OffsetCodec.copyStateFromJson(json);
        copyCompleted = tables.isEmpty();
        for (var t : tables) {
            copyState.put(t.table(), OffsetCodec.copyStateJson(List.of(t)));
        }
    }

    private boolean alreadyApplied(String gtid) {
        return position != null && gtid != null && !position.isEmpty() && StopGate.contains(position, gtid);
    }

    private static String laterOf(String current, String candidate) {
        if (current == null || current.isEmpty()) {
            return candidate;
        }
        if (candidate == null || candidate.isEmpty()) {
            return current;
        }
        try {
            GtidPosition a = GtidPosition.parse(current);
            GtidPosition b = GtidPosition.parse(candidate);
            return a.contains(b) ? current : candidate;
        } catch (IllegalArgumentException e) {
            return candidate;
        }
    }


    private void rollbackWork() throws SQLException {
        if (pendingState != null) {
            // the cut-short transaction shares the target's transaction with applied ones not yet committed: drop
            // them all and go again from what the target holds (open() reloads it); rare (a source reconnecting
            // mid-transaction, a DDL inside one)
            abort();
            throw new java.sql.SQLTransientException(topic + "-" + partition + ": a transaction cut short shares the"
                    + " target's transaction with others not yet committed; re-applying from the last commit");
        }
        writer.discard();
        conn.rollback();
        resetWork();
    }

    /**
     * Commits the transactions applied since the last commit (a group commit: the sink task calls it at the end of
     * each batch, and before it stops a partition), with the state row that says how far they go.
     */
    @Override
    public void flush() throws SQLException {
        StateStore.Applied pending = pendingState;
        if (pending != null) {
            state.save(conn, pending); // one state write per group commit
            conn.commit();
            pendingState = null;
            appliedOffset = pending.kafkaOffset();
            if (pendingWrittenGtid != null) {
                lastWrittenGtid = pendingWrittenGtid;
                pendingWrittenGtid = null;
            }
        }
    }

    /** Drops all uncommitted work (after a failure); the committed state stays as loaded or last committed. */
    @Override
    public void abort() {
        pendingState = null;
        pendingWrittenGtid = null; // rolled back: the target does not hold it
        try {
            if (writer != null) {
                writer.discard();
            }
            if (conn != null) {
                conn.rollback();
            }
        } catch (SQLException e) {
            // the connection may be gone; recover() reconnects
        }
        resetWork();
    }

    private void resetWork() {
        copiedDelta = 0;
        txnGtid = null;
        skipping = false;
        dirty = false;
        chunk.abandon();
    }

    private static LastPk parse(String table, String json) {
        if (json == null) {
            return null;
        }
        return OffsetCodec.copyStateFromJson(json).get(0).lastPk();
    }

    static String header(SinkRecord r, String name) {
        Header h = r.headers().lastWithName(name);
        return h == null ? null : text(h);
    }

    /** A header's value as text (a converter may leave it as bytes); {@code null} when it has none. */
    static String text(Header h) {
        Object v = h.value();
        return v instanceof byte[] b ? new String(b, java.nio.charset.StandardCharsets.UTF_8)
                : v == null ? null : String.valueOf(v);
    }

    private static String keyOf(SinkRecord r) {
        return r.key() == null ? "none" : String.valueOf(r.key());
    }

    /** The key of a copy row: its record's, or for a row of a ROWS record (which has none) the row's key columns. */
    private static String keyOf(SinkRecord r, TargetTable t, Struct row) {
        if (r.key() != null || row == null) {
            return keyOf(r);
        }
        StringBuilder b = new StringBuilder("{");
        for (String column : t.keyColumns()) {
            Object v = row.schema().field(column) == null ? null : row.get(column);
            b.append(b.length() == 1 ? "" : ", ").append(column).append('=').append(v);
        }
        return b.append('}').toString();
    }

    @Override
    public long rowsApplied() {
        return rowsApplied;
    }

    /** Round trips that wrote rows (multi-row INSERTs, JDBC batches), for the batch size metric. */
    @Override
    public long writeStatements() {
        RowWriter w = writer;
        return statementsBefore + (w == null ? 0 : w.statementsSent());
    }

    /** The rows those round trips carried. */
    @Override
    public long writeRows() {
        RowWriter w = writer;
        return rowsSentBefore + (w == null ? 0 : w.rowsSent());
    }

    private void retireWriter() {
        if (writer != null) {
            statementsBefore += writer.statementsSent();
            rowsSentBefore += writer.rowsSent();
        }
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
        return position;
    }

    @Override
    public void close() {
        tables.close();
        closeControl();
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
