package io.vstream.connect.source;

import io.vstream.connect.core.event.ControlEvents;
import io.vstream.connect.core.event.CopyRows;
import io.vstream.connect.core.event.EventHeaders;
import io.vstream.connect.core.event.EventType;
import io.vstream.connect.core.event.RowEnvelope;
import io.vstream.connect.core.event.SourceInfo;
import io.vstream.connect.core.event.TopicNames;
import io.vstream.connect.core.position.OffsetCodec;
import io.vstream.connect.core.position.LastPk;
import io.vstream.connect.core.position.ShardGtid;
import io.vstream.connect.core.position.TableLastPk;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.header.ConnectHeaders;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * Builds the records of one shard's log: its topic (one partition), its source partition {keyspace, shard}, the
 * offset each record carries, and the headers that name the event type, keyspace, shard, table and epoch.
 */
final class RecordFactory {
    private final String connectorName;
    private final String keyspace;
    private final String shard;
    private final String topic;
    private final Map<String, String> partition;
    private final long epoch;
    private final RecordSizeLimit sizeLimit;
    private ShardGtid lastOffsetOf;
    private Map<String, Object> lastOffset;

    RecordFactory(String connectorName, String topicPrefix, String keyspace, String shard, long epoch,
                  RecordSizeLimit sizeLimit) {
        this.sizeLimit = sizeLimit;
        this.connectorName = connectorName;
        this.keyspace = keyspace;
        this.shard = shard;
        this.topic = TopicNames.shardTopic(topicPrefix, keyspace, shard);
        this.partition = OffsetCodec.partition(keyspace, shard);
        this.epoch = epoch;
    }

    /**
     * The offset map of a position. Every record of a transaction carries the same position object, so the map is
     * built once per position rather than once per record (it is immutable).
     */
    private Map<String, Object> offsetMap(ShardGtid at) {
        if (at != lastOffsetOf) {
            lastOffset = OffsetCodec.offset(at);
            lastOffsetOf = at;
        }
        return lastOffset;
    }

    String topic() {
        return topic;
    }

    Map<String, String> partition() {
        return partition;
    }

    SourceRecord field(TableDecoder table, String createTable, ShardGtid offset, long tsMs) {
        return control(EventType.FIELD, table.table().table(), ControlEvents.FIELD,
                ControlEvents.field(keyspace, shard, table.table(), createTable,
                        table.envelopeSchema().field(RowEnvelope.AFTER).schema(), tsMs), offset, tsMs);
    }

    SourceRecord begin(String gtid, ShardGtid offset, long tsMs) {
        return control(EventType.BEGIN, null, ControlEvents.BEGIN,
                ControlEvents.begin(keyspace, shard, gtid, tsMs, epoch), offset, tsMs);
    }

    SourceRecord commit(String gtid, ShardGtid after, long eventCount, long tsMs) {
        return control(EventType.COMMIT, null, ControlEvents.COMMIT,
                ControlEvents.commit(keyspace, shard, gtid, after.gtidText(), eventCount, tsMs, epoch), after, tsMs);
    }

    SourceRecord ddl(String database, String statement, String gtid, ShardGtid after, long tsMs) {
        return control(EventType.DDL, null, ControlEvents.DDL,
                ControlEvents.ddl(keyspace, shard, database, statement, gtid, after.gtidText(), tsMs), after, tsMs);
    }

    SourceRecord position(EventType type, ShardGtid at, long tsMs) {
        return control(type, null, ControlEvents.POSITION,
                ControlEvents.position(keyspace, shard, at.gtidText(),
                        at.isCopying() ? OffsetCodec.copyStateJson(at.tablePks()) : null, tsMs, epoch), at, tsMs);
    }

    /** A copy row: only an {@code after} image, op {@code r}, {@code source.snapshot = "true"}. */
    SourceRecord copyRow(TableDecoder table, Struct after, long tsMs, ShardGtid offset, List<InvalidCell> invalid) {
        return row(table, null, after, RowEnvelope.Op.READ, null, 0L, tsMs, 0, 0L, offset, invalid);
    }

    /**
     * Copy rows of one table, consecutive in one chunk, as one ROWS record ({@link CopyRows}): the offset and the
     * headers of a copy row, and a {@link EventHeaders#ROWS} header with their number. Each row's size was checked
     * ({@link #checkCopyRow}).
     */
    SourceRecord copyRows(TableDecoder table, List<Struct> rows, long tsMs, ShardGtid offset) {
        Struct value = CopyRows.value(table.rowsSchema(), keyspace, shard, table.table().database(),
                table.table().table(), rows, tsMs);
        ConnectHeaders headers = headers(EventType.ROWS, table.table().table());
        headers.addInt(EventHeaders.ROWS, rows.size());
        return new SourceRecord(partition, offsetMap(offset), topic, 0, null, null, table.rowsSchema(), value, tsMs,
                headers);
    }

    /** Stops a copy row that no record could carry ({@link RecordSizeLimit}); {@code bytes}: its lower bound. */
    void checkCopyRow(TableDecoder table, long bytes) {
        sizeLimit.check(shard, table.table().table(), null, bytes);
    }

    /**
     * The most bytes (as {@link RecordSizeLimit#lowerBound} counts them, plus the field names) the rows of one ROWS
     * record may hold: a quarter of what the producer may send, which leaves room for what a converter adds (JSON's
     * quoting and punctuation, base64 of binary values).
     */
    long copyRowsMaxBytes() {
        return Math.max(1, sizeLimit.maxBytes() / 4);
    }

    /**
     * Copy progress of a table: the copy rows since its previous LASTPK are exactly its rows with a key in
     * ({@code from}, {@code to}] ({@code null}: the table's start, or no upper bound when {@code completed}); the
     * record stores the new copy state {@code after} as the offset.
     */
    SourceRecord lastPk(String table, LastPk from, LastPk to, boolean completed, ShardGtid after, long rowsCopied,
                        long tsMs) {
        return control(EventType.LASTPK, table, ControlEvents.LASTPK, ControlEvents.lastPk(keyspace, shard, table,
                json(table, from), json(table, to), completed, rowsCopied, tsMs), after, tsMs);
    }

    private static String json(String table, LastPk key) {
        return key == null ? null : OffsetCodec.copyStateJson(List.of(new TableLastPk(table, key)));
    }

    /** The shard's copy phase has completed; streaming goes on from the offset's position. */
    SourceRecord copyCompleted(ShardGtid at, long tsMs) {
        return control(EventType.COPY_COMPLETED, null, ControlEvents.COPY_COMPLETED,
                ControlEvents.copyCompleted(keyspace, shard, at.gtidText(), tsMs), at, tsMs);
    }

    /**
     * The shard's stream ends at a reshard journal: the record's offset is the position after the journal's transaction
     * marked with the journal ({@link JournalMarks}), so a restart knows the shard is done; {@code fallback} says that
     * the stream could not reach the journal (the new shards are copied instead).
     */
    SourceRecord journal(io.vstream.connect.core.reshard.Journal journal, ShardGtid at, boolean fallback, long tsMs) {
        Map<String, Object> offset = new java.util.LinkedHashMap<>(OffsetCodec.offset(at));
        JournalMarks.mark(offset, journal, fallback);
        return new SourceRecord(partition, offset, topic, 0, null, null, ControlEvents.JOURNAL,
                ControlEvents.journal(keyspace, shard, journal.id(), journal.toJson(), tsMs), tsMs,
                headers(EventType.JOURNAL, null));
    }

    /**
     * One ROW record.
     *
     * @param order the event's 1-based order in its transaction
     * @param invalid the {@code after} image's cells its values cannot carry ({@link TableDecoder#invalidCells}), or
     *                null
     */
    SourceRecord row(TableDecoder table, Struct before, Struct after, RowEnvelope.Op op, String gtid, long serverId,
                     long tsMs, int rowIndex, long order, ShardGtid offset, List<InvalidCell> invalid) {
        sizeLimit.check(shard, table.table().table(), gtid, before, after);
        SourceInfo source = new SourceInfo(connectorName, keyspace, shard, table.table().database(),
                table.table().table(), gtid, serverId, tsMs, op == RowEnvelope.Op.READ ? "true" : "false", rowIndex,
                epoch);
        Struct txn = gtid == null ? null : RowEnvelope.transaction(shard + ":" + gtid, order, order);
        Struct value = RowEnvelope.value(table.envelopeSchema(), before, after, source, op, System.currentTimeMillis(),
                txn);
        Struct key = table.key(after != null ? after : before);
        ConnectHeaders headers = headers(EventType.ROW, table.table().table());
        if (invalid != null && after != null) {
            for (InvalidCell cell : invalid) {
                headers.addString(cell.header(), cell.value());
            }
        }
        return new SourceRecord(partition, offsetMap(offset), topic, 0, table.keySchema(), key,
                table.envelopeSchema(), value, tsMs, headers);
    }

    private SourceRecord control(EventType type, String table, Schema schema, Struct value, ShardGtid offset,
                                 long tsMs) {
        return new SourceRecord(partition, offsetMap(offset), topic, 0, null, null, schema, value, tsMs,
                headers(type, table));
    }

    private ConnectHeaders headers(EventType type, String table) {
        ConnectHeaders h = new ConnectHeaders();
        h.addString(EventHeaders.EVENT, type.headerValue());
        h.addString(EventHeaders.KEYSPACE, keyspace);
        h.addString(EventHeaders.SHARD, shard);
        if (table != null) {
            h.addString(EventHeaders.TABLE, table);
        }
        h.addLong(EventHeaders.EPOCH, epoch);
        return h;
    }
}
