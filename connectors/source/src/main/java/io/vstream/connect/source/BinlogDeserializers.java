package io.vstream.connect.source;

import com.github.shyiko.mysql.binlog.event.EventType;
import com.github.shyiko.mysql.binlog.event.TableMapEventData;
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
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Configures how the binlog client turns row images into Java values before {@link ColumnConverter} maps them to
 * Connect values: CHAR/BINARY as bytes (decoded later with the column's charset), and every temporal cell and YEAR
 * read exactly by {@link TemporalCells} (the client's own decoding loses a negative TIME's sign, uses the Julian
 * calendar before 1582 and reads YEAR 0000 as 1900). Touches no server.
 *
 * <p>The client's row deserializers read the TABLE_MAP events it keeps by table id; ours share that map, which the
 * {@link EventDeserializer} fills, by building the deserializer around a map we own.
 */
final class BinlogDeserializers {
    /** As many table ids as the client itself remembers. */
    static final int TABLE_MAP_CACHE_SIZE = 10_000;

    private BinlogDeserializers() {
    }

    static EventDeserializer create() {
        Map<Long, TableMapEventData> tableMaps = new TableMapCache(TABLE_MAP_CACHE_SIZE);
        Map<EventType, EventDataDeserializer> byType = new EnumMap<>(EventType.class);
        EventDeserializer defaults = new EventDeserializer();
        for (EventType type : EventType.values()) {
            EventDataDeserializer ours = rowsDeserializer(type, tableMaps);
            EventDataDeserializer theirs = defaults.getEventDataDeserializer(type);
            if (ours != null) {
                byType.put(type, ours);
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

    /** Our deserializer of a row event type, or {@code null} when the type carries no rows. */
    private static EventDataDeserializer rowsDeserializer(EventType type, Map<Long, TableMapEventData> tableMaps) {
        return switch (type) {
            case WRITE_ROWS -> new WriteRows(tableMaps);
            case UPDATE_ROWS -> new UpdateRows(tableMaps);
            case DELETE_ROWS -> new DeleteRows(tableMaps);
            case EXT_WRITE_ROWS -> new WriteRows(tableMaps).setMayContainExtraInformation(true);
            case EXT_UPDATE_ROWS -> new UpdateRows(tableMaps).setMayContainExtraInformation(true);
            case EXT_DELETE_ROWS -> new DeleteRows(tableMaps).setMayContainExtraInformation(true);
            default -> null;
        };
    }

    /** The client's WRITE_ROWS decoding, with exact temporal cells. */
    static final class WriteRows extends WriteRowsEventDataDeserializer {
        WriteRows(Map<Long, TableMapEventData> tableMaps) {
            super(tableMaps);
        }

        @Override
        protected Serializable deserializeCell(ColumnType type, int meta, int length, ByteArrayInputStream in)
                throws IOException {
            return TemporalCells.handles(type) ? TemporalCells.read(type, meta, in)
                    : super.deserializeCell(type, meta, length, in);
        }
    }

    /** The client's UPDATE_ROWS decoding, with exact temporal cells. */
    static final class UpdateRows extends UpdateRowsEventDataDeserializer {
        UpdateRows(Map<Long, TableMapEventData> tableMaps) {
            super(tableMaps);
        }

        @Override
        protected Serializable deserializeCell(ColumnType type, int meta, int length, ByteArrayInputStream in)
                throws IOException {
            return TemporalCells.handles(type) ? TemporalCells.read(type, meta, in)
                    : super.deserializeCell(type, meta, length, in);
        }
    }

    /** The client's DELETE_ROWS decoding, with exact temporal cells. */
    static final class DeleteRows extends DeleteRowsEventDataDeserializer {
        DeleteRows(Map<Long, TableMapEventData> tableMaps) {
            super(tableMaps);
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
}
