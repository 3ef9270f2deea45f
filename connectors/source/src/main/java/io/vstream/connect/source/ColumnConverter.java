package io.vstream.connect.source;

import com.github.shyiko.mysql.binlog.event.deserialization.ColumnType;
import com.github.shyiko.mysql.binlog.event.deserialization.json.JsonBinary;
import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.temporal.ChronoField;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Locale;
import java.util.StringJoiner;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;

/**
 * Converts one column's binlog value into its Connect value, and declares the Connect schema it is carried in. The
 * mapping of every MySQL/MariaDB type is documented in docs/data-types.md; names of logical types follow Debezium's
 * ({@code io.debezium.time.MicroTimestamp}, ...) so the Debezium ecosystem reads them.
 */
final class ColumnConverter {
    /** The schema parameter that carries a Connect Decimal's precision, as Debezium sets it. */
    static final String PRECISION = "connect.decimal.precision";
    /** Debezium's spatial type: the geometry as standard WKB, and its SRID. */
    static final String GEOMETRY = "io.debezium.data.geometry.Geometry";

    private static final DateTimeFormatter[] ZONED = new DateTimeFormatter[7];

    static {
        for (int fsp = 0; fsp <= 6; fsp++) {
            DateTimeFormatterBuilder b = new DateTimeFormatterBuilder().appendPattern("uuuu-MM-dd'T'HH:mm:ss");
            if (fsp > 0) {
                b.appendFraction(ChronoField.NANO_OF_SECOND, fsp, fsp, true);
            }
            ZONED[fsp] = b.appendLiteral('Z').toFormatter(Locale.ROOT).withZone(ZoneOffset.UTC);
        }
    }

    interface Fn {
        Object convert(Serializable raw);
    }

    private final Schema schema;
    private final Fn fn;

    private ColumnConverter(Schema schema, Fn fn) {
        this.schema = schema;
        this.fn = fn;
    }

    Schema schema() {
        return schema;
    }

    /**
     * The Connect value of a raw binlog value; {@code null} stays {@code null}, and so becomes a date no calendar has
     * ({@link InvalidTemporal}: its text travels in a header).
     */
    Object convert(Serializable raw) {
        return raw == null || raw instanceof InvalidTemporal ? null : fn.convert(raw);
    }

    /**
     * The converter of a column. Key columns get required schemas; other columns are optional when nullable, and
     * DATE/DATETIME/TIMESTAMP columns are always optional because a zero date ({@code 0000-00-00}) is carried as null.
     * Raw values are those of {@link BinlogDeserializers}: temporal cells as {@link TemporalCells} decodes them,
     * integers as the client reads them (signed, of the column's width), CHAR/VARCHAR/TEXT as bytes.
     */
    static ColumnConverter of(BinlogColumn c, Charset charset, boolean key) {
        boolean optional = !key && c.nullable();
        switch (c.type()) {
            case TINY:
                return new ColumnConverter(opt(SchemaBuilder.int16(), optional),
                        raw -> c.unsigned() ? (short) (((Number) raw).intValue() & 0xFF) : ((Number) raw).shortValue());
            case SHORT:
                return c.unsigned()
                        ? new ColumnConverter(opt(SchemaBuilder.int32(), optional),
                                raw -> ((Number) raw).intValue() & 0xFFFF)
                        : new ColumnConverter(opt(SchemaBuilder.int16(), optional), raw -> ((Number) raw).shortValue());
            case INT24:
                return new ColumnConverter(opt(SchemaBuilder.int32(), optional),
                        raw -> c.unsigned() ? ((Number) raw).intValue() & 0xFFFFFF : ((Number) raw).intValue());
            case LONG:
                return c.unsigned()
                        ? new ColumnConverter(opt(SchemaBuilder.int64(), optional),
                                raw -> ((Number) raw).longValue() & 0xFFFFFFFFL)
                        : new ColumnConverter(opt(SchemaBuilder.int32(), optional), raw -> ((Number) raw).intValue());
            case LONGLONG:
                if (c.unsigned()) {
                    return new ColumnConverter(opt(Decimal.builder(0).parameter(PRECISION, "20"), optional),
                            raw -> new BigDecimal(unsignedLong(((Number) raw).longValue())));
                }
                return new ColumnConverter(opt(SchemaBuilder.int64(), optional), raw -> ((Number) raw).longValue());
            case FLOAT:
                return new ColumnConverter(opt(SchemaBuilder.float32(), optional), raw -> ((Number) raw).floatValue());
            case DOUBLE:
                return new ColumnConverter(opt(SchemaBuilder.float64(), optional), raw -> ((Number) raw).doubleValue());
            case NEWDECIMAL:
            case DECIMAL: {
                int precision = c.meta() & 0xFF;
                int scale = c.meta() >> 8;
                return new ColumnConverter(opt(Decimal.builder(scale).parameter(PRECISION, String.valueOf(precision)),
                        optional), raw -> ((BigDecimal) raw).setScale(scale));
            }
            case BIT: {
                int bits = (c.meta() >> 8) * 8 + (c.meta() & 0xFF);
                if (bits == 1) {
                    return new ColumnConverter(opt(SchemaBuilder.bool(), optional), raw -> ((BitSet) raw).get(0));
                }
                int bytes = (bits + 7) / 8;
                return new ColumnConverter(opt(debezium(SchemaBuilder.bytes(), "io.debezium.data.Bits")
                        .parameter("length", String.valueOf(bits)), optional),
                        raw -> Arrays.copyOf(((BitSet) raw).toByteArray(), bytes)); // little-endian, as Debezium
            }
            case DATE:
            case NEWDATE:
                return new ColumnConverter(opt(debezium(SchemaBuilder.int32(), "io.debezium.time.Date"), true),
                        raw -> (int) ((LocalDate) raw).toEpochDay());
            case TIME:
            case TIME_V2:
                return new ColumnConverter(opt(debezium(SchemaBuilder.int64(), "io.debezium.time.MicroTime"),
                        optional), raw -> ((Duration) raw).toNanos() / 1000);
            case DATETIME:
            case DATETIME_V2:
                if (c.fsp() <= 3) {
                    return new ColumnConverter(opt(debezium(SchemaBuilder.int64(), "io.debezium.time.Timestamp"),
                            true), raw -> Math.floorDiv(epochMicros((LocalDateTime) raw), 1000L));
                }
                return new ColumnConverter(opt(debezium(SchemaBuilder.int64(), "io.debezium.time.MicroTimestamp"),
                        true), raw -> epochMicros((LocalDateTime) raw));
            case TIMESTAMP:
            case TIMESTAMP_V2: {
                DateTimeFormatter format = ZONED[Math.min(c.fsp(), 6)];
                return new ColumnConverter(opt(debezium(SchemaBuilder.string(), "io.debezium.time.ZonedTimestamp"),
                        true), raw -> format.format((Instant) raw));
            }
            case YEAR:
                return new ColumnConverter(opt(debezium(SchemaBuilder.int32(), "io.debezium.time.Year"), optional),
                        raw -> ((Number) raw).intValue());
            case STRING:
            case VARCHAR:
            case VAR_STRING:
            case TINY_BLOB:
            case MEDIUM_BLOB:
            case LONG_BLOB:
            case BLOB:
                if (c.isBinary() || charset == null) {
                    int padTo = c.type() == ColumnType.STRING ? c.byteLength() : 0;
                    return new ColumnConverter(opt(SchemaBuilder.bytes(), optional), raw -> padded(bytes(raw), padTo));
                }
                return new ColumnConverter(opt(SchemaBuilder.string(), optional),
                        raw -> raw instanceof byte[] b ? new String(b, charset) : raw.toString());
            case ENUM: {
                String[] values = c.enumOrSetValues();
                SchemaBuilder sb = debezium(SchemaBuilder.string(), "io.debezium.data.Enum");
                if (values != null) {
                    sb.parameter("allowed", String.join(",", values));
                }
                return new ColumnConverter(opt(sb, optional), raw -> enumValue(values, ((Number) raw).intValue()));
            }
            case SET: {
                String[] values = c.enumOrSetValues();
                SchemaBuilder sb = debezium(SchemaBuilder.string(), "io.debezium.data.EnumSet");
                if (values != null) {
                    sb.parameter("allowed", String.join(",", values));
                }
                return new ColumnConverter(opt(sb, optional), raw -> setValue(values, ((Number) raw).longValue()));
            }
            case JSON:
                return new ColumnConverter(opt(debezium(SchemaBuilder.string(), "io.debezium.data.Json"), optional),
                        raw -> {
                            if (raw instanceof String text) {
                                return text; // a copy row reads JSON as text
                            }
                            try {
                                return JsonBinary.parseAsString((byte[]) raw);
                            } catch (IOException e) {
                                throw new UncheckedIOException("Cannot decode JSON column " + c.name(), e);
                            }
                        });
            case GEOMETRY: {
                Schema geometry = opt(debezium(SchemaBuilder.struct(), GEOMETRY).doc("Geometry")
                        .field("wkb", Schema.BYTES_SCHEMA).field("srid", Schema.OPTIONAL_INT32_SCHEMA), optional);
                return new ColumnConverter(geometry, raw -> geometry(geometry, bytes(raw)));
            }
            case VECTOR:
            default:
                return new ColumnConverter(opt(SchemaBuilder.bytes(), optional), raw -> bytes(raw));
        }
    }

    /** Names a Debezium logical type (version 1, as Debezium declares them). */
    private static SchemaBuilder debezium(SchemaBuilder b, String name) {
        return b.name(name).version(1);
    }

    /** Microseconds since the epoch of a local date-time read as UTC (DATETIME has no zone). */
    static long epochMicros(LocalDateTime t) {
        return t.toEpochSecond(ZoneOffset.UTC) * 1_000_000L + t.getNano() / 1000;
    }

    /** The server's geometry format is a 4-byte little-endian SRID followed by the WKB. */
    private static Struct geometry(Schema schema, byte[] internal) {
        Struct s = new Struct(schema);
        if (internal.length < 4) {
            return s.put("wkb", internal);
        }
        int srid = ByteBuffer.wrap(internal, 0, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
        return s.put("wkb", Arrays.copyOfRange(internal, 4, internal.length)).put("srid", srid);
    }

    /** A BINARY(n) value with the trailing 0x00 bytes the binlog leaves out put back. */
    private static byte[] padded(byte[] b, int length) {
        return b.length < length ? Arrays.copyOf(b, length) : b;
    }

    private static Schema opt(SchemaBuilder b, boolean optional) {
        return optional ? b.optional().build() : b.build();
    }

    private static byte[] bytes(Serializable raw) {
        return raw instanceof byte[] b ? b : raw.toString().getBytes(StandardCharsets.UTF_8);
    }

    static BigInteger unsignedLong(long v) {
        BigInteger b = BigInteger.valueOf(v & Long.MAX_VALUE);
        return v < 0 ? b.setBit(63) : b;
    }

    private static String enumValue(String[] values, int index) {
        if (index == 0) {
            return ""; // the server's "invalid value" marker is the empty string
        }
        if (values == null || index > values.length) {
            return String.valueOf(index);
        }
        return values[index - 1];
    }

    private static String setValue(String[] values, long bits) {
        StringJoiner j = new StringJoiner(",");
        for (int i = 0; i < 64; i++) {
            if ((bits & (1L << i)) != 0) {
                j.add(values != null && i < values.length ? values[i] : String.valueOf(i));
            }
        }
        return j.toString();
    }
}
