package io.vstream.connect.core.event;

import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;

/**
 * Turns the Connect value of a column, as our row events carry it (docs/data-types.md), back into the Java value a
 * MySQL/MariaDB statement binds ({@link io.vstream.connect.core.sql.ValueBinder}): the inverse of the source's column
 * mapping. The session that binds must run with {@code time_zone='+00:00'}.
 */
public final class RowValues {
    public static final String DATE = "io.debezium.time.Date";
    public static final String TIMESTAMP = "io.debezium.time.Timestamp";
    public static final String MICRO_TIMESTAMP = "io.debezium.time.MicroTimestamp";
    public static final String ZONED_TIMESTAMP = "io.debezium.time.ZonedTimestamp";
    public static final String MICRO_TIME = "io.debezium.time.MicroTime";
    public static final String BITS = "io.debezium.data.Bits";
    public static final String GEOMETRY = "io.debezium.data.geometry.Geometry";

    private RowValues() {
    }

    /** Whether the column's values are spatial (bound as {@code ST_GeomFromWKB(?, ?)}: WKB bytes and SRID). */
    public static boolean isGeometry(Schema schema) {
        return GEOMETRY.equals(schema.name());
    }

    /**
     * The value to bind for a column; {@code null} stays {@code null} (a zero date in a NOT NULL column is the
     * caller's rule, see {@link #zeroDate(Schema)}).
     */
    public static Object toSql(Schema schema, Object value) {
        if (value == null) {
            return null;
        }
        String name = schema.name();
        if (name != null) {
            switch (name) {
                case DATE:
                    return LocalDate.ofEpochDay(((Number) value).longValue());
                case TIMESTAMP: {
                    long millis = ((Number) value).longValue();
                    return LocalDateTime.ofEpochSecond(Math.floorDiv(millis, 1000L),
                            (int) Math.floorMod(millis, 1000L) * 1_000_000, ZoneOffset.UTC);
                }
                case MICRO_TIMESTAMP: {
                    long micros = ((Number) value).longValue();
                    return LocalDateTime.ofEpochSecond(Math.floorDiv(micros, 1_000_000L),
                            (int) Math.floorMod(micros, 1_000_000L) * 1000, ZoneOffset.UTC);
                }
                case ZONED_TIMESTAMP:
                    return LocalDateTime.ofInstant(Instant.parse((String) value), ZoneOffset.UTC);
                case MICRO_TIME:
                    return timeText(((Number) value).longValue());
                case BITS: {
                    byte[] little = bytes(value);
                    byte[] big = new byte[little.length];
                    for (int i = 0; i < little.length; i++) {
                        big[i] = little[little.length - 1 - i];
                    }
                    return big;
                }
                default:
                    break;
            }
        }
        if (value instanceof ByteBuffer) {
            return bytes(value);
        }
        return value;
    }

    /** For a spatial column: the WKB bytes and SRID to bind to {@code ST_GeomFromWKB(?, ?)}. */
    public static Object[] geometry(Object value) {
        if (value == null) {
            return new Object[] {null, null};
        }
        Struct s = (Struct) value;
        Integer srid = s.getInt32("srid");
        return new Object[] {bytes(s.get("wkb")), srid == null ? 0 : srid};
    }

    /**
     * The literal a NOT NULL column receives for a null value of this schema: the zero date for DATE, DATETIME and
     * TIMESTAMP columns (the source carries a zero date as null), or {@code null} when null has no other meaning.
     */
    public static Object zeroDate(Schema schema) {
        String name = schema.name();
        if (DATE.equals(name)) {
            return "0000-00-00";
        }
        if (TIMESTAMP.equals(name) || MICRO_TIMESTAMP.equals(name) || ZONED_TIMESTAMP.equals(name)) {
            return "0000-00-00 00:00:00";
        }
        return null;
    }

    /** Signed microseconds as MySQL TIME text, {@code [-]HHH:MM:SS.ffffff}. */
    static String timeText(long micros) {
        boolean negative = micros < 0;
        long m = Math.abs(micros);
        long seconds = m / 1_000_000L;
        long frac = m % 1_000_000L;
        return String.format("%s%02d:%02d:%02d.%06d", negative ? "-" : "", seconds / 3600, (seconds / 60) % 60,
                seconds % 60, frac);
    }

    private static byte[] bytes(Object v) {
        if (v instanceof byte[] b) {
            return b;
        }
        ByteBuffer buf = ((ByteBuffer) v).duplicate();
        byte[] out = new byte[buf.remaining()];
        buf.get(out);
        return out;
    }

    /**
     * About how many bytes a row image's values take in a statement (text and binary values by their length, other
     * values 8): what bounds a multi-row statement.
     */
    public static long approximateBytes(Struct row) {
        long bytes = 0;
        for (org.apache.kafka.connect.data.Field f : row.schema().fields()) {
            Object v = row.get(f);
            if (v instanceof String s) {
                bytes += s.length();
            } else if (v instanceof byte[] b) {
                bytes += b.length;
            } else if (v instanceof ByteBuffer b) {
                bytes += b.remaining();
            } else if (v instanceof Struct s) {
                bytes += approximateBytes(s);
            } else {
                bytes += 8;
            }
        }
        return bytes;
    }
}
