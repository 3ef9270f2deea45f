package io.vstream.connect.source;

import com.github.shyiko.mysql.binlog.event.deserialization.json.JsonBinary;
import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.Charset;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.temporal.ChronoField;
import java.util.Arrays;
import java.util.BitSet;
import java.util.StringJoiner;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;

/**
 * Converts one column's binlog value into its Connect value, and declares the Connect schema it is carried in. The
 * mapping of every MySQL/MariaDB type is documented in docs/source.md ("Data types"); names of logical types follow
 * Debezium's ({@code io.debezium.time.MicroTimestamp}, ...) so the Debezium ecosystem reads them.
 */
final class ColumnConverter {
    interface Fn {
        Object convert(Serializable raw);
    }

    private static final DateTimeFormatter ZONED = new DateTimeFormatterBuilder()
            .appendPattern("uuuu-MM-dd'T'HH:mm:ss")
            .optionalStart().appendFraction(ChronoField.MICRO_OF_SECOND, 0, 6, true).optionalEnd()
            .appendLiteral('Z')
            .toFormatter()
            .withZone(ZoneOffset.UTC);
    private static final long MICROS_PER_DAY = 86_400_000_000L;

    private final Schema schema;
    private final Fn fn;

    private ColumnConverter(Schema schema, Fn fn) {
        this.schema = schema;
        this.fn = fn;
    }

    Schema schema() {
        return schema;
    }

    /** The Connect value of a raw binlog value; {@code null} stays {@code null}. */
    Object convert(Serializable raw) {
        return raw == null ? null : fn.convert(raw);
    }

    /**
     * The converter of a column. Key columns get required schemas; other columns are optional when nullable, and
     * DATE/DATETIME columns are always optional because a zero date ({@code 0000-00-00}) is carried as null.
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
                    return new ColumnConverter(opt(Decimal.builder(0).parameter("connect.decimal.precision", "20"),
                            optional), raw -> new BigDecimal(unsignedLong(((Number) raw).longValue())));
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
                return new ColumnConverter(opt(Decimal.builder(scale)
                        .parameter("connect.decimal.precision", String.valueOf(precision)), optional),
                        raw -> ((BigDecimal) raw).setScale(scale));
            }
            case BIT: {
                int bits = (c.meta() >> 8) * 8 + (c.meta() & 0xFF);
                if (bits == 1) {
                    return new ColumnConverter(opt(SchemaBuilder.bool(), optional), raw -> ((BitSet) raw).get(0));
                }
                int bytes = (bits + 7) / 8;
                return new ColumnConverter(opt(SchemaBuilder.bytes().name("io.debezium.data.Bits")
                        .parameter("length", String.valueOf(bits)), optional),
                        raw -> Arrays.copyOf(((BitSet) raw).toByteArray(), bytes));
            }
            case DATE:
            case NEWDATE:
                return new ColumnConverter(opt(SchemaBuilder.int32().name("io.debezium.time.Date"), true),
                        raw -> zeroDate(raw) ? null : (int) Math.floorDiv((Long) raw, MICROS_PER_DAY));
            case TIME:
            case TIME_V2:
                return new ColumnConverter(opt(SchemaBuilder.int64().name("io.debezium.time.MicroTime"), optional),
                        raw -> zeroDate(raw) ? null : (Long) raw);
            case DATETIME:
            case DATETIME_V2:
                if (c.fsp() <= 3) {
                    return new ColumnConverter(opt(SchemaBuilder.int64().name("io.debezium.time.Timestamp"), true),
                            raw -> zeroDate(raw) ? null : Math.floorDiv((Long) raw, 1000L));
                }
                return new ColumnConverter(opt(SchemaBuilder.int64().name("io.debezium.time.MicroTimestamp"), true),
                        raw -> zeroDate(raw) ? null : (Long) raw);
            case TIMESTAMP:
            case TIMESTAMP_V2:
                return new ColumnConverter(opt(SchemaBuilder.string().name("io.debezium.time.ZonedTimestamp"), true),
                        raw -> {
                            long micros = (Long) raw;
                            if (zeroDate(raw) || micros == 0) {
                                return null;
                            }
                            return ZONED.format(Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000L),
                                    Math.floorMod(micros, 1_000_000L) * 1000L));
                        });
            case YEAR:
                return new ColumnConverter(opt(SchemaBuilder.int32().name("io.debezium.time.Year"), optional),
                        raw -> ((Number) raw).intValue());
            case STRING:
            case VARCHAR:
            case VAR_STRING:
            case TINY_BLOB:
            case MEDIUM_BLOB:
            case LONG_BLOB:
            case BLOB:
                if (c.isBinary() || charset == null) {
                    return new ColumnConverter(opt(SchemaBuilder.bytes(), optional), raw -> bytes(raw));
                }
                return new ColumnConverter(opt(SchemaBuilder.string(), optional),
                        raw -> raw instanceof byte[] b ? new String(b, charset) : raw.toString());
            case ENUM: {
                String[] values = c.enumOrSetValues();
                SchemaBuilder sb = SchemaBuilder.string().name("io.debezium.data.Enum");
                if (values != null) {
                    sb.parameter("allowed", String.join(",", values));
                }
                return new ColumnConverter(opt(sb, optional), raw -> enumValue(values, ((Number) raw).intValue()));
            }
            case SET: {
                String[] values = c.enumOrSetValues();
                SchemaBuilder sb = SchemaBuilder.string().name("io.debezium.data.EnumSet");
                if (values != null) {
                    sb.parameter("allowed", String.join(",", values));
                }
                return new ColumnConverter(opt(sb, optional), raw -> setValue(values, ((Number) raw).longValue()));
            }
            case JSON:
                return new ColumnConverter(opt(SchemaBuilder.string().name("io.debezium.data.Json"), optional),
                        raw -> {
                            try {
                                return JsonBinary.parseAsString((byte[]) raw);
                            } catch (IOException e) {
                                throw new UncheckedIOException("Cannot decode JSON column " + c.name(), e);
                            }
                        });
            case GEOMETRY:
            case VECTOR:
            default:
                return new ColumnConverter(opt(SchemaBuilder.bytes(), optional), raw -> bytes(raw));
        }
    }

    private static Schema opt(SchemaBuilder b, boolean optional) {
        return optional ? b.optional().build() : b.build();
    }

    private static boolean zeroDate(Serializable raw) {
        return raw instanceof Long l && l == Long.MIN_VALUE;
    }

    private static byte[] bytes(Serializable raw) {
        return raw instanceof byte[] b ? b : raw.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
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
