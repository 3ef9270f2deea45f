package io.vstream.connect.source;

import io.vstream.connect.core.event.CopyRows;
import io.vstream.connect.core.position.GtidPosition;
import io.vstream.connect.core.position.LastPk;
import io.vstream.connect.core.position.ShardGtid;
import io.vstream.connect.core.position.TableLastPk;
import io.vstream.connect.jdbc.ConsistentSnapshot;
import io.vstream.connect.core.sql.SqlIdentifiers;
import io.vstream.connect.core.topology.ShardAddress;
import java.io.Serializable;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Struct;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The copy phase of one shard, the VStream way: in cycles, catch the binlog up, open a consistent snapshot and
 * learn its exact GTID position S, fast-forward the binlog exactly to S, then copy the rows after each table's last
 * copied key from the snapshot, in key order and in bounded chunks, recording the last key in the offset after each
 * chunk. A cycle ends when the copy is done or after {@code copy.cycle.max.ms}, so no snapshot is held for long. A
 * restart resumes from the stored last key, never from the start of a table.
 */
final class CopyPhase {
    private static final Logger LOG = LoggerFactory.getLogger(CopyPhase.class);
    private static final int ER_TABLE_DEF_CHANGED = 1412;

    /** What the copy needs of the shard's stream. */
    interface Stream {
        boolean running();

        ShardGtid position();

        void position(ShardGtid next);

        /** Streams the binlog from the current position until it contains {@code target}. */
        void catchUp(GtidPosition target) throws Exception;

        void emit(QueuedRecord record);

        /**
         * Emits a HEARTBEAT at the current position if nothing was emitted for a heartbeat interval; called while
         * the copy waits, so that its consumers see the source is alive and where it is.
         */
        void heartbeat();

        /** Emits a FIELD record first if the table's columns differ from the last FIELD sent. */
        void fieldIfChanged(TableDecoder decoder, long tsMs);

        Connection connect() throws SQLException;

        GtidPosition currentServerPosition() throws SQLException;
    }

    private final ShardAddress shard;
    private final StreamSettings settings;
    private final CopySettings copy;
    private final RecordFactory records;
    private final Charsets charsets;
    private final io.vstream.connect.core.position.Flavor flavor;
    private final Stream stream;
    private final ReplicaLagThrottler throttler;
    private final CopyThrottle coordinatorThrottle;
    private final StreamMetrics metrics;
    private final Map<String, CopyProgress> progress = new HashMap<>();
    private int chunkRows = CopySettings.FIRST_CHUNK_ROWS;

    CopyPhase(ShardAddress shard, StreamSettings settings, CopySettings copy, RecordFactory records, Charsets charsets,
              io.vstream.connect.core.position.Flavor flavor, Stream stream, StreamMetrics metrics) {
        this.shard = shard;
        this.settings = settings;
        this.copy = copy;
        this.records = records;
        this.charsets = charsets;
        this.flavor = flavor;
        this.stream = stream;
        this.metrics = metrics;
        this.throttler = new ReplicaLagThrottler(shard.name(), copy.throttleReplicas(), copy.maxReplicaLag(),
                settings.user(), settings.password(), settings.tls());
        this.coordinatorThrottle = new CopyThrottle(shard.name(), copy.throttleStateDatabase(), settings.database());
    }

    /**
     * The tables to copy on a fresh start, checked before anything is copied: each must have a usable key, or be
     * skipped (streamed without its existing rows) when configured so.
     */
    static List<TableLastPk> plan(Connection conn, ShardAddress shard, StreamSettings settings, CopySettings copy,
                                  io.vstream.connect.core.position.Flavor flavor) throws SQLException {
        TableInspector inspector = new TableInspector(conn, settings.database(), flavor);
        List<TableLastPk> tables = new ArrayList<>();
        for (String t : inspector.tables()) {
            if (!settings.filter().includesTable(t) || !copy.tables().includesTable(t)) {
                continue;
            }
            try {
                if (inspector.inspect(t).isPresent()) {
                    tables.add(TableLastPk.notStarted(t));
                }
            } catch (TableInspector.UncopyableTableException e) {
                if (!copy.skipKeylessTables()) {
                    throw e;
                }
                LOG.warn("Shard {}: not copying {} (copy.keyless.tables=skip): {}", shard.name(), t, e.getMessage());
            }
        }
        LOG.info("Shard {}: copy planned for {} table(s): {}", shard.name(), tables.size(),
                tables.stream().map(TableLastPk::table).toList());
        return tables;
    }

    /** One cycle: catch up, snapshot, fast-forward, copy until done or the cycle's time is up. */
    void runCycle() throws Exception {
        stream.catchUp(stream.currentServerPosition());
        String first = stream.position().tablePks().get(0).table();
        try (Connection conn = stream.connect()) {
            TableInspector inspector = new TableInspector(conn, settings.database(), flavor);
            try (ConsistentSnapshot snap = ConsistentSnapshot.open(conn, flavor,
                    SqlIdentifiers.qualify(settings.database(), first))) {
                stream.catchUp(snap.position());
                if (!snap.position().contains(stream.position().gtid())) {
                    throw new IllegalStateException("Shard " + shard.name() + ": the binlog went past the copy"
                            + " snapshot " + snap.position() + " (at " + stream.position().gtidText() + ")");
                }
                long deadline = System.nanoTime() + copy.cycleMax().toNanos();
                while (stream.running() && stream.position().isCopying() && System.nanoTime() < deadline) {
                    TableLastPk next = stream.position().tablePks().get(0);
                    CopyTable table = inspect(inspector, next);
                    copyTable(snap.connection(), table, next.lastPk(), deadline);
                }
            }
        } catch (SQLException e) {
            if (e.getErrorCode() != ER_TABLE_DEF_CHANGED) {
                throw e;
            }
            LOG.info("Shard {}: a table changed during the copy snapshot; starting a new cycle", shard.name());
        }
        if (!stream.position().isCopying() && stream.running()) {
            stream.emit(QueuedRecord.boundary(records.copyCompleted(stream.position(), System.currentTimeMillis())));
            LOG.info("Shard {}: copy completed at {}; streaming the binlog", shard.name(),
                    stream.position().gtidText());
        }
    }

    private CopyTable inspect(TableInspector inspector, TableLastPk entry) throws SQLException {
        CopyTable table = inspector.inspect(entry.table()).orElseThrow(() -> new CopyCannotContinueException(
                shard.name(), entry.table(), "the table no longer exists"));
        if (entry.lastPk() != null && !sameColumns(entry.lastPk().columns(), table.keyColumns())) {
            throw new CopyCannotContinueException(shard.name(), entry.table(), "its copy key changed from "
                    + entry.lastPk().columns() + " to " + table.keyColumns());
        }
        return table;
    }

    private static boolean sameColumns(List<String> a, List<String> b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (int i = 0; i < a.size(); i++) {
            if (!a.get(i).equalsIgnoreCase(b.get(i))) {
                return false;
            }
        }
        return true;
    }

    private void copyTable(Connection conn, CopyTable table, LastPk from, long deadline) throws Exception {
        try (Connection fresh = stream.connect()) {
            copyTable(conn, fresh, table, from, deadline);
        }
    }

    private void copyTable(Connection conn, Connection fresh, CopyTable table, LastPk from, long deadline)
            throws Exception {
        List<BinlogColumn> columns = new ArrayList<>();
        for (int i = 0; i < table.columns().size(); i++) {
            SourceColumn c = table.columns().get(i);
            boolean key = table.keyIsPrimary() && table.keyColumns().stream().anyMatch(k -> k.equalsIgnoreCase(c.name()));
            columns.add(c.toBinlogColumn(i, key));
        }
        TableDecoder decoder = TableDecoder.of(table.database(), table.name(), columns, settings.filter(), charsets,
                settings.topicPrefix(), settings.keyspace(), settings.avroFieldNames(),
                ColumnDefaults.read(conn, table.database(), table.name(), flavor));
        ChunkQuery query = new ChunkQuery(table, table.columns());
        CopyProgress p = progress.computeIfAbsent(table.name(),
                t -> new CopyProgress(shard.name(), t, table.estimatedRows()));
        LastPk last = from;
        // rows of one chunk gathered into ROWS records (copy.rows.per.record > 1), else one ROW record per row
        CopyRowPack pack = copy.rowsPerRecord() > 1 ? new CopyRowPack(copy.rowsPerRecord(),
                records.copyRowsMaxBytes(), CopyRows.rowSchema(decoder.rowsSchema())) : null;
        while (stream.running() && System.nanoTime() < deadline) {
            throttler.await(stream::running, stream::heartbeat);
            coordinatorThrottle.await(fresh, stream::running, stream::heartbeat);
            long t0 = System.nanoTime();
            int n = 0;
            LastPk lastKey = last;
            ShardGtid before = stream.position();
            long ts = System.currentTimeMillis();
            // the FIELD comes before the first chunk even when the table is empty: a consumer that creates tables
            // (clone, reshard) creates this one too, before any change of it arrives
            stream.fieldIfChanged(decoder, ts);
            try (PreparedStatement ps = query.prepare(conn, last, chunkRows); ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    Serializable[] raw = new Serializable[columns.size()];
                    for (int i = 0; i < raw.length; i++) {
                        raw[i] = JdbcCells.read(rs, i + 1, columns.get(i));
                    }
                    Struct after = decoder.row(raw);
                    List<InvalidCell> invalid = decoder.invalidCells(raw);
                    if (pack != null && invalid == null) {
                        long valueBytes = RecordSizeLimit.lowerBound(after);
                        records.checkCopyRow(decoder, valueBytes);
                        long bytes = pack.bytesOf(valueBytes);
                        if (!pack.fits(bytes)) {
                            emitRows(decoder, pack, ts, before);
                        }
                        pack.add(after, bytes);
                    } else {
                        if (pack != null && !pack.isEmpty()) { // a row with marked cells travels alone, in order
                            emitRows(decoder, pack, ts, before);
                        }
                        stream.emit(QueuedRecord.inTransaction(records.copyRow(decoder, after, ts, before, invalid)));
                    }
                    lastKey = query.keyOf(rs);
                    n++;
                }
            }
            if (pack != null && !pack.isEmpty()) {
                emitRows(decoder, pack, ts, before);
            }
            p.add(n);
            metrics.copied(table.name(), n, p.estimated());
            boolean completed = n < chunkRows;
            ShardGtid next = completed ? before.withoutTablePk(table.name())
                    : before.withTablePk(new TableLastPk(table.name(), lastKey));
            stream.position(next);
            stream.emit(QueuedRecord.boundary(records.lastPk(table.name(), last, completed ? null : lastKey,
                    completed, next, p.rows(), ts)));
            if (completed) {
                p.done();
                return;
            }
            last = lastKey;
            adapt(n, System.nanoTime() - t0);
            pace(n, System.nanoTime() - t0);
        }
    }

    /** The rows gathered in {@code pack} as one ROWS record (the pack is empty afterwards). */
    private void emitRows(TableDecoder decoder, CopyRowPack pack, long ts, ShardGtid before) {
        stream.emit(QueuedRecord.inTransaction(records.copyRows(decoder, pack.drain(), ts, before)));
    }

    /** Sizes the next chunk so that it takes about {@code copy.chunk.target.ms}. */
    private void adapt(int rows, long nanos) {
        double perRow = Math.max(1, nanos) / (double) rows;
        long target = (long) (copy.chunkTarget().toNanos() / perRow);
        long bounded = Math.max(CopySettings.MIN_CHUNK_ROWS, Math.min(copy.chunkMaxRows(), target));
        chunkRows = (int) Math.min(bounded, chunkRows * 2L); // grow at most twofold per chunk
    }

    private void pace(int rows, long nanos) throws InterruptedException {
        if (copy.maxRowsPerSecond() <= 0) {
            return;
        }
        long minNanos = rows * 1_000_000_000L / copy.maxRowsPerSecond();
        if (minNanos > nanos) {
            Thread.sleep((minNanos - nanos) / 1_000_000);
        }
    }

    /** A copy that cannot go on from its stored state; the message names the table and the recovery. */
    static final class CopyCannotContinueException extends org.apache.kafka.connect.errors.ConnectException {
        CopyCannotContinueException(String shard, String table, String reason) {
            super("Shard " + shard + ": the copy of table " + table + " cannot continue: " + reason + ". Recover by"
                    + " copying the shard again: stop the connector, delete the shard's offset"
                    + " (PATCH /connectors/<name>/offsets with offset null for its partition) and resume it");
        }
    }
}
