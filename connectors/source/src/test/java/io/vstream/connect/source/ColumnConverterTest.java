package io.vstream.connect.source;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.shyiko.mysql.binlog.event.deserialization.ColumnType;
import java.io.Serializable;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.BitSet;
import java.util.HexFormat;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ColumnConverterTest {
    private static final Charset UTF8 = StandardCharsets.UTF_8;
    private static final Charset LATIN1 = Charset.forName("windows-1252");
    private static final int UTF8MB4_GENERAL_CI = 45;

    private static BinlogColumn column(ColumnType type, int meta, boolean unsigned) {
        return new BinlogColumn(0, "c", type, meta, true, unsigned, BinlogColumn.BINARY_COLLATION, null, false);
    }

    private static BinlogColumn text(ColumnType type, int meta) {
        return new BinlogColumn(0, "c", type, meta, true, false, UTF8MB4_GENERAL_CI, null, false);
    }

    private static BinlogColumn notNull(ColumnType type, int meta) {
        return new BinlogColumn(0, "c", type, meta, false, false, BinlogColumn.BINARY_COLLATION, null, false);
    }

    private static ColumnConverter of(ColumnType type, int meta, boolean unsigned) {
        return ColumnConverter.of(column(type, meta, unsigned), null, false);
    }

    private static Object convert(ColumnType type, int meta, boolean unsigned, Serializable raw) {
        return of(type, meta, unsigned).convert(raw);
    }

    // ---- integers: the client reads every integer signed, of the column's width ----------------------------

    @Test
    void tinyint() {
        assertThat(of(ColumnType.TINY, 0, false).schema().type()).isEqualTo(Schema.Type.INT16);
        assertThat(convert(ColumnType.TINY, 0, false, -128)).isEqualTo((short) -128);
        assertThat(convert(ColumnType.TINY, 0, false, 127)).isEqualTo((short) 127);
        assertThat(of(ColumnType.TINY, 0, true).schema().type()).isEqualTo(Schema.Type.INT16);
        assertThat(convert(ColumnType.TINY, 0, true, -1)).as("255").isEqualTo((short) 255);
        assertThat(convert(ColumnType.TINY, 0, true, -128)).as("128").isEqualTo((short) 128);
        assertThat(convert(ColumnType.TINY, 0, true, 0)).isEqualTo((short) 0);
    }

    @Test
    void smallint() {
        assertThat(of(ColumnType.SHORT, 0, false).schema().type()).isEqualTo(Schema.Type.INT16);
        assertThat(convert(ColumnType.SHORT, 0, false, -32768)).isEqualTo((short) -32768);
        assertThat(of(ColumnType.SHORT, 0, true).schema().type()).isEqualTo(Schema.Type.INT32);
        assertThat(convert(ColumnType.SHORT, 0, true, -1)).as("65535").isEqualTo(65535);
        assertThat(convert(ColumnType.SHORT, 0, true, 32767)).isEqualTo(32767);
    }

    @Test
    void mediumint() {
        assertThat(of(ColumnType.INT24, 0, false).schema().type()).isEqualTo(Schema.Type.INT32);
        assertThat(convert(ColumnType.INT24, 0, false, -8388608)).isEqualTo(-8388608);
        assertThat(of(ColumnType.INT24, 0, true).schema().type()).isEqualTo(Schema.Type.INT32);
        assertThat(convert(ColumnType.INT24, 0, true, -1)).as("16777215").isEqualTo(16777215);
        assertThat(convert(ColumnType.INT24, 0, true, -8388608)).as("8388608").isEqualTo(8388608);
    }

    @Test
    void integer() {
        assertThat(of(ColumnType.LONG, 0, false).schema().type()).isEqualTo(Schema.Type.INT32);
        assertThat(convert(ColumnType.LONG, 0, false, Integer.MIN_VALUE)).isEqualTo(Integer.MIN_VALUE);
        assertThat(of(ColumnType.LONG, 0, true).schema().type()).isEqualTo(Schema.Type.INT64);
        assertThat(convert(ColumnType.LONG, 0, true, -1)).as("4294967295").isEqualTo(4294967295L);
        assertThat(convert(ColumnType.LONG, 0, true, Integer.MIN_VALUE)).isEqualTo(2147483648L);
    }

    @Test
    void bigint() {
        assertThat(of(ColumnType.LONGLONG, 0, false).schema().type()).isEqualTo(Schema.Type.INT64);
        assertThat(convert(ColumnType.LONGLONG, 0, false, Long.MIN_VALUE)).isEqualTo(Long.MIN_VALUE);
        Schema unsigned = of(ColumnType.LONGLONG, 0, true).schema();
        assertThat(unsigned.name()).isEqualTo(Decimal.LOGICAL_NAME);
        assertThat(unsigned.parameters()).containsEntry(Decimal.SCALE_FIELD, "0")
                .containsEntry(ColumnConverter.PRECISION, "20");
        assertThat(convert(ColumnType.LONGLONG, 0, true, -1L))
                .isEqualTo(new BigDecimal("18446744073709551615"));
        assertThat(convert(ColumnType.LONGLONG, 0, true, Long.MIN_VALUE))
                .isEqualTo(new BigDecimal("9223372036854775808"));
        assertThat(convert(ColumnType.LONGLONG, 0, true, 0L)).isEqualTo(BigDecimal.ZERO);
        assertThat(convert(ColumnType.LONGLONG, 0, true, Long.MAX_VALUE))
                .isEqualTo(new BigDecimal(Long.MAX_VALUE));
    }

    @Test
    void unsignedLongReadsTheTopBit() {
        assertThat(ColumnConverter.unsignedLong(-1L)).isEqualTo(new BigInteger("18446744073709551615"));
        assertThat(ColumnConverter.unsignedLong(-2L)).isEqualTo(new BigInteger("18446744073709551614"));
        assertThat(ColumnConverter.unsignedLong(42L)).isEqualTo(BigInteger.valueOf(42));
    }

    // ---- other numbers ---------------------------------------------------------------------------------------

    @Test
    void floatAndDouble() {
        assertThat(of(ColumnType.FLOAT, 4, false).schema().type()).isEqualTo(Schema.Type.FLOAT32);
        assertThat(convert(ColumnType.FLOAT, 4, false, 0.15625f)).isEqualTo(0.15625f);
        assertThat(of(ColumnType.DOUBLE, 8, false).schema().type()).isEqualTo(Schema.Type.FLOAT64);
        assertThat(convert(ColumnType.DOUBLE, 8, false, Double.MAX_VALUE)).isEqualTo(Double.MAX_VALUE);
    }

    @Test
    void decimalKeepsPrecisionAndScale() {
        int meta = 65 | 30 << 8; // DECIMAL(65,30) as TABLE_MAP writes it
        Schema s = of(ColumnType.NEWDECIMAL, meta, false).schema();
        assertThat(s.name()).isEqualTo(Decimal.LOGICAL_NAME);
        assertThat(s.parameters()).containsEntry(Decimal.SCALE_FIELD, "30")
                .containsEntry(ColumnConverter.PRECISION, "65");
        BigDecimal big = new BigDecimal("-99999999999999999999999999999999999.999999999999999999999999999999");
        assertThat(convert(ColumnType.NEWDECIMAL, meta, false, big)).isEqualTo(big);
        assertThat(convert(ColumnType.NEWDECIMAL, 5 | 2 << 8, false, new BigDecimal("-1.5")))
                .as("carried at the column's scale").isEqualTo(new BigDecimal("-1.50"));
        assertThat(convert(ColumnType.NEWDECIMAL, 10, true, new BigDecimal("7"))).isEqualTo(new BigDecimal("7"));
    }

    // ---- BIT -------------------------------------------------------------------------------------------------

    @Test
    void bitOneIsABoolean() {
        assertThat(of(ColumnType.BIT, 1, false).schema().type()).isEqualTo(Schema.Type.BOOLEAN);
        BitSet one = new BitSet();
        one.set(0);
        assertThat(convert(ColumnType.BIT, 1, false, one)).isEqualTo(true);
        assertThat(convert(ColumnType.BIT, 1, false, new BitSet())).isEqualTo(false);
    }

    @Test
    void bitNIsLittleEndianBytesOfTheWholeWidth() {
        int meta13 = 1 << 8 | 5; // BIT(13): 1 whole byte and 5 bits
        Schema s = of(ColumnType.BIT, meta13, false).schema();
        assertThat(s.name()).isEqualTo("io.debezium.data.Bits");
        assertThat(s.version()).isEqualTo(1);
        assertThat(s.parameters()).containsEntry("length", "13");
        BitSet v = new BitSet();
        v.set(0);
        v.set(12); // 0b1_0000_0000_0001
        assertThat(convert(ColumnType.BIT, meta13, false, v)).isEqualTo(new byte[] {0x01, 0x10});
        assertThat(convert(ColumnType.BIT, meta13, false, new BitSet())).isEqualTo(new byte[2]);

        int meta64 = 8 << 8;
        assertThat(of(ColumnType.BIT, meta64, false).schema().parameters()).containsEntry("length", "64");
        BitSet all = new BitSet();
        all.set(0, 64);
        assertThat(convert(ColumnType.BIT, meta64, false, all)).isEqualTo(HexFormat.of().parseHex("ffffffffffffffff"));
        BitSet low = new BitSet();
        low.set(0);
        assertThat(convert(ColumnType.BIT, meta64, false, low)).isEqualTo(new byte[] {1, 0, 0, 0, 0, 0, 0, 0});
    }

    // ---- temporal --------------------------------------------------------------------------------------------

    @Test
    void dateIsEpochDaysAndAlwaysOptional() {
        ColumnConverter c = ColumnConverter.of(notNull(ColumnType.DATE, 0), null, false);
        assertThat(c.schema().name()).isEqualTo("io.debezium.time.Date");
        assertThat(c.schema().type()).isEqualTo(Schema.Type.INT32);
        assertThat(c.schema().isOptional()).as("a zero date in a NOT NULL column is null").isTrue();
        assertThat(c.convert(LocalDate.of(1970, 1, 1))).isEqualTo(0);
        assertThat(c.convert(LocalDate.of(9999, 12, 31))).isEqualTo(2932896);
        assertThat(c.convert(LocalDate.of(1000, 1, 1))).isEqualTo(-354285);
        assertThat(c.convert(null)).as("a zero date").isNull();
    }

    @Test
    void timeIsSignedMicroseconds() {
        ColumnConverter c = of(ColumnType.TIME_V2, 6, false);
        assertThat(c.schema().name()).isEqualTo("io.debezium.time.MicroTime");
        assertThat(c.schema().type()).isEqualTo(Schema.Type.INT64);
        assertThat(c.convert(Duration.ofSeconds(-3_020_399))).isEqualTo(-3_020_399_000_000L);
        assertThat(c.convert(Duration.ofSeconds(3_020_399))).isEqualTo(3_020_399_000_000L);
        assertThat(c.convert(Duration.ofNanos(-1000))).isEqualTo(-1L);
        assertThat(c.convert(Duration.ofHours(100))).isEqualTo(360_000_000_000L);
        assertThat(ColumnConverter.of(notNull(ColumnType.TIME_V2, 0), null, false).schema().isOptional())
                .as("TIME has no zero value").isFalse();
    }

    @ParameterizedTest
    @CsvSource({"0, io.debezium.time.Timestamp", "1, io.debezium.time.Timestamp", "3, io.debezium.time.Timestamp",
        "4, io.debezium.time.MicroTimestamp", "6, io.debezium.time.MicroTimestamp"})
    void datetimeIsMillisUpToThreeDigitsThenMicros(int fsp, String logical) {
        ColumnConverter c = ColumnConverter.of(notNull(ColumnType.DATETIME_V2, fsp), null, false);
        assertThat(c.schema().name()).isEqualTo(logical);
        assertThat(c.schema().isOptional()).isTrue();
        LocalDateTime t = LocalDateTime.of(2024, 5, 6, 7, 8, 9, 123_000_000);
        long micros = 1714979289_123_000L;
        assertThat(c.convert(t)).isEqualTo(fsp <= 3 ? micros / 1000 : micros);
    }

    @Test
    void datetimeBeforeTheEpoch() {
        ColumnConverter micros = of(ColumnType.DATETIME_V2, 6, false);
        assertThat(micros.convert(LocalDateTime.of(1000, 1, 1, 0, 0, 0, 1000))).isEqualTo(-30610223999999999L);
        ColumnConverter millis = of(ColumnType.DATETIME_V2, 3, false);
        assertThat(millis.convert(LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_000_000))).isEqualTo(-1L);
        assertThat(of(ColumnType.DATETIME, 0, false).convert(LocalDateTime.of(9999, 12, 31, 23, 59, 59)))
                .isEqualTo(253402300799000L);
        assertThat(micros.convert(null)).isNull();
    }

    @ParameterizedTest
    @CsvSource({"0, 2038-01-19T03:14:07Z", "1, 2038-01-19T03:14:07.9Z", "3, 2038-01-19T03:14:07.999Z",
        "6, 2038-01-19T03:14:07.999999Z"})
    void timestampIsAnIsoStringInUtcWithTheColumnsDigits(int fsp, String expected) {
        ColumnConverter c = of(ColumnType.TIMESTAMP_V2, fsp, false);
        assertThat(c.schema().name()).isEqualTo("io.debezium.time.ZonedTimestamp");
        assertThat(c.schema().type()).isEqualTo(Schema.Type.STRING);
        long nanos = switch (fsp) {
            case 1 -> 900_000_000L;
            case 3 -> 999_000_000L;
            case 6 -> 999_999_000L;
            default -> 0L;
        };
        assertThat(c.convert(Instant.ofEpochSecond(2147483647L, nanos))).isEqualTo(expected);
    }

    @Test
    void timestampPadsItsFraction() {
        assertThat(of(ColumnType.TIMESTAMP_V2, 6, false).convert(Instant.ofEpochSecond(1, 0)))
                .isEqualTo("1970-01-01T00:00:01.000000Z");
        assertThat(of(ColumnType.TIMESTAMP, 0, false).convert(Instant.ofEpochSecond(1714979289)))
                .isEqualTo("2024-05-06T07:08:09Z");
        assertThat(ColumnConverter.of(notNull(ColumnType.TIMESTAMP_V2, 0), null, false).schema().isOptional())
                .isTrue();
    }

    @Test
    void year() {
        ColumnConverter c = of(ColumnType.YEAR, 0, false);
        assertThat(c.schema().name()).isEqualTo("io.debezium.time.Year");
        assertThat(c.schema().type()).isEqualTo(Schema.Type.INT32);
        assertThat(c.convert(0)).isEqualTo(0);
        assertThat(c.convert(2155)).isEqualTo(2155);
    }

    // ---- strings and bytes -----------------------------------------------------------------------------------

    @Test
    void textDecodesWithTheColumnsCharset() {
        byte[] utf8 = "héllo 😀".getBytes(UTF8);
        for (ColumnType t : new ColumnType[] {ColumnType.STRING, ColumnType.VARCHAR, ColumnType.BLOB,
            ColumnType.TINY_BLOB, ColumnType.MEDIUM_BLOB, ColumnType.LONG_BLOB}) {
            ColumnConverter c = ColumnConverter.of(text(t, 40), UTF8, false);
            assertThat(c.schema().type()).as(t.name()).isEqualTo(Schema.Type.STRING);
            assertThat(c.convert(utf8)).as(t.name()).isEqualTo("héllo 😀");
        }
        ColumnConverter latin1 = ColumnConverter.of(text(ColumnType.VARCHAR, 100), LATIN1, false);
        assertThat(latin1.convert(new byte[] {'c', 'a', 'f', (byte) 0xE9})).isEqualTo("café");
        assertThat(latin1.convert(new byte[0])).isEqualTo("");
    }

    @Test
    void binaryColumnsAreBytes() {
        for (ColumnType t : new ColumnType[] {ColumnType.VARCHAR, ColumnType.BLOB, ColumnType.TINY_BLOB,
            ColumnType.MEDIUM_BLOB, ColumnType.LONG_BLOB}) {
            ColumnConverter c = of(t, 10, false);
            assertThat(c.schema().type()).as(t.name()).isEqualTo(Schema.Type.BYTES);
            assertThat(c.convert(new byte[] {0, (byte) 0xFF, 0})).as("no padding for %s", t)
                    .isEqualTo(new byte[] {0, (byte) 0xFF, 0});
        }
    }

    @Test
    void binaryNGetsBackTheTrailingZerosTheBinlogDrops() {
        int binary4 = 0xFE << 8 | 4; // BINARY(4)
        ColumnConverter c = of(ColumnType.STRING, binary4, false);
        assertThat(c.schema().type()).isEqualTo(Schema.Type.BYTES);
        assertThat(c.convert(new byte[] {0, (byte) 0xFF})).isEqualTo(new byte[] {0, (byte) 0xFF, 0, 0});
        assertThat(c.convert(new byte[0])).isEqualTo(new byte[4]);
        assertThat(c.convert(new byte[] {1, 2, 3, 4})).isEqualTo(new byte[] {1, 2, 3, 4});
        int binary16 = 0xFE << 8 | 16; // also INET6 and UUID on MariaDB
        assertThat(of(ColumnType.STRING, binary16, false).convert(new byte[0])).isEqualTo(new byte[16]);
    }

    @Test
    void charKeepsWhatTheBinlogHas() {
        ColumnConverter c = ColumnConverter.of(text(ColumnType.STRING, 0xFE << 8 | 40), UTF8, false);
        assertThat(c.convert("ab".getBytes(UTF8))).as("CHAR is not padded").isEqualTo("ab");
    }

    @Test
    void aTextColumnWithoutACharsetIsBytes() {
        assertThat(ColumnConverter.of(text(ColumnType.VARCHAR, 10), null, false).schema().type())
                .isEqualTo(Schema.Type.BYTES);
    }

    // ---- ENUM and SET ----------------------------------------------------------------------------------------

    private static ColumnConverter enumOrSet(ColumnType type, String... values) {
        return ColumnConverter.of(new BinlogColumn(0, "e", type, 0, true, false, UTF8MB4_GENERAL_CI, values, false),
                UTF8, false);
    }

    @Test
    void enumMapsItsOneBasedIndexToTheValue() {
        ColumnConverter c = enumOrSet(ColumnType.ENUM, "a", "b", "é");
        assertThat(c.schema().name()).isEqualTo("io.debezium.data.Enum");
        assertThat(c.schema().parameters()).containsEntry("allowed", "a,b,é");
        assertThat(c.convert(1)).isEqualTo("a");
        assertThat(c.convert(3)).isEqualTo("é");
        assertThat(c.convert(0)).as("the server's invalid-value marker").isEqualTo("");
        assertThat(c.convert(4)).as("an index the metadata does not name").isEqualTo("4");
        assertThat(enumOrSet(ColumnType.ENUM, (String[]) null).convert(2)).isEqualTo("2");
    }

    @Test
    void setMapsEachBitToItsMember() {
        ColumnConverter c = enumOrSet(ColumnType.SET, "x", "y", "z");
        assertThat(c.schema().name()).isEqualTo("io.debezium.data.EnumSet");
        assertThat(c.schema().parameters()).containsEntry("allowed", "x,y,z");
        assertThat(c.convert(0L)).isEqualTo("");
        assertThat(c.convert(1L)).isEqualTo("x");
        assertThat(c.convert(5L)).isEqualTo("x,z");
        assertThat(c.convert(7L)).isEqualTo("x,y,z");
        assertThat(c.convert(8L)).as("a bit the metadata does not name").isEqualTo("3");
        String[] sixtyFour = new String[64];
        for (int i = 0; i < 64; i++) {
            sixtyFour[i] = "m" + i;
        }
        assertThat(enumOrSet(ColumnType.SET, sixtyFour).convert(Long.MIN_VALUE)).isEqualTo("m63");
    }

    // ---- JSON and GEOMETRY -----------------------------------------------------------------------------------

    @Test
    void mysqlJsonIsDecodedFromItsBinaryForm() {
        ColumnConverter c = of(ColumnType.JSON, 4, false);
        assertThat(c.schema().name()).isEqualTo("io.debezium.data.Json");
        assertThat(c.convert(new byte[] {0x04, 0x01})).isEqualTo("true");
        assertThat(c.convert(new byte[] {0x0C, 0x02, 'h', 'i'})).isEqualTo("\"hi\"");
    }

    @Test
    void geometryIsWkbAndSrid() {
        ColumnConverter c = of(ColumnType.GEOMETRY, 4, false);
        Schema s = c.schema();
        assertThat(s.name()).isEqualTo(ColumnConverter.GEOMETRY);
        assertThat(s.type()).isEqualTo(Schema.Type.STRUCT);
        assertThat(s.field("wkb").schema()).isEqualTo(Schema.BYTES_SCHEMA);
        assertThat(s.field("srid").schema()).isEqualTo(Schema.OPTIONAL_INT32_SCHEMA);
        // POINT(1 2) with SRID 4326 in the server's format: SRID little-endian, then WKB
        byte[] internal = HexFormat.of().parseHex("e6100000" + "0101000000000000000000f03f0000000000000040");
        Struct g = (Struct) c.convert(internal);
        assertThat(g.getBytes("wkb")).isEqualTo(HexFormat.of().parseHex("0101000000000000000000f03f0000000000000040"));
        assertThat(g.getInt32("srid")).isEqualTo(4326);
        Struct noSrid = (Struct) c.convert(HexFormat.of().parseHex("00000000" + "0101000000"));
        assertThat(noSrid.getInt32("srid")).isEqualTo(0);
        assertThat(((Struct) c.convert(new byte[] {1, 2})).getBytes("wkb")).isEqualTo(new byte[] {1, 2});
    }

    // ---- optionality and logical names -----------------------------------------------------------------------

    @Test
    void keyColumnsAreRequiredAndNullableColumnsOptional() {
        BinlogColumn nullable = column(ColumnType.LONG, 0, false);
        assertThat(ColumnConverter.of(nullable, null, false).schema().isOptional()).isTrue();
        assertThat(ColumnConverter.of(nullable, null, true).schema().isOptional()).isFalse();
        assertThat(ColumnConverter.of(notNull(ColumnType.LONG, 0), null, false).schema().isOptional()).isFalse();
        assertThat(ColumnConverter.of(notNull(ColumnType.DATE, 0), null, true).schema().isOptional())
                .as("a zero date may be in a key").isTrue();
    }

    @Test
    void debeziumLogicalTypesCarryVersionOne() {
        assertThat(of(ColumnType.DATE, 0, false).schema().version()).isEqualTo(1);
        assertThat(of(ColumnType.TIME_V2, 0, false).schema().version()).isEqualTo(1);
        assertThat(of(ColumnType.DATETIME_V2, 6, false).schema().version()).isEqualTo(1);
        assertThat(of(ColumnType.TIMESTAMP_V2, 6, false).schema().version()).isEqualTo(1);
        assertThat(of(ColumnType.YEAR, 0, false).schema().version()).isEqualTo(1);
        assertThat(of(ColumnType.GEOMETRY, 4, false).schema().version()).isEqualTo(1);
        assertThat(enumOrSet(ColumnType.ENUM, "a").schema().version()).isEqualTo(1);
    }

    @Test
    void nullStaysNull() {
        for (ColumnType t : ColumnType.values()) {
            assertThat(of(t, 0, false).convert(null)).as(t.name()).isNull();
        }
    }
}
