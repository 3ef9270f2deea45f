package io.vstream.connect.source;

import com.github.shyiko.mysql.binlog.event.DeleteRowsEventData;
import com.github.shyiko.mysql.binlog.event.EventType;
import com.github.shyiko.mysql.binlog.event.TableMapEventData;
import com.github.shyiko.mysql.binlog.event.UpdateRowsEventData;
import com.github.shyiko.mysql.binlog.event.WriteRowsEventData;
import com.github.shyiko.mysql.binlog.event.deserialization.AbstractRowsEventDataDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.ColumnType;
import com.github.shyiko.mysql.binlog.event.deserialization.DeleteRowsEventDataDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDataDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.EventHeaderV4Deserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.NullEventDataDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.UpdateRowsEventDataDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.WriteRowsEventDataDeserializer;
import com.github.shyiko.mysql.binlog.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.Serializable;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Configures how the binlog client turns row images into Java values before {@link ColumnConverter} maps them to
 * Connect values: CHAR/BINARY as bytes (decoded later with the column's charset), and every temporal cell and YEAR
 * read exactly by {@link TemporalCells} (the client's own decoding loses a negative TIME's sign, uses the Julian
 * calendar before 1582 and reads YEAR 0000 as 1900). Touches no server.
 *
 * <p>The client's row deserializers read the TABLE_MAP events it keeps by table id; ours share that map, which the
 * {@link EventDeserializer} fills, by building the deserializer around a map we own. They decode only the rows of the
 * tables the caller streams: a row event of any other table (the ghost an online ALTER fills on the shard, say, or
 * other databases) yields its header and no rows, its bytes skipped unread, so a busy table we do not stream costs
 * the stream next to nothing.
 */
final class BinlogDeserializers {
    /** As many table ids as the client itself remembers. */
    static final int TABLE_MAP_CACHE_SIZE = 10_000;

    private BinlogDeserializers() {
    }

    /** A deserializer that decodes the rows of every table. */
    static EventDeserializer create() {
        return create(tm -> true);
    }

    /** A deserializer that decodes the rows of the tables {@code decodes} accepts (by their TABLE_MAP) only. */
    static EventDeserializer create(Predicate<TableMapEventData> decodes) {
        Map<Long, TableMapEventData> tableMaps = new TableMapCache(TABLE_MAP_CACHE_SIZE);
        Map<EventType, EventDataDeserializer> byType = new EnumMap<>(EventType.class);
        Map<EventType, EventDataDeserializer<?>> defaults = libraryDefaults();
        Predicate<Long> decodesTable = id -> {
            TableMapEventData tm = tableMaps.get(id);
            return tm == null || decodes.test(tm);
        };
        for (EventType type : EventType.values()) {
            EventDataDeserializer ours = rowsDeserializer(type, tableMaps, decodesTable);
            EventDataDeserializer theirs = defaults.getOrDefault(type, new NullEventDataDeserializer());
            if (ours != null) {
                byType.put(type, ours);
            } else if (type == EventType.TRANSACTION_PAYLOAD) {
                byType.put(type, new CompressedTransaction()); // refused by the streamer, never decompressed
            } else if (type == EventType.TABLE_MAP) {
                @SuppressWarnings("unchecked")
                EventDataDeserializer<com.github.shyiko.mysql.binlog.event.TableMapEventData> client = theirs;
                byType.put(type, new TableMapStrings(client)); // names and members as the server wrote them
            } else if (theirs instanceof AbstractRowsEventDataDeserializer<?>) {
                // a row event type we do not know would be read with the client's lossy decoding, against a table
                // map nobody fills: refuse rather than decode it wrongly
                throw new IllegalStateException("The binlog client decodes " + type + " events with "
                        + theirs.getClass().getName() + ", which " + BinlogDeserializers.class.getSimpleName()
                        + " does not replace; extend it before using this client version");
            } else if (!(theirs instanceof NullEventDataDeserializer)) {
                byType.put(type, theirs);
            }
        }
        EventDeserializer deserializer = new EventDeserializer(new EventHeaderV4Deserializer(),
                new NullEventDataDeserializer(), byType, tableMaps);
        deserializer.setCompatibilityMode(EventDeserializer.CompatibilityMode.CHAR_AND_BINARY_AS_BYTE_ARRAY);
        return deserializer;
    }

    /**
     * The binlog client's own deserializers of the event types it decodes (its {@code EventDeserializer}'s defaults,
     * which {@code BinlogDeserializersTest} compares this list with), but for TRANSACTION_PAYLOAD: the client's would
     * need the zstd library merely to be created, and compressed transactions are refused unread
     * ({@link CompressedTransaction}), so the library is not shipped.
     */
    static Map<EventType, EventDataDeserializer<?>> libraryDefaults() {
        Map<EventType, EventDataDeserializer<?>> m = new EnumMap<>(EventType.class);
        m.put(EventType.FORMAT_DESCRIPTION, new com.github.shyiko.mysql.binlog.event.deserialization
                .FormatDescriptionEventDataDeserializer());
        m.put(EventType.ROTATE, new com.github.shyiko.mysql.binlog.event.deserialization.RotateEventDataDeserializer());
        m.put(EventType.INTVAR, new com.github.shyiko.mysql.binlog.event.deserialization.IntVarEventDataDeserializer());
        m.put(EventType.QUERY, new com.github.shyiko.mysql.binlog.event.deserialization.QueryEventDataDeserializer());
        m.put(EventType.TABLE_MAP, new com.github.shyiko.mysql.binlog.event.deserialization
                .TableMapEventDataDeserializer());
        m.put(EventType.XID, new com.github.shyiko.mysql.binlog.event.deserialization.XidEventDataDeserializer());
        m.put(EventType.ROWS_QUERY, new com.github.shyiko.mysql.binlog.event.deserialization
                .RowsQueryEventDataDeserializer());
        m.put(EventType.GTID, new com.github.shyiko.mysql.binlog.event.deserialization.GtidEventDataDeserializer());
        m.put(EventType.GTID_TAGGED, new com.github.shyiko.mysql.binlog.event.deserialization
                .GtidTaggedEventDataDeserializer());
        m.put(EventType.PREVIOUS_GTIDS, new com.github.shyiko.mysql.binlog.event.deserialization
                .PreviousGtidSetDeserializer());
        m.put(EventType.XA_PREPARE, new com.github.shyiko.mysql.binlog.event.deserialization
                .XAPrepareEventDataDeserializer());
        m.put(EventType.ANNOTATE_ROWS, new com.github.shyiko.mysql.binlog.event.deserialization
                .AnnotateRowsEventDataDeserializer());
        m.put(EventType.MARIADB_GTID, new com.github.shyiko.mysql.binlog.event.deserialization
                .MariadbGtidEventDataDeserializer());
        m.put(EventType.BINLOG_CHECKPOINT, new com.github.shyiko.mysql.binlog.event.deserialization
                .BinlogCheckpointEventDataDeserializer());
        m.put(EventType.MARIADB_GTID_LIST, new com.github.shyiko.mysql.binlog.event.deserialization
                .MariadbGtidListEventDataDeserializer());
        return m;
    }

    /** Our deserializer of a row event type, or {@code null} when the type carries no rows. */
    private static EventDataDeserializer rowsDeserializer(EventType type, Map<Long, TableMapEventData> tableMaps,
                                                          Predicate<Long> decodes) {
        return switch (type) {
            case WRITE_ROWS -> new WriteRows(tableMaps, decodes, false);
            case UPDATE_ROWS -> new UpdateRows(tableMaps, decodes, false);
            case DELETE_ROWS -> new DeleteRows(tableMaps, decodes, false);
            case EXT_WRITE_ROWS -> new WriteRows(tableMaps, decodes, true);
            case EXT_UPDATE_ROWS -> new UpdateRows(tableMaps, decodes, true);
            case EXT_DELETE_ROWS -> new DeleteRows(tableMaps, decodes, true);
            default -> null;
        };
    }

    /**
     * Reads a row event's header up to its included-columns bitmap (table id, flags, the v2 events' extra data, the
     * column count): the part that comes before the rows in every row event.
     */
    private static long header(ByteArrayInputStream in, boolean extraData) throws IOException {
        long tableId = in.readLong(6);
        in.skip(2); // flags
        if (extraData) {
            int length = in.readInteger(2);
            in.skip(length - 2);
        }
        return tableId;
    }

    /** Reads one row image of the current event. */
    @FunctionalInterface
    private interface RowReader<R> {
        R read() throws IOException;
    }

    /** The event's rows, read to its end, for a table streamed; none for another table (the rest is skipped). */
    private static <R> List<R> rows(ByteArrayInputStream in, boolean decode, RowReader<R> row) throws IOException {
        List<R> rows = new ArrayList<>();
        while (decode && in.available() > 0) {
            rows.add(row.read());
        }
        return rows;
    }

    /** The client's WRITE_ROWS decoding, with exact temporal cells, for the tables streamed. */
    static final class WriteRows extends WriteRowsEventDataDeserializer {
        private final Predicate<Long> decodes;
        private final boolean extraData;

        WriteRows(Map<Long, TableMapEventData> tableMaps, Predicate<Long> decodes, boolean extraData) {
            super(tableMaps);
            this.decodes = decodes;
            this.extraData = extraData;
        }

        @Override
        public WriteRowsEventData deserialize(ByteArrayInputStream in) throws IOException {
            WriteRowsEventData d = new WriteRowsEventData();
            d.setTableId(header(in, extraData));
            d.setIncludedColumns(in.readBitSet(in.readPackedInteger(), true));
            d.setRows(rows(in, decodes.test(d.getTableId()),
                    () -> deserializeRow(d.getTableId(), d.getIncludedColumns(), in)));
            return d;
        }

        @Override
        protected Serializable deserializeCell(ColumnType type, int meta, int length, ByteArrayInputStream in)
                throws IOException {
            return TemporalCells.handles(type) ? TemporalCells.read(type, meta, in)
                    : super.deserializeCell(type, meta, length, in);
        }
    }

    /** The client's UPDATE_ROWS decoding, with exact temporal cells, for the tables streamed. */
    static final class UpdateRows extends UpdateRowsEventDataDeserializer {
        private final Predicate<Long> decodes;
        private final boolean extraData;

        UpdateRows(Map<Long, TableMapEventData> tableMaps, Predicate<Long> decodes, boolean extraData) {
            super(tableMaps);
            this.decodes = decodes;
            this.extraData = extraData;
        }

        @Override
        public UpdateRowsEventData deserialize(ByteArrayInputStream in) throws IOException {
            UpdateRowsEventData d = new UpdateRowsEventData();
            d.setTableId(header(in, extraData));
            int columns = in.readPackedInteger();
            d.setIncludedColumnsBeforeUpdate(in.readBitSet(columns, true));
            d.setIncludedColumns(in.readBitSet(columns, true));
            d.setRows(rows(in, decodes.test(d.getTableId()), () -> {
                Serializable[] before = deserializeRow(d.getTableId(), d.getIncludedColumnsBeforeUpdate(), in);
                Serializable[] after = deserializeRow(d.getTableId(), d.getIncludedColumns(), in);
                return new AbstractMap.SimpleEntry<>(before, after);
            }));
            return d;
        }

        @Override
        protected Serializable deserializeCell(ColumnType type, int meta, int length, ByteArrayInputStream in)
                throws IOException {
            return TemporalCells.handles(type) ? TemporalCells.read(type, meta, in)
                    : super.deserializeCell(type, meta, length, in);
        }
    }

    /** The client's DELETE_ROWS decoding, with exact temporal cells, for the tables streamed. */
    static final class DeleteRows extends DeleteRowsEventDataDeserializer {
        private final Predicate<Long> decodes;
        private final boolean extraData;

        DeleteRows(Map<Long, TableMapEventData> tableMaps, Predicate<Long> decodes, boolean extraData) {
            super(tableMaps);
            this.decodes = decodes;
            this.extraData = extraData;
        }

        @Override
        public DeleteRowsEventData deserialize(ByteArrayInputStream in) throws IOException {
            DeleteRowsEventData d = new DeleteRowsEventData();
            d.setTableId(header(in, extraData));
            d.setIncludedColumns(in.readBitSet(in.readPackedInteger(), true));
            d.setRows(rows(in, decodes.test(d.getTableId()),
                    () -> deserializeRow(d.getTableId(), d.getIncludedColumns(), in)));
            return d;
        }

        @Override
        protected Serializable deserializeCell(ColumnType type, int meta, int length, ByteArrayInputStream in)
                throws IOException {
            return TemporalCells.handles(type) ? TemporalCells.read(type, meta, in)
                    : super.deserializeCell(type, meta, length, in);
        }
    }

    /** The TABLE_MAP events by table id, least recently used first out. */
    private static final class TableMapCache extends LinkedHashMap<Long, TableMapEventData> {
        private final int maxSize;

        TableMapCache(int maxSize) {
            super(128, 0.75f, true);
            this.maxSize = maxSize;
        }

        @Override
        protected boolean removeEldestEntry(Map.Entry<Long, TableMapEventData> eldest) {
            return size() > maxSize;
        }
    }

    /**
     * MySQL's compressed transaction (TRANSACTION_PAYLOAD, {@code binlog_transaction_compression=ON}): its bytes are
     * skipped and no event is taken out of it, so the zstd library the client would decompress it with is not needed
     * (and not shipped). The streamer refuses the event with the setting that turns compression off; a transaction
     * inside it is never half read.
     */
    static final class CompressedTransaction
            implements EventDataDeserializer<com.github.shyiko.mysql.binlog.event.TransactionPayloadEventData> {
        @Override
        public com.github.shyiko.mysql.binlog.event.TransactionPayloadEventData deserialize(ByteArrayInputStream in)
                throws IOException {
            in.skipToTheEndOfTheBlock();
            com.github.shyiko.mysql.binlog.event.TransactionPayloadEventData data =
                    new com.github.shyiko.mysql.binlog.event.TransactionPayloadEventData();
            data.setUncompressedEvents(new ArrayList<>());
            return data;
        }
    }
}
