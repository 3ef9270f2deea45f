package io.vstream.connect.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.shyiko.mysql.binlog.event.DeleteRowsEventData;
import com.github.shyiko.mysql.binlog.event.Event;
import com.github.shyiko.mysql.binlog.event.EventType;
import com.github.shyiko.mysql.binlog.event.TableMapEventData;
import com.github.shyiko.mysql.binlog.event.UpdateRowsEventData;
import com.github.shyiko.mysql.binlog.event.WriteRowsEventData;
import com.github.shyiko.mysql.binlog.event.deserialization.ColumnType;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDataDeserializationException;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.NullEventDataDeserializer;
import com.github.shyiko.mysql.binlog.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The deserializer wiring, driven by hand-made binlog events: a TABLE_MAP then row events of a table with YEAR, a
 * negative TIME(6), a DATE before 1582 and a CHAR, decoded exactly by our row deserializers through the table map the
 * {@link EventDeserializer} keeps.
 */
class BinlogDeserializersTest {
    private static final long TABLE_ID = 42;
    private static final byte[] TYPES = {(byte) ColumnType.YEAR.getCode(), (byte) ColumnType.TIME_V2.getCode(),
        (byte) ColumnType.DATE.getCode(), (byte) ColumnType.STRING.getCode()};

    @Test
    void replacesEveryRowsDeserializerAndKeepsTheOthers() {
        EventDeserializer d = BinlogDeserializers.create();
        assertThat(d.getEventDataDeserializer(EventType.WRITE_ROWS)).isInstanceOf(BinlogDeserializers.WriteRows.class);
        assertThat(d.getEventDataDeserializer(EventType.EXT_WRITE_ROWS))
                .isInstanceOf(BinlogDeserializers.WriteRows.class);
        assertThat(d.getEventDataDeserializer(EventType.UPDATE_ROWS))
                .isInstanceOf(BinlogDeserializers.UpdateRows.class);
        assertThat(d.getEventDataDeserializer(EventType.EXT_UPDATE_ROWS))
                .isInstanceOf(BinlogDeserializers.UpdateRows.class);
        assertThat(d.getEventDataDeserializer(EventType.DELETE_ROWS))
                .isInstanceOf(BinlogDeserializers.DeleteRows.class);
        assertThat(d.getEventDataDeserializer(EventType.EXT_DELETE_ROWS))
                .isInstanceOf(BinlogDeserializers.DeleteRows.class);
        assertThat(d.getEventDataDeserializer(EventType.TABLE_MAP)).as("names and members as the server wrote them")
                .isInstanceOf(TableMapStrings.class);
        assertThat(d.getEventDataDeserializer(EventType.TRANSACTION_PAYLOAD))
                .as("compressed transactions are skipped, never decompressed")
                .isInstanceOf(BinlogDeserializers.CompressedTransaction.class);
        // the client's own registrations (this test's classpath has zstd through kafka-clients; the plugin has not):
        // every other type is decoded as the client would, so a new client version's new type shows here
        EventDeserializer defaults = new EventDeserializer();
        for (EventType t : EventType.values()) {
            if (List.of(EventType.TABLE_MAP, EventType.TRANSACTION_PAYLOAD).contains(t)
                    || defaults.getEventDataDeserializer(t) instanceof
                    com.github.shyiko.mysql.binlog.event.deserialization.AbstractRowsEventDataDeserializer<?>) {
                continue;
            }
            assertThat(d.getEventDataDeserializer(t)).as(t.name())
                    .hasSameClassAs(defaults.getEventDataDeserializer(t));
        }
        for (EventType t : List.of(EventType.QUERY, EventType.XID, EventType.GTID,
                EventType.MARIADB_GTID, EventType.ROTATE, EventType.FORMAT_DESCRIPTION)) {
            assertThat(d.getEventDataDeserializer(t)).as(t.name()).isNotInstanceOf(NullEventDataDeserializer.class);
        }
    }

    @Test
    void aCompressedTransactionIsSkippedWithoutDecompressingAndYieldsNoEvent() throws IOException {
        byte[] body = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}; // fields and a zstd frame: not read
        ByteArrayInputStream in = new ByteArrayInputStream(concat(event(EventType.TRANSACTION_PAYLOAD, body),
                event(EventType.TABLE_MAP, tableMap())));
        EventDeserializer d = BinlogDeserializers.create();

        Event payload = d.nextEvent(in);
        assertThat(payload.getHeader().getEventType()).isEqualTo(EventType.TRANSACTION_PAYLOAD);
        assertThat(((com.github.shyiko.mysql.binlog.event.TransactionPayloadEventData) payload.getData())
                .getUncompressedEvents()).isEmpty();
        assertThat(d.nextEvent(in).getHeader().getEventType()).as("the next event is read whole")
                .isEqualTo(EventType.TABLE_MAP);
    }

    @Test
    void decodesRowsThroughTheSharedTableMap() throws IOException {
        EventDeserializer d = BinlogDeserializers.create();
        ByteArrayInputStream in = new ByteArrayInputStream(concat(
                event(EventType.TABLE_MAP, tableMap()),
                event(EventType.WRITE_ROWS, rows(row(0, -3_020_399_000_000L, 1000, 1, 1, "ab"))),
                event(EventType.UPDATE_ROWS, rows(row(124, -1, 1582, 10, 4, "x"), row(255, 0, 0, 0, 0, ""))),
                event(EventType.DELETE_ROWS, rows(row(1, 3_020_399_999_999L, 9999, 12, 31, "z")))));

        Event tm = d.nextEvent(in);
        assertThat(tm.getHeader().getEventType()).isEqualTo(EventType.TABLE_MAP);
        assertThat(((TableMapEventData) tm.getData()).getTable()).isEqualTo("t");

        WriteRowsEventData write = d.nextEvent(in).getData();
        assertThat(write.getRows()).singleElement().satisfies(r -> assertThat(r).containsExactly(0,
                Duration.ofSeconds(-3_020_399), LocalDate.of(1000, 1, 1), "ab".getBytes(StandardCharsets.UTF_8)));

        UpdateRowsEventData update = d.nextEvent(in).getData();
        Map.Entry<Serializable[], Serializable[]> change = update.getRows().get(0);
        assertThat(change.getKey()).containsExactly(2024, Duration.ofNanos(-1000), LocalDate.of(1582, 10, 4),
                "x".getBytes(StandardCharsets.UTF_8));
        assertThat(change.getValue()).containsExactly(2155, Duration.ZERO, new InvalidTemporal("0000-00-00"),
                new byte[0]);

        DeleteRowsEventData delete = d.nextEvent(in).getData();
        assertThat(delete.getRows().get(0)).containsExactly(1901, Duration.ofNanos(3_020_399_999_999_000L),
                LocalDate.of(9999, 12, 31), "z".getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void theRowsOfATableNotStreamedAreSkippedUnreadAndTheStreamStaysAligned() throws IOException {
        EventDeserializer d = BinlogDeserializers.create(tm -> !tm.getTable().equals("t"));
        ByteArrayInputStream in = new ByteArrayInputStream(concat(
                event(EventType.TABLE_MAP, tableMap()),
                event(EventType.WRITE_ROWS, rows(row(0, 0, 1000, 1, 1, "ab"), row(1, 0, 1000, 1, 1, "cd"))),
                event(EventType.UPDATE_ROWS, rows(row(124, -1, 1582, 10, 4, "x"), row(255, 0, 0, 0, 0, ""))),
                event(EventType.DELETE_ROWS, rows(row(1, 0, 9999, 12, 31, "z"))),
                event(EventType.TABLE_MAP, tableMap())));
        d.nextEvent(in);
        WriteRowsEventData write = d.nextEvent(in).getData();
        assertThat(write.getTableId()).isEqualTo(TABLE_ID);
        assertThat(write.getRows()).isEmpty();
        UpdateRowsEventData update = d.nextEvent(in).getData();
        assertThat(update.getTableId()).isEqualTo(TABLE_ID);
        assertThat(update.getRows()).isEmpty();
        DeleteRowsEventData delete = d.nextEvent(in).getData();
        assertThat(delete.getRows()).isEmpty();
        Event next = d.nextEvent(in);
        assertThat(((TableMapEventData) next.getData()).getTable()).as("the next event reads as it should")
                .isEqualTo("t");
    }

    @Test
    void eachDeserializerHasItsOwnTableMap() throws IOException {
        EventDeserializer first = BinlogDeserializers.create();
        first.nextEvent(new ByteArrayInputStream(event(EventType.TABLE_MAP, tableMap())));
        EventDeserializer second = BinlogDeserializers.create();
        ByteArrayInputStream rows = new ByteArrayInputStream(
                event(EventType.WRITE_ROWS, rows(row(0, 0, 2000, 1, 1, ""))));
        assertThatThrownBy(() -> second.nextEvent(rows)).isInstanceOf(EventDataDeserializationException.class)
                .rootCause().hasMessageContaining("No TableMapEventData has been found for table id:" + TABLE_ID);
    }

    // ---- hand-made events ------------------------------------------------------------------------------------

    /** A v4 event header (no checksum: no FORMAT_DESCRIPTION announced one) and the body. */
    private static byte[] event(EventType type, byte[] body) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        le(out, 1_700_000_000L, 4); // timestamp
        out.write(eventCode(type));
        le(out, 1, 4); // server id
        le(out, 19 + body.length, 4); // event length
        le(out, 0, 4); // next position
        le(out, 0, 2); // flags
        out.writeBytes(body);
        return out.toByteArray();
    }

    private static int eventCode(EventType type) {
        return switch (type) {
            case TABLE_MAP -> 19;
            case WRITE_ROWS -> 23;
            case UPDATE_ROWS -> 24;
            case DELETE_ROWS -> 25;
            case TRANSACTION_PAYLOAD -> 40;
            default -> throw new IllegalArgumentException(type.name());
        };
    }

    private static byte[] tableMap() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        le(out, TABLE_ID, 6);
        le(out, 0, 2);
        out.write(2);
        out.writeBytes("db".getBytes(StandardCharsets.US_ASCII));
        out.write(0);
        out.write(1);
        out.write('t');
        out.write(0);
        out.write(TYPES.length);
        out.writeBytes(TYPES);
        out.write(3); // metadata bytes: TIME_V2's fsp, then CHAR(4)'s two bytes (real type, length)
        out.write(6);
        out.write(0xFE);
        out.write(4);
        out.write(0x0F); // all nullable
        return out.toByteArray();
    }

    /** A rows event body of {@link #TYPES}, all columns present. */
    private static byte[] rows(byte[]... images) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        le(out, TABLE_ID, 6);
        le(out, 0, 2);
        out.write(TYPES.length);
        out.write(0x0F); // columns present (an update has the bitmap twice)
        boolean update = images.length == 2;
        if (update) {
            out.write(0x0F);
        }
        for (byte[] image : images) {
            out.writeBytes(image);
        }
        return out.toByteArray();
    }

    private static byte[] row(int yearByte, long timeMicros, int year, int month, int day, String chars) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(0); // no NULLs
        out.write(yearByte);
        boolean negative = timeMicros < 0;
        long abs = Math.abs(timeMicros);
        long seconds = abs / 1_000_000;
        long hms = (seconds / 3600) << 12 | (seconds / 60 % 60) << 6 | seconds % 60;
        long packed = (hms << 24) + abs % 1_000_000;
        out.writeBytes(TemporalCellsTest.time2(negative ? -packed : packed, 6));
        int date = TemporalCellsTest.date(year, month, day);
        le(out, date, 3);
        byte[] text = chars.getBytes(StandardCharsets.UTF_8);
        out.write(text.length);
        out.writeBytes(text);
        return out.toByteArray();
    }

    private static void le(ByteArrayOutputStream out, long v, int bytes) {
        for (int i = 0; i < bytes; i++) {
            out.write((int) (v >> (8 * i)));
        }
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }
}
