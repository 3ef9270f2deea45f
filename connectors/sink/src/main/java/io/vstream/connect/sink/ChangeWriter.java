package io.vstream.connect.sink;

import io.vstream.connect.core.error.ErrorClassifier;
import io.vstream.connect.core.event.CopyRows;
import io.vstream.connect.core.event.EventHeaders;
import io.vstream.connect.core.event.RowEnvelope;
import io.vstream.connect.core.position.LastPk;
import io.vstream.connect.core.position.OffsetCodec;
import io.vstream.connect.sink.PartitionApplier.RowScope;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * Writes what one record of a partition's log carries into the target's tables, as the applier's {@link
 * EventSequence} decided: a row change by key, copy rows into the open {@link CopyChunk}, a closed chunk over its key
 * range (in a reshard's merge only the rows this log owns, {@link RowOwnership}). In serial mode (finding a poison
 * record) each row goes alone, and a row the target refuses is named by table and key, or sent to the dead letter
 * queue. Holds the {@link RowWriter} of the applier's transaction and counts what it wrote. Touches the target through
 * the applier's connection, and looks tables up through {@link TargetTables}.
 */
final class ChangeWriter {
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

    private final String topic;
    private final int partition;
    private final SinkSettings settings;
    private final TargetTables tables;
    private final GhostTarget ghost; // ghost mode's table and plan; null in the other modes
    private RowOwnership ownership; // reshard into a new shard wider than this log's old shard
    private RowWriter writer;
    private boolean serial;
    private volatile long rowsApplied;
    private volatile long statementsBefore; // written by the writers this one replaced (reconnects, serial mode)
    private volatile long rowsSentBefore;

    ChangeWriter(String topic, int partition, SinkSettings settings, TargetTables tables, GhostTarget ghost) {
        this.topic = topic;
        this.partition = partition;
        this.settings = settings;
        this.tables = tables;
        this.ghost = ghost;
    }

    /** Writes through {@code conn} from here on (one row at a time in serial mode). */
    void open(Connection conn) {
        retireWriter();
        writer = new RowWriter(conn, serial ? 1 : settings.batchMaxRows());
    }

    /** Leaves serial mode: the rows after the transaction that was committed alone go in batches again. */
    void endSerial(Connection conn) {
        serial = false;
        retireWriter();
        writer = new RowWriter(conn, settings.batchMaxRows());
    }

    void serialMode(boolean on) {
        serial = on;
    }

    boolean serial() {
        return serial;
    }

    void ownRowsOnly(RowOwnership ownership) {
        this.ownership = ownership;
    }

    /** Sends what is batched. */
    void flush() throws SQLException {
        writer.flush();
    }

    /** Drops what is batched (after a rollback). */
    void discard() {
        if (writer != null) {
            writer.discard();
        }
    }

    /**
     * A ROW record: a copy row joins {@code chunk}; a change is written unless {@code skip} (its transaction is one
     * the target holds). Returns whether a row change was written.
     */
    boolean row(SinkRecord record, Struct envelope, Applier.PoisonHandler poison, RowScope scope, CopyChunk chunk,
                boolean skip) throws SQLException {
        String sourceTable = RecordHeaders.header(record, EventHeaders.TABLE);
        if (ghost != null && !ghost.writes(sourceTable)) {
            return false; // ghost mode applies one table
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
            return false;
        }
        if (scope == RowScope.NONE) {
            return false; // another target's row
        }
        Struct source = envelope.getStruct("source");
        TargetTable t = target(record, sourceTable, source.getString("db"), source.getString("keyspace"));
        Struct before = t.names().apply(envelope.getStruct("before"));
        Struct after = t.names().apply(envelope.getStruct("after"));
        if ("r".equals(op)) {
            chunk.add(sourceTable, after, record);
            return false;
        }
        if (skip) {
            return false;
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
            return false;
        }
        rowsApplied++;
        return true;
    }

    /**
     * Copy rows that came together in one ROWS record: each joins the open chunk as a ROW record with op {@code r}
     * would. A scope that takes no new image (another new shard's rows, in a reshard) only marks the chunk as spanning
     * the table.
     */
    void copyRows(SinkRecord record, Struct value, RowScope scope, CopyChunk chunk) throws SQLException {
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
     * A LASTPK record closes {@code chunk}: its rows replace the chunk's key range (from, lastpk] of the table, and
     * {@code progress} counts them.
     */
    void writeChunk(SinkRecord record, Struct value, Applier.PoisonHandler poison, CopyChunk chunk,
                    CopyProgress progress) throws SQLException {
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
            return;
        }
        LastPk from = parse(value.getString("from"));
        boolean completed = value.getBoolean("completed");
        LastPk to = completed ? null : parse(value.getString("lastpk"));
        LastPk shape = from != null ? from : to;
        List<String> key = shape != null ? shape.columns() : t.keyColumns().stream().map(t::sourceName).toList();
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
        progress.copied(rows.size(), replaced);
        writer.forgetInvalidCells(); // rows of other new shards (a split) were not written here
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
     * A statement failed. Outside serial mode, or for a retriable error, the caller handles it; in serial mode the
     * failing record is known: it goes to the dead letter queue when one is configured, else the task stops naming
     * the table, the key and the SQL error.
     */
    private void poison(SinkRecord record, String op, String sourceTable, TargetTable t, SQLException e,
                        Applier.PoisonHandler poison, String key) throws SQLException {
        if (!serial || ErrorClassifier.isRetriable(e)) {
            throw e;
        }
        String what = "Cannot apply the " + RowEnvelope.Op.describe(op) + " of table " + sourceTable + " to "
                + t.qualified() + " (key " + key + ", " + topic + "-" + partition + "@" + record.kafkaOffset() + "): "
                + e.getMessage();
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

    private static LastPk parse(String json) {
        if (json == null) {
            return null;
        }
        return OffsetCodec.copyStateFromJson(json).get(0).lastPk();
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

    long rowsApplied() {
        return rowsApplied;
    }

    /** Round trips that wrote rows (multi-row INSERTs, JDBC batches), for the batch size metric. */
    long writeStatements() {
        RowWriter w = writer;
        return statementsBefore + (w == null ? 0 : w.statementsSent());
    }

    /** The rows those round trips carried. */
    long writeRows() {
        RowWriter w = writer;
        return rowsSentBefore + (w == null ? 0 : w.rowsSent());
    }

    private void retireWriter() {
        if (writer != null) {
            statementsBefore += writer.statementsSent();
            rowsSentBefore += writer.rowsSent();
        }
    }
}
