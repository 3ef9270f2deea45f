package io.vstream.connect.source;

import com.github.shyiko.mysql.binlog.BinaryLogClient;
import com.github.shyiko.mysql.binlog.event.DeleteRowsEventData;
import com.github.shyiko.mysql.binlog.event.Event;
import com.github.shyiko.mysql.binlog.event.EventHeader;
import com.github.shyiko.mysql.binlog.event.EventType;
import com.github.shyiko.mysql.binlog.event.GtidEventData;
import com.github.shyiko.mysql.binlog.event.MariadbGtidEventData;
import com.github.shyiko.mysql.binlog.event.QueryEventData;
import com.github.shyiko.mysql.binlog.event.TableMapEventData;
import com.github.shyiko.mysql.binlog.event.UpdateRowsEventData;
import com.github.shyiko.mysql.binlog.event.WriteRowsEventData;
import com.github.shyiko.mysql.binlog.network.ServerException;
import io.vstream.connect.core.error.ServerErrors;
import io.vstream.connect.core.event.RowEnvelope;
import io.vstream.connect.core.position.Flavor;
import io.vstream.connect.core.position.GtidPosition;
import io.vstream.connect.core.position.ShardGtid;
import io.vstream.connect.core.position.TableLastPk;
import io.vstream.connect.core.topology.ShardAddress;
import org.apache.kafka.connect.data.Struct;
import java.io.Serializable;
import java.sql.Connection;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.source.SourceRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Streams one shard's binlog from a GTID position into a bounded queue of records, on its own thread: connects
 * (after the server preflight), decodes each transaction into BEGIN, FIELD, ROW and COMMIT records, DDL into DDL
 * records, and emits HEARTBEATs while the filtered tables are idle. Records inside a transaction carry the position
 * before it; the COMMIT carries the position after it, so a stored offset is always a transaction boundary. A lost
 * connection is retried with backoff from the last boundary (the partial transaction is marked aborted); a position
 * the server no longer has, or an event that cannot be decoded, fails the shard with the reason.
 */
final class ShardStreamer implements Runnable {
    private static final Logger LOG = LoggerFactory.getLogger(ShardStreamer.class);

    private final ShardAddress shard;
    private final StreamSettings settings;
    private final long serverId;
    private final RecordFactory records;
    private final BlockingQueue<QueuedRecord> queue;
    private final StreamMetrics metrics;

    private final CopySettings copy;
    private Connection metadata; // for SHOW CREATE TABLE, used by this shard's thread only
    private volatile boolean running = true;
    private volatile GtidPosition stopTarget;
    private volatile boolean targetReached;
    private boolean openSinceBoundary;
    private volatile Throwable failure;
    private volatile BinaryLogClient client;
    private volatile BinlogSilenceWatch silenceWatch; // of the connection in client
    private volatile Exception clientFailure;
    private volatile boolean ended; // the stream reached a reshard journal that retires this shard: it is done
    private final io.vstream.connect.core.reshard.Journal drainJournal; // the journal a resumed stream must reach
    private long journalTableId = -1;
    private io.vstream.connect.core.reshard.Journal pendingJournal;

    private ShardGtid committed; // position after the last complete transaction seen
    private Flavor flavor;
    private Charsets charsets;
    private final Map<Long, TableDecoder> decoders = new HashMap<>();
    private final Map<String, String> fieldsSent = new HashMap<>();

    // the transaction in progress
    private String txnGtid;
    private boolean txnOpen;
    private boolean txnBegun;
    private long txnEvents;
    private long lastEnqueueNanos = System.nanoTime();
    // skipped transactions (of tables not streamed) moved the committed position past the last record enqueued
    private boolean positionUntold;
    private boolean receivedSinceConnect;

    ShardStreamer(ShardAddress shard, StreamSettings settings, CopySettings copy, long serverId, ShardGtid start,
                  long epoch, StreamMetrics metrics) {
        this(shard, settings, copy, serverId, start, epoch, metrics, null);
    }

    /**
     * @param drainJournal when this shard is a participant of a journal the connector knows of (a stream resumed after
     *                     a reshard): if the shard cannot be streamed up to it (gone, binlogs purged), the stream ends
     *                     at it with the fallback mark (or fails, as reshard.fallback says)
     */
    ShardStreamer(ShardAddress shard, StreamSettings settings, CopySettings copy, long serverId, ShardGtid start,
                  long epoch, StreamMetrics metrics, io.vstream.connect.core.reshard.Journal drainJournal) {
        this.drainJournal = drainJournal;
        this.shard = shard;
        this.copy = copy;
        this.settings = settings;
        this.serverId = serverId;
        this.committed = start;
        this.records = new RecordFactory(settings.connectorName(), settings.topicPrefix(), settings.keyspace(),
                shard.name(), epoch, settings.recordSizeLimit());
        this.queue = new LinkedBlockingQueue<>(settings.maxQueueSize());
        this.metrics = metrics;
    }

    ShardAddress shard() {
        return shard;
    }

    BlockingQueue<QueuedRecord> queue() {
        return queue;
    }

    /** Whether the shard's stream has ended at a reshard journal (its last record is the JOURNAL). */
    boolean ended() {
        return ended;
    }

    /** The reason the shard stopped streaming for good, or {@code null}. */
    Throwable failure() {
        return failure;
    }

    void stop() {
        running = false;
        disconnectQuietly();
    }

    @Override
    public void run() {
        io.vstream.connect.core.error.Backoff backoff = new io.vstream.connect.core.error.Backoff(
                settings.backoffInitial(), settings.backoffMax());
        long downSince = 0;
        while (running && !ended) {
            try {
                streamOnce();
            } catch (FatalStreamException e) {
                if (!giveUpToJournal(e.getMessage())) {
                    failure = e;
                }
                break;
            } catch (ConnectException e) {
                failure = e; // refused by a check (uncopyable table, copy that cannot continue): the message says why
                break;
            } catch (Exception e) {
                if (running) {
                    LOG.warn("Shard {}: stream interrupted ({}); resuming from {}", shard.name(), e.toString(),
                            committed == null ? "the start position" : committed.gtidText());
                }
            }
            if (!running || ended) {
                break;
            }
            abortOpenTransaction();
            metrics.reconnected();
            if (receivedSinceConnect) {
                downSince = 0;
                backoff.succeeded();
            }
            long now = System.nanoTime();
            if (downSince == 0) {
                downSince = now;
            } else if (now - downSince > settings.retryMaxDuration().toNanos()) {
                if (giveUpToJournal("unreachable for longer than retry.max.duration.ms")) {
                    break;
                }
                failure = new ConnectException("Shard " + shard.name() + " (" + shard.host() + ":" + shard.port()
                        + ") has been unreachable for longer than retry.max.duration.ms ("
                        + settings.retryMaxDuration().toMillis() + " ms); last position "
                        + (committed == null ? "none" : committed.gtidText()));
                break;
            }
            sleep(backoff.failed());
        }
        disconnectQuietly();
        closeMetadata();
    }

    /** Connects, copies what is left to copy, then streams the binlog; returns or throws when that ends. */
    private void streamOnce() throws Exception {
        receivedSinceConnect = false;
        prepare();
        // every (re)start is announced: a consumer learns the position the log resumes from, and that a run of copy
        // rows cut short before it was abandoned (docs/copy.md)
        enqueue(QueuedRecord.boundary(records.position(io.vstream.connect.core.event.EventType.VGTID, committed,
                System.currentTimeMillis())));
        if (committed.isCopying()) {
            CopyPhase phase = new CopyPhase(shard, settings, copy, records, charsets, flavor, copyStream(), metrics);
            while (running && committed.isCopying()) {
                phase.runCycle();
            }
        }
        if (running && !ended) {
            binlogUntil(null);
        }
    }

    /**
     * A resumed stream that cannot reach its journal (the old shard is gone or has purged its binlogs): ends at the
     * journal with the fallback mark when reshard.fallback=copy, so the connector copies the new shards; returns false
     * (the caller fails the shard) when there is no such journal, or with reshard.fallback=fail, after saying why.
     */
    private boolean giveUpToJournal(String why) {
        io.vstream.connect.core.reshard.Journal j = drainJournal;
        if (j == null) {
            return false;
        }
        if (!settings.reshardFallbackCopy()) {
            failure = new ConnectException("Shard " + shard.name() + " was retired by reshard journal " + j.id()
                    + ", but this stream cannot read it up to the journal (" + why + "), and reshard.fallback=fail."
                    + " Either bring the old shard back (with its binlogs) and restart the task, or set"
                    + " reshard.fallback=copy to copy the new shards " + j.shardNames() + " afresh");
            return true;
        }
        LOG.warn("Shard {}: cannot stream up to reshard journal {} ({}); falling back to a fresh copy of the new"
                + " shards {} (reshard.fallback=copy)", shard.name(), j.id(), why, j.shardNames());
        endAtJournal(j, true, System.currentTimeMillis());
        return true;
    }

    private void endAtJournal(io.vstream.connect.core.reshard.Journal j, boolean fallback, long ts) {
        boolean copying = committed != null && committed.isCopying();
        if (copying && !fallback) {
            LOG.warn("Shard {}: reshard journal {} arrived before this stream's copy completed; the new shards {} will"
                    + " be copied", shard.name(), j.id(), j.shardNames());
        }
        ShardGtid at = committed != null ? committed
                : ShardGtid.of(settings.keyspace(), shard.name(),
                io.vstream.connect.core.position.GtidPosition.parse(j.participant(shard.name()).orElseThrow().position()));
        enqueue(QueuedRecord.boundary(records.journal(j, at, fallback || copying, ts)));
        ended = true;
        LOG.info("Shard {}: stream ended at reshard journal {} (position {}); the new shards are {}", shard.name(),
                j.id(), at.gtidText(), j.shardNames());
        disconnectQuietly();
    }

    /** The preflight, the server's charsets, and the start position when none is known yet. */
    private void prepare() throws Exception {
        try (Connection conn = connect()) {
            ServerPreflight.ServerInfo info = ServerPreflight.check(conn, shard);
            flavor = info.flavor();
            charsets = Charsets.load(conn, flavor);
            if (committed == null || committed.isCurrent()) {
                List<TableLastPk> tables = committed != null ? committed.tablePks()
                        : copy.copyOnStart() ? CopyPhase.plan(conn, shard, settings, copy, flavor) : List.of();
                GtidPosition now = GtidPosition.parse(flavor, ServerPreflight.currentPosition(conn, flavor));
                committed = ShardGtid.of(settings.keyspace(), shard.name(), now, tables);
                LOG.info("Shard {}: starting from the current position {}{}", shard.name(), committed.gtidText(),
                        tables.isEmpty() ? "" : ", copying " + tables.size() + " table(s) first");
            } else if (committed.gtid().flavor() != flavor) {
                throw new FatalStreamException("Shard " + shard.name() + " runs " + info.version() + " but its stored"
                        + " position " + committed.gtidText() + " is of another flavor; the topology points at the"
                        + " wrong server, or the offsets belong to another keyspace");
            }
        } catch (java.sql.SQLException e) {
            if (e.getErrorCode() == ServerErrors.ACCESS_DENIED
                    || e instanceof io.vstream.connect.core.sql.TlsHandshakeException) {
                throw new FatalStreamException(e.getMessage(), e); // no retry gets another password or certificate
            }
            throw e;
        } catch (TableInspector.UncopyableTableException e) {
            throw e;
        } catch (ConnectException e) {
            throw new FatalStreamException(e.getMessage(), e);
        }
    }

    /**
     * The table's current {@code SHOW CREATE TABLE}, for consumers that create it elsewhere, with the ENUM and SET
     * members the decoder knows exactly where the text shows them as {@code '?'} ({@link EnumSetMembers}); null if
     * unavailable.
     */
    private String createTable(TableDecoder decoder) {
        String database = decoder.table().database();
        String table = decoder.table().table();
        try {
            if (metadata == null || !metadata.isValid(2)) {
                closeMetadata();
                metadata = connect();
            }
            try (java.sql.Statement st = metadata.createStatement();
                 java.sql.ResultSet rs = st.executeQuery("/* vstream-connect:source */ SHOW CREATE TABLE "
                         + io.vstream.connect.core.sql.SqlIdentifiers.qualify(database, table))) {
                return rs.next() ? EnumSetMembers.repair(rs.getString(2), decoder.enumAndSetMembers()) : null;
            }
        } catch (java.sql.SQLException e) {
            LOG.debug("Shard {}: SHOW CREATE TABLE {} failed: {}", shard.name(), table, e.toString());
            return null;
        }
    }

    /**
     * The table's NOT NULL columns' constant defaults as its definition has them now ({@link ColumnDefaults}); none
     * when they cannot be read (the row schema then has no defaults, as the binlog has none).
     */
    private java.util.Map<String, String> columnDefaults(String database, String table) {
        try {
            if (metadata == null || !metadata.isValid(2)) {
                closeMetadata();
                metadata = connect();
            }
            return ColumnDefaults.read(metadata, database, table, flavor);
        } catch (java.sql.SQLException e) {
            LOG.debug("Shard {}: the column defaults of {} are not readable: {}", shard.name(), table, e.toString());
            return java.util.Map.of();
        }
    }

    private void closeMetadata() {
        if (metadata != null) {
            try {
                metadata.close();
            } catch (java.sql.SQLException e) {
                // gone already
            }
            metadata = null;
        }
    }

    private Connection connect() throws java.sql.SQLException {
        return ShardConnections.open(shard, settings.user(), settings.password(),
                (int) settings.connectTimeout().toMillis(), settings.tls());
    }

    private CopyPhase.Stream copyStream() {
        return new CopyPhase.Stream() {
            @Override
            public boolean running() {
                return running && !ended;
            }

            @Override
            public ShardGtid position() {
                return committed;
            }

            @Override
            public void position(ShardGtid next) {
                committed = next;
            }

            @Override
            public void catchUp(GtidPosition target) throws Exception {
                binlogUntil(target);
            }

            @Override
            public void emit(QueuedRecord record) {
                enqueue(record);
            }

            @Override
            public void fieldIfChanged(TableDecoder decoder, long tsMs) {
                ShardStreamer.this.fieldIfChanged(decoder, tsMs);
            }

            @Override
            public void heartbeat() {
                maybeHeartbeat(System.currentTimeMillis());
            }

            @Override
            public Connection connect() throws java.sql.SQLException {
                return ShardStreamer.this.connect();
            }

            @Override
            public GtidPosition currentServerPosition() throws java.sql.SQLException {
                try (Connection c = ShardStreamer.this.connect()) {
                    return GtidPosition.parse(flavor, ServerPreflight.currentPosition(c, flavor));
                }
            }
        };
    }

    /**
     * Streams the binlog from the committed position: until it contains {@code target} (then returns), or, with no
     * target, until the connection ends (then throws, so the caller reconnects).
     */
    private void binlogUntil(GtidPosition target) throws Exception {
        if (target != null && committed.gtid().contains(target)) {
            return;
        }
        clientFailure = null;
        stopTarget = target;
        targetReached = false;
        BinaryLogClient c = new BinaryLogClient(shard.host(), shard.port(), settings.user(), settings.password());
        c.setServerId(serverId);
        c.setKeepAlive(false);
        c.setBlocking(true);
        c.setConnectTimeout(settings.connectTimeout().toMillis());
        Duration serverHeartbeat = serverHeartbeat(settings.heartbeatInterval());
        c.setHeartbeatInterval(serverHeartbeat.toMillis());
        c.setGtidSet(committed.gtid().serverFormat());
        c.setGtidSetFallbackToPurged(false);
        c.setUseSendAnnotateRowsEvent(false);
        BinlogTls.configure(c, settings.tls());
        c.setEventDeserializer(BinlogDeserializers.create(tm -> streams(tm.getDatabase(), tm.getTable())));
        c.registerEventListener(this::onEventSafely);
        c.registerLifecycleListener(new BinaryLogClient.AbstractLifecycleListener() {
            @Override
            public void onCommunicationFailure(BinaryLogClient client, Exception ex) {
                clientFailure = ex;
            }

            @Override
            public void onEventDeserializationFailure(BinaryLogClient client, Exception ex) {
                failure = new ConnectException("Shard " + shard.name() + ": a binlog event after "
                        + committed.gtidText() + " could not be decoded; stopping rather than skipping it", ex);
                running = false;
                disconnectQuietly();
            }
        });
        decoders.clear();
        client = c;
        if (!running) {
            return;
        }
        LOG.info("Shard {}: streaming the binlog of {}:{} from {}{} (server_id {})", shard.name(), shard.host(),
                shard.port(), committed.gtidText(), target == null ? "" : " to " + target, serverId);
        BinlogSilenceWatch watch = new BinlogSilenceWatch(shard.name(), BinlogSilenceWatch.limit(serverHeartbeat),
                this::disconnectQuietly);
        silenceWatch = watch.start();
        try {
            c.connect();
        } catch (ServerException e) {
            throw classify(e);
        } finally {
            watch.close();
        }
        if (targetReached || ended) {
            return;
        }
        Exception f = clientFailure;
        if (f instanceof ServerException se) {
            throw classify(se);
        }
        if (f != null) {
            throw f;
        }
        if (running) {
            throw new java.io.EOFException("the server closed the binlog connection");
        }
    }

    private void checkTarget() {
        GtidPosition target = stopTarget;
        if (target != null && committed.gtid().contains(target)) {
            targetReached = true;
            stopTarget = null;
            disconnectQuietly();
        }
    }

    private Exception classify(ServerException e) {
        if (e.getErrorCode() == ServerErrors.BINLOG_READ_FATAL) {
            return new FatalStreamException("Shard " + shard.name() + " (" + shard.host() + ":" + shard.port()
                    + ") no longer has the binlog needed to resume from " + committed.gtidText() + " (server: "
                    + e.getMessage() + "). The changes since then are lost to this stream: recover by re-copying the"
                    + " shard (delete the connector's offsets and start again; see docs/offsets.md).", e);
        }
        if (e.getErrorCode() == ServerErrors.GLOBAL_PRIVILEGE_DENIED || e.getErrorCode() == ServerErrors.ACCESS_DENIED
                || e.getErrorCode() == ServerErrors.DATABASE_ACCESS_DENIED) {
            return new FatalStreamException("Shard " + shard.name() + ": the user '" + settings.user()
                    + "' may not read the binlog (" + e.getMessage() + "). Grant it: GRANT REPLICATION SLAVE,"
                    + " REPLICATION CLIENT ON *.* TO ... (MariaDB 10.5+: also BINLOG MONITOR)", e);
        }
        return e;
    }

    private void onEventSafely(Event event) {
        if (!running) {
            disconnectQuietly(); // stopped while this connection was being opened
            return;
        }
        BinlogSilenceWatch watch = silenceWatch;
        watch.eventStarts();
        try {
            onEvent(event);
        } catch (RuntimeException e) {
            if (!running) {
                return;
            }
            failure = e instanceof ConnectException ? e : new ConnectException("Shard " + shard.name()
                    + ": cannot process the binlog event after " + committed.gtidText() + ": " + e.getMessage(), e);
            running = false;
            disconnectQuietly();
        } finally {
            watch.eventEnds();
        }
    }

    private void onEvent(Event event) {
        receivedSinceConnect = true;
        EventHeader header = event.getHeader();
        EventType type = header.getEventType();
        long ts = header.getTimestamp();
        switch (type) {
            case MARIADB_GTID -> {
                MariadbGtidEventData g = event.getData();
                startTransaction(g.getDomainId() + "-" + g.getServerId() + "-" + g.getSequence(),
                        (g.getFlags() & MariadbGtidEventData.FL_STANDALONE) == 0);
            }
            case GTID -> {
                GtidEventData g = event.getData();
                startTransaction(g.getMySqlGtid().toString(), false);
            }
            case QUERY -> onQuery(event.getData(), ts);
            case XID -> commit(ts);
            case TABLE_MAP -> onTableMap(event.getData());
            case TRANSACTION_PAYLOAD -> throw new ConnectException("Shard " + shard.name() + " writes compressed"
                    + " binlog transactions, which cannot be decoded: run SET GLOBAL binlog_transaction_compression=OFF"
                    + " (and in the config file); the changes after " + committed.gtidText() + " must be re-read");
            default -> {
                if (EventType.isRowMutation(type)) {
                    onRows(event, type, ts, header.getServerId());
                } else if (!txnOpen) {
                    // meta events (the server's heartbeat, rotate, ...): their time is not the stream's
                    maybeHeartbeat(0, type == EventType.HEARTBEAT);
                }
            }
        }
        metrics.binlogEvent(ts);
    }

    private void startTransaction(String gtid, boolean expectBegin) {
        txnGtid = gtid;
        txnOpen = true;
        txnBegun = false;
        txnEvents = 0;
    }

    private void onQuery(QueryEventData q, long ts) {
        String sql = q.getSql().strip();
        String upper = sql.length() > 16 ? sql.substring(0, 16).toUpperCase(Locale.ROOT) : sql.toUpperCase(Locale.ROOT);
        if (upper.equals("BEGIN") || upper.startsWith("XA START")) {
            return;
        }
        if (upper.equals("COMMIT") || upper.startsWith("XA END") || upper.startsWith("XA COMMIT")
                || upper.startsWith("XA PREPARE")) {
            commit(ts);
            return;
        }
        if (upper.equals("ROLLBACK")) {
            commit(ts); // a transaction of non-transactional tables that rolled back still wrote what it wrote
            return;
        }
        // a statement logged as a statement: DDL (or DCL) in its own transaction
        if (txnGtid == null) {
            return;
        }
        committed = committed.withGtid(committed.gtid().advance(txnGtid));
        decoders.clear();
        if (concernsOurDatabase(q)) {
            enqueue(QueuedRecord.boundary(records.ddl(q.getDatabase(), sql, txnGtid, committed, ts)));
        }
        endTransaction();
        checkTarget();
    }

    private boolean concernsOurDatabase(QueryEventData q) {
        String db = settings.database();
        if (db.equalsIgnoreCase(q.getDatabase())) {
            return true;
        }
        return q.getSql().toLowerCase(Locale.ROOT).contains(db.toLowerCase(Locale.ROOT));
    }

    /** Whether this stream reads the rows of a table: a streamed table of the keyspace's database, or the journal. */
    private boolean streams(String database, String table) {
        return settings.database().equals(database) && settings.filter().includesTable(table)
                || io.vstream.connect.core.protocol.JournalSchema.TABLE.equals(table)
                && settings.journalDatabase().equals(database);
    }

    private void onTableMap(TableMapEventData tm) {
        if (io.vstream.connect.core.protocol.JournalSchema.TABLE.equals(tm.getTable())
                && settings.journalDatabase().equals(tm.getDatabase())) {
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
                settings.keyspace(), settings.avroFieldNames(), columnDefaults(tm.getDatabase(), tm.getTable())));
    }

    private void onRows(Event event, EventType type, long ts, long eventServerId) {
        long tableId;
        List<?> rows;
        if (EventType.isWrite(type)) {
            WriteRowsEventData d = event.getData();
            tableId = d.getTableId();
            rows = d.getRows();
        } else if (EventType.isUpdate(type)) {
            UpdateRowsEventData d = event.getData();
            tableId = d.getTableId();
            rows = d.getRows();
        } else {
            DeleteRowsEventData d = event.getData();
            tableId = d.getTableId();
            rows = d.getRows();
        }
        if (tableId == journalTableId) {
            if (EventType.isWrite(type)) {
                onJournalRows(rows);
            }
            return;
        }
        TableDecoder decoder = decoders.get(tableId);
        if (decoder == null) {
            return; // a table we do not stream
        }
        boolean copying = committed.isCopying();
        int index = 0;
        for (Object row : rows) {
            Serializable[] before = null;
            Serializable[] after = null;
            RowEnvelope.Op op;
            if (EventType.isWrite(type)) {
                after = (Serializable[]) row;
                op = RowEnvelope.Op.CREATE;
            } else if (EventType.isUpdate(type)) {
                @SuppressWarnings("unchecked")
                Map.Entry<Serializable[], Serializable[]> e = (Map.Entry<Serializable[], Serializable[]>) row;
                before = e.getKey();
                after = e.getValue();
                op = RowEnvelope.Op.UPDATE;
            } else {
                before = (Serializable[]) row;
                op = RowEnvelope.Op.DELETE;
            }
            Struct beforeRow = decoder.row(before);
            Struct afterRow = decoder.row(after);
            List<InvalidCell> invalid = decoder.invalidCells(after);
            int rowIndex = index++;
            if (op == RowEnvelope.Op.UPDATE && !decoder.sameKey(beforeRow, afterRow)) {
                // a key change is a delete of the old key and a create of the new one, as Debezium emits it, so
                // that keyed consumers (compacted per-table topics) drop the old key
                emitRow(decoder, beforeRow, null, RowEnvelope.Op.DELETE, copying, ts, eventServerId, rowIndex, null);
                emitRow(decoder, null, afterRow, RowEnvelope.Op.CREATE, copying, ts, eventServerId, rowIndex,
                        invalid);
            } else {
                emitRow(decoder, beforeRow, afterRow, op, copying, ts, eventServerId, rowIndex, invalid);
            }
        }
    }

    /** A journal written into this shard: if it retires this shard, the stream ends after its transaction. */
    private void onJournalRows(List<?> rows) {
        for (Object row : rows) {
            Object[] values = (Object[]) row;
            if (!settings.keyspace().equals(io.vstream.connect.core.protocol.JournalSchema.keyspaceOf(values))) {
                continue;
            }
            io.vstream.connect.core.reshard.Journal j = io.vstream.connect.core.protocol.JournalSchema.fromRow(values);
            if (j.retires(shard.name())) {
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
            enqueue(QueuedRecord.inTransaction(records.begin(txnGtid, committed, ts)));
            txnBegun = true;
        }
        fieldIfChanged(decoder, ts);
        txnEvents++;
        SourceRecord r = records.row(decoder, beforeRow, afterRow, op, txnGtid, eventServerId, ts, rowIndex,
                txnEvents, committed, invalid);
        enqueue(QueuedRecord.inTransaction(r));
        metrics.row();
    }

    /** Sends the table's FIELD record when its columns differ from the last FIELD sent for it. */
    private void fieldIfChanged(TableDecoder decoder, long ts) {
        String table = decoder.table().table();
        if (!decoder.signature().equals(fieldsSent.get(table))) {
            enqueue(QueuedRecord.inTransaction(records.field(decoder, createTable(decoder),
                    committed, ts)));
            fieldsSent.put(table, decoder.signature());
        }
    }

    private void commit(long ts) {
        if (!txnOpen || txnGtid == null) {
            return;
        }
        committed = committed.withGtid(committed.gtid().advance(txnGtid));
        if (pendingJournal != null) {
            io.vstream.connect.core.reshard.Journal j = pendingJournal;
            pendingJournal = null;
            if (txnBegun) {
                enqueue(QueuedRecord.boundary(records.commit(txnGtid, committed, txnEvents, ts)));
            }
            endTransaction();
            endAtJournal(j, false, ts);
            return;
        }
        if (txnBegun) {
            enqueue(QueuedRecord.boundary(records.commit(txnGtid, committed, txnEvents, ts)));
            metrics.transaction(ts);
        } else {
            positionUntold = true;
            maybeHeartbeat(ts);
        }
        endTransaction();
        checkTarget();
    }

    private void endTransaction() {
        txnOpen = false;
        txnBegun = false;
        txnGtid = null;
        txnEvents = 0;
    }

    private void abortOpenTransaction() {
        if (openSinceBoundary) {
            enqueue(QueuedRecord.abortMarker());
            fieldsSent.clear(); // an aborted FIELD may never reach a read_committed consumer: send it again
        }
        endTransaction();
    }

    /**
     * A HEARTBEAT with the committed position when nothing was enqueued for a heartbeat interval: the applier's
     * state then shows it has everything the source read up to now, also while the copy waits on a throttle (the
     * coordinator's applier lag is the age of the last record applied, so without it a throttle never lifts). Its
     * time is that of the binlog event read last ({@code ts}), so a source reading an old backlog looks behind; 0
     * (the server's own heartbeat events, or no event) means now.
     */
    private void maybeHeartbeat(long ts) {
        maybeHeartbeat(ts, false);
    }

    /**
     * As {@link #maybeHeartbeat(long)}; and at once when the server says its binlog is idle ({@code idle}: its
     * heartbeat event, sent after {@link #serverHeartbeat} without events) while transactions the stream skipped
     * have moved the position past what the applier was told. A cut-over's barrier waits for exactly that: the
     * position read under its locks usually ends with transactions of other tables (the coordinator's own), and the
     * application's writes are blocked until the applier holds it. At most one such record per idle spell.
     */
    private void maybeHeartbeat(long ts, boolean idle) {
        if (committed == null) {
            return;
        }
        if (idle && positionUntold
                || System.nanoTime() - lastEnqueueNanos >= settings.heartbeatInterval().toNanos()) {
            enqueue(QueuedRecord.boundary(records.position(io.vstream.connect.core.event.EventType.HEARTBEAT,
                    committed, ts > 0 ? ts : System.currentTimeMillis())));
        }
    }

    /**
     * How long the binlog must stay idle before the server sends its heartbeat event: an eighth of the heartbeat
     * interval, between 20 and 100 ms (an idle server then sends a few dozen bytes some 10-50 times a second).
     */
    static Duration serverHeartbeat(Duration heartbeatInterval) {
        return Duration.ofMillis(Math.max(20, Math.min(100, heartbeatInterval.toMillis() / 8)));
    }

    private void enqueue(QueuedRecord r) {
        try {
            while (running) {
                if (queue.offer(r, 200, TimeUnit.MILLISECONDS)) {
                    lastEnqueueNanos = System.nanoTime();
                    if (r.boundary() && !r.abort()) {
                        positionUntold = false;
                    }
                    openSinceBoundary = !r.boundary();
                    return;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            running = false;
        }
    }

    private void disconnectQuietly() {
        BinaryLogClient c = client;
        if (c != null && c.isConnected()) {
            try {
                c.disconnect();
            } catch (Exception e) {
                LOG.debug("Shard {}: disconnect failed", shard.name(), e);
            }
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** A failure that retrying cannot fix; its message is the operator's. */
    static final class FatalStreamException extends Exception {
        FatalStreamException(String message) {
            super(message);
        }

        FatalStreamException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
