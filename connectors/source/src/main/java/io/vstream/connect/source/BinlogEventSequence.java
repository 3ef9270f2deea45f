package io.vstream.connect.source;

import com.github.shyiko.mysql.binlog.event.Event;
import com.github.shyiko.mysql.binlog.event.EventHeader;
import com.github.shyiko.mysql.binlog.event.EventType;
import com.github.shyiko.mysql.binlog.event.GtidEventData;
import com.github.shyiko.mysql.binlog.event.MariadbGtidEventData;
import com.github.shyiko.mysql.binlog.event.QueryEventData;
import com.github.shyiko.mysql.binlog.event.TableMapEventData;
import io.vstream.connect.core.event.RowEnvelope;
import io.vstream.connect.core.position.GtidPosition;
import io.vstream.connect.core.position.ShardGtid;
import io.vstream.connect.core.protocol.JournalSchema;
import io.vstream.connect.core.reshard.Journal;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.ConnectException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What each binlog event of one shard's stream does, and where the stream stands: the state machine between the
 * binlog client and the shard's queue. Touches no server and no Connect runtime: events come in one by one
 * ({@link #onEvent}), records go out through an {@link Output}, table definitions come from {@link Definitions}.
 * <ul>
 * <li>Transactions: a GTID event opens one; its first streamed row emits BEGIN (and the table's FIELD when its columns
 * changed), each row a ROW record carrying the position before the transaction; XID or COMMIT emits COMMIT with the
 * position after it. A transaction without streamed rows (tables outside the filter, rows the copy will read) emits
 * nothing but still moves the position, which a HEARTBEAT then tells ({@link #maybeHeartbeat(long, boolean)}).</li>
 * <li>A statement logged as a statement (DDL) is its own transaction: it moves the position, forgets the table maps,
 * and emits a DDL record when it concerns the keyspace's database.</li>
 * <li>Restarts: the stream always resumes from the position after the last complete transaction; a transaction cut
 * short by a lost connection is closed with an abort marker ({@link #abortOpenTransaction}): the task aborts what it
 * delivered, and the restart delivers the whole transaction again from its GTID event, so nothing is lost.</li>
 * <li>Stop points: a catch-up target (the copy phase's snapshot position, {@link Step#TARGET_REACHED}), and a reshard
 * journal written into this shard that retires it: the stream ends after the journal's transaction with a JOURNAL
 * record ({@link Step#ENDED}).</li>
 * </ul>
 */
final class BinlogEventSequence {
    private static final Logger LOG = LoggerFactory.getLogger(BinlogEventSequence.class);

    /** Where the records go (the shard's queue); false when one was not taken because the stream is stopping. */
    interface Output {
        boolean put(QueuedRecord record);
    }

    /** What records say about a table beyond its rows, read from the shard; may answer null or nothing. */
    interface Definitions {
        /** The table's {@code SHOW CREATE TABLE} for its FIELD record, or null. */
        String createTable(TableDecoder decoder);

        /** The constant defaults of the table's NOT NULL columns, by column ({@link ColumnDefaults}). */
        Map<String, String> columnDefaults(String database, String table);
    }

    /** The stream's time: a monotonic clock for the heartbeat interval, the wall clock for records of no event. */
    interface Clock {
        Clock SYSTEM = new Clock() {
            @Override
            public long nanoTime() {
                return System.nanoTime();
            }

            @Override
            public long currentTimeMillis() {
                return System.currentTimeMillis();
            }
        };

        long nanoTime();

        long currentTimeMillis();
    }

    /** What the binlog reader does after an event. */
    enum Step {
        /** Read the next event. */
        READ_ON,
        /** The position contains the catch-up target: close this connection and return to the caller. */
        TARGET_REACHED,
        /** The stream ended at a reshard journal (its last record is the JOURNAL): close it for good. */
        ENDED
    }

    private final String shard;
    private final StreamSettings settings;
    private final RecordFactory records;
    private final StreamMetrics metrics;
    private final Definitions definitions;
    private final Output output;
    private final Clock clock;

    private volatile ShardGtid committed; // position after the last complete transaction seen (JMX reads it)
    private Charsets charsets;
    private final Map<Long, TableDecoder> decoders = new HashMap<>();
    private final Map<String, String> fieldsSent = new HashMap<>();
    private long journalTableId = -1;
    private Journal pendingJournal;
    private GtidPosition stopTarget;
    private volatile boolean ended;

    // the transaction in progress
    private String txnGtid;
    private boolean txnOpen;
    private boolean txnBegun;
    private long txnEvents;

    // what the output has been told
    private final HeartbeatSchedule heartbeats;
    private boolean openSinceBoundary;

    BinlogEventSequence(String shard, StreamSettings settings, RecordFactory records, StreamMetrics metrics,
                        Definitions definitions, Output output, Clock clock, ShardGtid start) {
        this.shard = shard;
        this.settings = settings;
        this.records = records;
        this.metrics = metrics;
        this.definitions = definitions;
        this.output = output;
        this.clock = clock;
        this.committed = start;
        this.heartbeats = new HeartbeatSchedule(settings.heartbeatInterval(), clock.nanoTime());
    }

    /** The position after the last complete transaction (or copy chunk); null before the start is resolved. */
    ShardGtid position() {
        return committed;
    }

    /** Moves the position (the start resolved at connect, the copy phase's progress). */
    void position(ShardGtid next) {
        committed = next;
    }

    /** Whether the stream has ended at a reshard journal. */
    boolean ended() {
        return ended;
    }

    /**
     * A new binlog connection reads from the position, with the server's charsets, until it contains {@code target}
     * (null: until the connection ends). Table maps are per connection, so they are forgotten.
     */
    void connecting(Charsets serverCharsets, GtidPosition target) {
        this.charsets = serverCharsets;
        this.stopTarget = target;
        decoders.clear();
    }

    /** Announces a (re)start: the VGTID record with the position the log resumes from. */
    void announceStart() {
        emit(QueuedRecord.boundary(records.position(io.vstream.connect.core.event.EventType.VGTID, committed,
                clock.currentTimeMillis())));
    }

    /** Handles the next event of the binlog; says whether to read on. */
    Step onEvent(Event event) {
        EventHeader header = event.getHeader();
        EventType type = header.getEventType();
        long ts = header.getTimestamp();
        Step step = Step.READ_ON;
        switch (type) {
            case MARIADB_GTID -> {
                MariadbGtidEventData g = event.getData();
                startTransaction(g.getDomainId() + "-" + g.getServerId() + "-" + g.getSequence());
            }
            case GTID -> {
                GtidEventData g = event.getData();
                startTransaction(g.getMySqlGtid().toString());
            }
            case QUERY -> step = onQuery(event.getData(), ts);
            case XID -> step = commit(ts);
            case TABLE_MAP -> onTableMap(event.getData());
            case TRANSACTION_PAYLOAD -> throw new ConnectException("Shard " + shard + " writes compressed"
                    + " binlog transactions, which cannot be decoded: run SET GLOBAL binlog_transaction_compression=OFF"
                    + " (and in the config file); the changes after " + committed.gtidText() + " must be re-read");
            default -> {
                if (EventType.isRowMutation(type)) {
                    onRows(RowsEvent.of(event), ts, header.getServerId());
                } else if (!txnOpen) {
                    // meta events (the server's heartbeat, rotate, ...): their time is not the stream's
                    maybeHeartbeat(0, type == EventType.HEARTBEAT);
                }
            }
        }
        metrics.binlogEvent(ts);
        return step;
    }

    private void startTransaction(String gtid) {
        txnGtid = gtid;
        txnOpen = true;
        txnBegun = false;
        txnEvents = 0;
    }

    private Step onQuery(QueryEventData q, long ts) {
        String sql = q.getSql().strip();
        String upper = sql.length() > 16 ? sql.substring(0, 16).toUpperCase(Locale.ROOT) : sql.toUpperCase(Locale.ROOT);
        if (upper.equals("BEGIN") || upper.startsWith("XA START")) {
            return Step.READ_ON;
        }
        if (upper.equals("COMMIT") || upper.startsWith("XA END") || upper.startsWith("XA COMMIT")
                || upper.startsWith("XA PREPARE")) {
            return commit(ts);
        }
        if (upper.equals("ROLLBACK")) {
            return commit(ts); // a transaction of non-transactional tables that rolled back still wrote what it wrote
        }
        // a statement logged as a statement: DDL (or DCL) in its own transaction
        if (txnGtid == null) {
            return Step.READ_ON;
        }
        committed = committed.withGtid(committed.gtid().advance(txnGtid));
        decoders.clear();
        if (concernsOurDatabase(q)) {
            emit(QueuedRecord.boundary(records.ddl(q.getDatabase(), sql, txnGtid, committed, ts)));
        }
        endTransaction();
        return checkTarget();
    }

    private boolean concernsOurDatabase(QueryEventData q) {
        String db = settings.database();
        if (db.equalsIgnoreCase(q.getDatabase())) {
            return true;
        }
        return q.getSql().toLowerCase(Locale.ROOT).contains(db.toLowerCase(Locale.ROOT));
    }

    /** Whether this stream reads the rows of a table: a streamed table of the keyspace's database, or the journal. */
    static boolean streams(StreamSettings settings, String database, String table) {
        return settings.database().equals(database) && settings.filter().includesTable(table)
                || JournalSchema.TABLE.equals(table) && settings.journalDatabase().equals(database);
    }

    private void onTableMap(TableMapEventData tm) {
        if (JournalSchema.TABLE.equals(tm.getTable()) && settings.journalDatabase().equals(tm.getDatabase())) {
            journalTableId = tm.getTableId();
            return;
        }
        if (!settings.database().equals(tm.getDatabase()) || !settings.filter().includesTable(tm.getTable())) {
            return;
        }
        TableDecoder existing = decoders.get(tm.getTableId());
        if (existing != null && existing.table().table().equals(tm.getTable())) {
            return;
        }
        decoders.put(tm.getTableId(), TableDecoder.of(tm, settings.filter(), charsets, settings.topicPrefix(),
                settings.keyspace(), settings.avroFieldNames(),
                definitions.columnDefaults(tm.getDatabase(), tm.getTable())));
    }

    private void onRows(RowsEvent event, long ts, long eventServerId) {
        if (event.tableId() == journalTableId) {
            if (event.isWrite()) {
                onJournalRows(event.rows());
            }
            return;
        }
        TableDecoder decoder = decoders.get(event.tableId());
        if (decoder == null) {
            return; // a table we do not stream
        }
        boolean copying = committed.isCopying();
        int index = 0;
        for (Object row : event.rows()) {
            RowsEvent.Images images = event.images(row);
            Struct beforeRow = decoder.row(images.before());
            Struct afterRow = decoder.row(images.after());
            List<InvalidCell> invalid = decoder.invalidCells(images.after());
            int rowIndex = index++;
            if (images.op() == RowEnvelope.Op.UPDATE && !decoder.sameKey(beforeRow, afterRow)) {
                // a key change is a delete of the old key and a create of the new one, as Debezium emits it, so
                // that keyed consumers (compacted per-table topics) drop the old key
                emitRow(decoder, beforeRow, null, RowEnvelope.Op.DELETE, copying, ts, eventServerId, rowIndex, null);
                emitRow(decoder, null, afterRow, RowEnvelope.Op.CREATE, copying, ts, eventServerId, rowIndex,
                        invalid);
            } else {
                emitRow(decoder, beforeRow, afterRow, images.op(), copying, ts, eventServerId, rowIndex, invalid);
            }
        }
    }

    /** A journal written into this shard: if it retires this shard, the stream ends after its transaction. */
    private void onJournalRows(List<?> rows) {
        for (Object row : rows) {
            Object[] values = (Object[]) row;
            if (!settings.keyspace().equals(JournalSchema.keyspaceOf(values))) {
                continue;
            }
            Journal j = JournalSchema.fromRow(values);
            if (j.retires(shard)) {
                pendingJournal = j;
            }
        }
    }

    private void emitRow(TableDecoder decoder, Struct beforeRow, Struct afterRow, RowEnvelope.Op op, boolean copying,
                         long ts, long eventServerId, int rowIndex, List<InvalidCell> invalid) {
        if (copying && !CopyFilter.send(committed.tablePks(), decoder.table().table(), beforeRow, afterRow)) {
            return; // the row will be copied (see CopyFilter)
        }
        if (!txnBegun) {
            emit(QueuedRecord.inTransaction(records.begin(txnGtid, committed, ts)));
            txnBegun = true;
        }
        fieldIfChanged(decoder, ts);
        txnEvents++;
        emit(QueuedRecord.inTransaction(records.row(decoder, beforeRow, afterRow, op, txnGtid, eventServerId, ts,
                rowIndex, txnEvents, committed, invalid)));
        metrics.row();
    }

    /** Sends the table's FIELD record when its columns differ from the last FIELD sent for it. */
    void fieldIfChanged(TableDecoder decoder, long ts) {
        String table = decoder.table().table();
        if (!decoder.signature().equals(fieldsSent.get(table))) {
            emit(QueuedRecord.inTransaction(records.field(decoder, definitions.createTable(decoder), committed, ts)));
            fieldsSent.put(table, decoder.signature());
        }
    }

    private Step commit(long ts) {
        if (!txnOpen || txnGtid == null) {
            return Step.READ_ON;
        }
        committed = committed.withGtid(committed.gtid().advance(txnGtid));
        if (pendingJournal != null) {
            Journal j = pendingJournal;
            pendingJournal = null;
            if (txnBegun) {
                emit(QueuedRecord.boundary(records.commit(txnGtid, committed, txnEvents, ts)));
            }
            endTransaction();
            endAtJournal(j, false, ts);
            return Step.ENDED;
        }
        if (txnBegun) {
            emit(QueuedRecord.boundary(records.commit(txnGtid, committed, txnEvents, ts)));
            metrics.transaction(ts);
        } else {
            heartbeats.positionMovedSilently();
            maybeHeartbeat(ts, false);
        }
        endTransaction();
        return checkTarget();
    }

    private Step checkTarget() {
        GtidPosition target = stopTarget;
        if (target != null && committed.gtid().contains(target)) {
            stopTarget = null;
            return Step.TARGET_REACHED;
        }
        return Step.READ_ON;
    }

    private void endTransaction() {
        txnOpen = false;
        txnBegun = false;
        txnGtid = null;
        txnEvents = 0;
    }

    /**
     * The connection was lost: a transaction of which records were emitted since the last boundary is closed with an
     * abort marker (a consumer drops those records; the restart delivers the transaction again from its start).
     */
    void abortOpenTransaction() {
        if (openSinceBoundary) {
            emit(QueuedRecord.abortMarker());
            fieldsSent.clear(); // an aborted FIELD may never reach a read_committed consumer: send it again
        }
        endTransaction();
    }

    /**
     * Ends the stream at a reshard journal: the JOURNAL record at the position reached (the participant's journaled
     * position when the stream never resolved one), marked as a fallback when the shard was given up
     * ({@code fallback}) or its copy had not completed (the new shards are then copied).
     */
    void endAtJournal(Journal j, boolean fallback, long ts) {
        boolean copying = committed != null && committed.isCopying();
        if (copying && !fallback) {
            LOG.warn("Shard {}: reshard journal {} arrived before this stream's copy completed; the new shards {} will"
                    + " be copied", shard, j.id(), j.shardNames());
        }
        ShardGtid at = committed != null ? committed
                : ShardGtid.of(settings.keyspace(), shard,
                GtidPosition.parse(j.participant(shard).orElseThrow().position()));
        emit(QueuedRecord.boundary(records.journal(j, at, fallback || copying, ts)));
        ended = true;
        LOG.info("Shard {}: stream ended at reshard journal {} (position {}); the new shards are {}", shard,
                j.id(), at.gtidText(), j.shardNames());
    }

    /**
     * A HEARTBEAT with the committed position when {@link HeartbeatSchedule} says one is due ({@code idle}: the server
     * just sent its heartbeat event, after {@link ShardStreamer#serverHeartbeat} without events). The applier's state
     * then shows it has everything the source read up to now, also while the copy waits on a throttle (the
     * coordinator's applier lag is the age of the last record applied, so without it a throttle never lifts), and a
     * cut-over's barrier, which waits for a position that usually ends with transactions of tables not streamed (the
     * coordinator's own), gets it while the application's writes are blocked. Its time is that of the binlog event
     * read last ({@code ts}), so a source reading an old backlog looks behind; 0 (no event) means now.
     */
    void maybeHeartbeat(long ts, boolean idle) {
        if (committed == null) {
            return;
        }
        if (heartbeats.due(idle, clock.nanoTime())) {
            emit(QueuedRecord.boundary(records.position(io.vstream.connect.core.event.EventType.HEARTBEAT,
                    committed, ts > 0 ? ts : clock.currentTimeMillis())));
        }
    }

    /** Hands a record to the output and notes what the output now knows. */
    void emit(QueuedRecord r) {
        if (output.put(r)) {
            heartbeats.emitted(r, clock.nanoTime());
            openSinceBoundary = !r.boundary();
        }
    }
}
