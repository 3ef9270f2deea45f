package io.vstream.connect.source;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.shyiko.mysql.binlog.event.deserialization.ColumnType;
import com.github.shyiko.mysql.binlog.io.ByteArrayInputStream;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The temporal storage formats, encoded here the way the server encodes them ({@code my_time.cc}:
 * {@code my_time_packed_to_binary}, {@code my_datetime_packed_to_binary}, {@code my_timestamp_to_binary}) and read
 * back through {@link TemporalCells}.
 */
class TemporalCellsTest {

    // ---- the server's encoders -------------------------------------------------------------------------------

    /** MySQL's packed TIME: ±((h << 12 | m << 6 | s) << 24 | micros). */
    static long packedTime(boolean negative, int h, int m, int s, int micros) {
        long v = ((long) (h << 12 | m << 6 | s) << 24) + micros;
        return negative ? -v : v;
    }

    static byte[] time2(long packed, int fsp) {
        long intPart = packed >> 24; // C's >> on a signed value: floor
        long frac = packed % (1L << 24); // C's %: truncated, negative for negative values
        byte[] out = new byte[3 + TemporalCells.fractionBytes(fsp)];
        switch (fsp) {
            case 1, 2 -> {
                put(out, 0, 3, 0x800000L + intPart);
                out[3] = (byte) (frac / 10000);
            }
            case 3, 4 -> {
                put(out, 0, 3, 0x800000L + intPart);
                put(out, 3, 2, frac / 100);
            }
            case 5, 6 -> put(out, 0, 6, packed + 0x800000000000L);
            default -> put(out, 0, 3, 0x800000L + intPart);
        }
        return out;
    }

    static byte[] datetime2(int year, int month, int day, int h, int m, int s, int micros, int fsp) {
        long ymd = ((long) (year * 13 + month) << 5) | day;
        long hms = (long) h << 12 | m << 6 | s;
        long packed = ((ymd << 17 | hms) << 24) + micros;
        byte[] out = new byte[5 + TemporalCells.fractionBytes(fsp)];
        put(out, 0, 5, (packed >> 24) + 0x8000000000L);
        long frac = packed % (1L << 24);
        switch (fsp) {
            case 1, 2 -> out[5] = (byte) (frac / 10000);
            case 3, 4 -> put(out, 5, 2, frac / 100);
            case 5, 6 -> put(out, 5, 3, frac);
            default -> {
            }
        }
        return out;
    }

    static byte[] timestamp2(long seconds, int micros, int fsp) {
        byte[] out = new byte[4 + TemporalCells.fractionBytes(fsp)];
        put(out, 0, 4, seconds);
        switch (fsp) {
            case 1, 2 -> out[4] = (byte) (micros / 10000);
            case 3, 4 -> put(out, 4, 2, micros / 100);
            case 5, 6 -> put(out, 4, 3, micros);
            default -> {
            }
        }
        return out;
    }

    static int date(int year, int month, int day) {
        return year << 9 | month << 5 | day;
    }

    private static void put(byte[] b, int offset, int length, long v) {
        for (int i = length - 1; i >= 0; i--) {
            b[offset + i] = (byte) v;
            v >>= 8;
        }
    }

    private static Duration time(boolean negative, int h, int m, int s, int micros) {
        Duration d = Duration.ofHours(h).plusMinutes(m).plusSeconds(s).plusNanos(micros * 1000L);
        return negative ? d.negated() : d;
    }

    // ---- TIME2 -----------------------------------------------------------------------------------------------

    @ParameterizedTest(name = "{0}{1}:{2}:{3}.{4} TIME({5})")
    @CsvSource({
        "+, 0, 0, 0, 0, 0",
        "+, 838, 59, 59, 0, 0",
        "-, 838, 59, 59, 0, 0",
        "-, 0, 0, 1, 0, 0",
        "+, 23, 59, 59, 0, 0",
        "+, 24, 0, 0, 0, 0",
        "+, 100, 0, 0, 0, 0",
        "+, 838, 59, 59, 0, 6",
        "-, 838, 59, 59, 0, 6",
        "+, 838, 59, 58, 999999, 6",
        "-, 838, 59, 58, 999999, 6",
        "-, 0, 0, 0, 1, 6",
        "-, 12, 34, 56, 789012, 6",
        "-, 12, 34, 56, 789010, 5",
        "+, 1, 2, 3, 456700, 4",
        "-, 1, 2, 3, 456700, 4",
        "-, 1, 2, 3, 456000, 3",
        "-, 0, 0, 0, 999000, 3",
        "-, 1, 2, 3, 450000, 2",
        "-, 0, 0, 0, 10000, 2",
        "-, 1, 2, 3, 400000, 1",
        "+, 0, 0, 0, 100000, 1",
        "-, 0, 0, 0, 0, 6",
    })
    void time2KeepsSignHoursBeyond24AndEveryFraction(String sign, int h, int m, int s, int micros, int fsp) {
        boolean negative = sign.equals("-");
        byte[] bytes = time2(packedTime(negative, h, m, s, micros), fsp);
        assertThat(TemporalCells.time2(fsp, bytes)).isEqualTo(time(negative, h, m, s, micros));
    }

    @Test
    void time2OfTheServersBytes() {
        // -838:59:59 as TIME(0): 0x800000 - (838 << 12 | 59 << 6 | 59)
        assertThat(TemporalCells.time2(0, new byte[] {0x4B, (byte) 0x91, 0x05}))
                .isEqualTo(Duration.ofSeconds(-3_020_399));
        // 00:00:00 is the offset itself
        assertThat(TemporalCells.time2(0, new byte[] {(byte) 0x80, 0, 0})).isEqualTo(Duration.ZERO);
    }

    @Test
    void time2ReadsFromARowImage() throws IOException {
        byte[] bytes = time2(packedTime(true, 838, 59, 59, 0), 6);
        Object v = TemporalCells.read(ColumnType.TIME_V2, 6, new ByteArrayInputStream(bytes));
        assertThat(v).isEqualTo(Duration.ofSeconds(-3_020_399));
    }

    // ---- TIME (pre-5.6) --------------------------------------------------------------------------------------

    @Test
    void oldTimeIsASignedHhmmssNumber() {
        assertThat(TemporalCells.time(8385959)).isEqualTo(time(false, 838, 59, 59, 0));
        assertThat(TemporalCells.time(-8385959 & 0xFFFFFF)).isEqualTo(time(true, 838, 59, 59, 0));
        assertThat(TemporalCells.time(-1 & 0xFFFFFF)).isEqualTo(Duration.ofSeconds(-1));
        assertThat(TemporalCells.time(0)).isEqualTo(Duration.ZERO);
        assertThat(TemporalCells.time(123456)).isEqualTo(time(false, 12, 34, 56, 0));
    }

    // ---- DATE ------------------------------------------------------------------------------------------------

    @ParameterizedTest
    @CsvSource({"1000-01-01", "9999-12-31", "1970-01-01", "1582-10-04", "1582-10-15", "0001-01-01", "2024-02-29",
        "0000-01-01"})
    void dateIsProlepticGregorian(String iso) {
        LocalDate d = LocalDate.parse(iso);
        assertThat(TemporalCells.date(date(d.getYear(), d.getMonthValue(), d.getDayOfMonth()))).isEqualTo(d);
    }

    @Test
    void dateBeforeTheGregorianCutOverIsNotJulian() {
        assertThat(TemporalCells.date(date(1000, 1, 1)).toEpochDay()).isEqualTo(-354285);
    }

    @ParameterizedTest
    @CsvSource({"0, 0, 0", "2024, 0, 10", "2024, 2, 0", "2024, 2, 30", "2023, 2, 29", "2024, 4, 31", "2024, 13, 1"})
    void zeroAndInvalidDatesAreNull(int year, int month, int day) {
        assertThat(TemporalCells.date(date(year, month, day))).isNull();
    }

    @Test
    void aDateNoCalendarHasIsReadAsTheServersText() throws IOException {
        for (int[] d : new int[][] {{0, 0, 0}, {2024, 0, 0}, {2024, 2, 30}}) {
            int packed = date(d[0], d[1], d[2]);
            byte[] le = {(byte) packed, (byte) (packed >> 8), (byte) (packed >> 16)};
            assertThat(TemporalCells.read(ColumnType.DATE, 0, new ByteArrayInputStream(le)))
                    .isEqualTo(new InvalidTemporal(String.format("%04d-%02d-%02d", d[0], d[1], d[2])));
        }
        assertThat(TemporalCells.read(ColumnType.DATETIME_V2, 6,
                new ByteArrayInputStream(datetime2(2024, 0, 10, 10, 11, 12, 1, 6))))
                .isEqualTo(new InvalidTemporal("2024-00-10 10:11:12.000001"));
        assertThat(TemporalCells.read(ColumnType.DATETIME_V2, 0,
                new ByteArrayInputStream(datetime2(0, 0, 0, 0, 0, 0, 0, 0))))
                .isEqualTo(new InvalidTemporal("0000-00-00 00:00:00"));
        assertThat(TemporalCells.read(ColumnType.TIMESTAMP_V2, 3, new ByteArrayInputStream(new byte[6])))
                .isEqualTo(new InvalidTemporal("0000-00-00 00:00:00.000"));
    }

    @Test
    void dateReadsThreeLittleEndianBytes() throws IOException {
        int packed = date(2024, 5, 6);
        byte[] le = {(byte) packed, (byte) (packed >> 8), (byte) (packed >> 16)};
        assertThat(TemporalCells.read(ColumnType.DATE, 0, new ByteArrayInputStream(le)))
                .isEqualTo(LocalDate.of(2024, 5, 6));
    }

    // ---- DATETIME2 / DATETIME --------------------------------------------------------------------------------

    @ParameterizedTest(name = "{0} DATETIME({1})")
    @CsvSource({
        "9999-12-31T23:59:59.999999, 6",
        "1000-01-01T00:00:00.000001, 6",
        "2024-05-06T07:08:09.123450, 5",
        "2024-05-06T07:08:09.123400, 4",
        "2024-05-06T07:08:09.123, 3",
        "2024-05-06T07:08:09.120, 2",
        "2024-05-06T07:08:09.900, 1",
        "2024-05-06T07:08:09, 0",
        "0001-01-01T00:00:00, 0",
        "1582-10-10T12:00:00, 0",
        "1970-01-01T00:00:00, 6",
    })
    void datetime2(String iso, int fsp) {
        LocalDateTime t = LocalDateTime.parse(iso);
        byte[] bytes = datetime2(t.getYear(), t.getMonthValue(), t.getDayOfMonth(), t.getHour(), t.getMinute(),
                t.getSecond(), t.getNano() / 1000, fsp);
        assertThat(TemporalCells.datetime2(fsp, bytes)).isEqualTo(t);
    }

    @Test
    void zeroDatetimeIsNull() {
        assertThat(TemporalCells.datetime2(0, datetime2(0, 0, 0, 0, 0, 0, 0, 0))).isNull();
        assertThat(TemporalCells.datetime2(6, datetime2(0, 0, 0, 0, 0, 0, 0, 6))).isNull();
        assertThat(TemporalCells.datetime2(0, datetime2(2024, 0, 10, 10, 0, 0, 0, 0))).isNull();
        assertThat(TemporalCells.datetime2(3, datetime2(2024, 2, 30, 0, 0, 0, 0, 3))).isNull();
    }

    @Test
    void oldDatetimeIsAYyyymmddhhmmssNumber() {
        assertThat(TemporalCells.datetime(20240506070809L)).isEqualTo(LocalDateTime.of(2024, 5, 6, 7, 8, 9));
        assertThat(TemporalCells.datetime(10000101000000L)).isEqualTo(LocalDateTime.of(1000, 1, 1, 0, 0));
        assertThat(TemporalCells.datetime(0L)).isNull();
    }

    // ---- TIMESTAMP2 / TIMESTAMP ------------------------------------------------------------------------------

    @ParameterizedTest
    @CsvSource({"2147483647, 999999, 6", "1, 1, 6", "1714979289, 123450, 5", "1714979289, 123400, 4",
        "1714979289, 123000, 3", "1714979289, 120000, 2", "1714979289, 100000, 1", "1714979289, 0, 0",
        "4294967295, 0, 0"})
    void timestamp2IsUtcSecondsAndFraction(long seconds, int micros, int fsp) {
        assertThat(TemporalCells.timestamp2(fsp, timestamp2(seconds, micros, fsp)))
                .isEqualTo(Instant.ofEpochSecond(seconds, micros * 1000L));
    }

    @Test
    void zeroTimestampIsNull() {
        assertThat(TemporalCells.timestamp2(0, timestamp2(0, 0, 0))).isNull();
        assertThat(TemporalCells.timestamp2(6, timestamp2(0, 0, 6))).isNull();
        assertThat(TemporalCells.timestamp(0, 0)).isNull();
        assertThat(TemporalCells.timestamp(1, 0)).isEqualTo(Instant.ofEpochSecond(1));
    }

    // ---- YEAR ------------------------------------------------------------------------------------------------

    @Test
    void yearZeroIsZeroNot1900() {
        assertThat(TemporalCells.year(0)).isEqualTo(0);
        assertThat(TemporalCells.year(1)).isEqualTo(1901);
        assertThat(TemporalCells.year(124)).isEqualTo(2024);
        assertThat(TemporalCells.year(255)).isEqualTo(2155);
    }

    // ---- dispatch --------------------------------------------------------------------------------------------

    @Test
    void handlesExactlyTheTemporalTypesAndYear() {
        for (ColumnType t : ColumnType.values()) {
            boolean temporal = switch (t) {
                case DATE, TIME, TIME_V2, DATETIME, DATETIME_V2, TIMESTAMP, TIMESTAMP_V2, YEAR -> true;
                default -> false;
            };
            assertThat(TemporalCells.handles(t)).as(t.name()).isEqualTo(temporal);
        }
    }

    @Test
    void readConsumesExactlyTheCellsBytes() throws IOException {
        byte[] t = time2(packedTime(true, 1, 2, 3, 450000), 2);
        byte[] d = datetime2(2024, 5, 6, 7, 8, 9, 123000, 3);
        byte[] s = timestamp2(1714979289, 5, 6);
        byte[] all = new byte[t.length + d.length + s.length + 5];
        System.arraycopy(t, 0, all, 0, t.length);
        System.arraycopy(d, 0, all, t.length, d.length);
        System.arraycopy(s, 0, all, t.length + d.length, s.length);
        all[all.length - 5] = 124; // YEAR 2024
        byte[] ts1 = {0x01, 0, 0, 0}; // TIMESTAMP (old): 1 second, little-endian
        System.arraycopy(ts1, 0, all, all.length - 4, 4);
        ByteArrayInputStream in = new ByteArrayInputStream(all);
        assertThat(TemporalCells.read(ColumnType.TIME_V2, 2, in)).isEqualTo(time(true, 1, 2, 3, 450000));
        assertThat(TemporalCells.read(ColumnType.DATETIME_V2, 3, in))
                .isEqualTo(LocalDateTime.of(2024, 5, 6, 7, 8, 9, 123_000_000));
        assertThat(TemporalCells.read(ColumnType.TIMESTAMP_V2, 6, in))
                .isEqualTo(Instant.ofEpochSecond(1714979289, 5000));
        assertThat(TemporalCells.read(ColumnType.YEAR, 0, in)).isEqualTo(2024);
        assertThat(TemporalCells.read(ColumnType.TIMESTAMP, 0, in)).isEqualTo(Instant.ofEpochSecond(1));
        assertThat(in.available()).isZero();
    }
}
