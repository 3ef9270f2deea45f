package io.vstream.connect.source;

import com.github.shyiko.mysql.binlog.event.deserialization.ColumnType;
import java.io.Serializable;
import java.math.BigDecimal;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.BitSet;

/**
 * Reads a copy row's cells from a {@link ResultSet} into the same Java values the binlog deserializer produces for
 * that column (see {@link BinlogDeserializers} and {@link TemporalCells}), so that {@link ColumnConverter} turns copy
 * rows and binlog rows of a table into identical Connect values. Temporal values are read as the server's text
 * ({@link ChunkQuery#readAsText}; the session runs with {@code time_zone='+00:00'}), so neither a JDBC time-zone
 * conversion nor the driver's formatting touches them; zero and invalid dates become {@link InvalidTemporal} (the
 * server's text).
 */
final class JdbcCells {
    private JdbcCells() {
    }

    static Serializable read(ResultSet rs, int index, BinlogColumn c) throws SQLException {
        ColumnType t = c.type();
        switch (t) {
            case TINY, SHORT, INT24, LONG, YEAR: {
                long v = rs.getLong(index);
                return rs.wasNull() ? null : v;
            }
            case LONGLONG: {
                if (c.unsigned()) {
                    BigDecimal d = rs.getBigDecimal(index);
                    return d == null ? null : d.toBigIntegerExact().longValue(); // two's complement, as the binlog
                }
                long v = rs.getLong(index);
                return rs.wasNull() ? null : v;
            }
            case FLOAT: { // read as the double of its value (ChunkQuery.isFloat): exactly that float
                double v = rs.getDouble(index);
                return rs.wasNull() ? null : (float) v;
            }
            case DOUBLE: {
                double v = rs.getDouble(index);
                return rs.wasNull() ? null : v;
            }
            case NEWDECIMAL, DECIMAL:
                return rs.getBigDecimal(index);
            case BIT: {
                byte[] b = rs.getBytes(index);
                if (b == null) {
                    return null;
                }
                byte[] little = new byte[b.length];
                for (int i = 0; i < b.length; i++) {
                    little[i] = b[b.length - 1 - i];
                }
                return BitSet.valueOf(little);
            }
            case DATE, NEWDATE: {
                String s = rs.getString(index);
                if (s == null) {
                    return null;
                }
                LocalDate d = date(s);
                return d != null ? d : new InvalidTemporal(s.trim());
            }
            case DATETIME, DATETIME_V2: {
                String s = rs.getString(index);
                if (s == null) {
                    return null;
                }
                LocalDateTime dt = datetime(s);
                return dt != null ? dt : new InvalidTemporal(s.trim());
            }
            case TIMESTAMP, TIMESTAMP_V2: {
                String s = rs.getString(index);
                if (s == null) {
                    return null;
                }
                LocalDateTime dt = datetime(s);
                return dt != null ? dt.toInstant(ZoneOffset.UTC) : new InvalidTemporal(s.trim());
            }
            case TIME, TIME_V2: {
                String s = rs.getString(index);
                return s == null ? null : time(s);
            }
            case ENUM: { // its index (ChunkQuery.readAsNumber)
                int v = rs.getInt(index);
                return rs.wasNull() ? null : v;
            }
            case SET: { // its bits
                long v = rs.getLong(index);
                return rs.wasNull() ? null : v;
            }
            case STRING, VARCHAR, VAR_STRING, TINY_BLOB, MEDIUM_BLOB, LONG_BLOB, BLOB:
                return c.isBinary() ? rs.getBytes(index) : rs.getString(index);
            case JSON:
                return rs.getString(index); // MySQL's JSON as text; ColumnConverter passes text through
            default:
                return rs.getBytes(index);
        }
    }

    static LocalDate date(String s) {
        try {
            return LocalDate.parse(s.trim());
        } catch (DateTimeParseException e) {
            return null; // 0000-00-00 and other invalid dates
        }
    }

    /**
     * {@code YYYY-MM-DD HH:MM:SS[.f...]} as the server sends it; null for an invalid one (a zero date). Read by position
     * (the copy reads every DATETIME and TIMESTAMP cell of every row, and the java.time parser took a third of the
     * copy's reading time); anything else goes through {@link LocalDateTime#parse}.
     */
    static LocalDateTime datetime(String s) {
        String v = s.trim();
        int n = v.length();
        if (n >= 19 && n != 20 && n <= 29 && v.charAt(4) == '-' && v.charAt(7) == '-'
                && (v.charAt(10) == ' ' || v.charAt(10) == 'T') && v.charAt(13) == ':' && v.charAt(16) == ':'
                && (n == 19 || v.charAt(19) == '.')) {
            int year = digits(v, 0, 4);
            int month = digits(v, 5, 7);
            int day = digits(v, 8, 10);
            int hour = digits(v, 11, 13);
            int minute = digits(v, 14, 16);
            int second = digits(v, 17, 19);
            int fraction = n == 19 ? 0 : digits(v, 20, n);
            if ((year | month | day | hour | minute | second | fraction) >= 0) {
                int nanos = fraction;
                for (int i = n - 20; n > 19 && i < 9; i++) {
                    nanos *= 10;
                }
                try {
                    return LocalDateTime.of(year, month, day, hour, minute, second, nanos);
                } catch (java.time.DateTimeException e) {
                    return null; // a zero date, or a day the month does not have
                }
            }
        }
        try {
            return LocalDateTime.parse(v.replace(' ', 'T'));
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    /** The decimal number in {@code s[from, to)}, or -1 when a character there is not a digit. */
    private static int digits(String s, int from, int to) {
        int value = 0;
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            value = value * 10 + (c - '0');
        }
        return value;
    }

    /** {@code [-]HHH:MM:SS[.ffffff]} as a signed duration. */
    static Duration time(String s) {
        String v = s.trim();
        boolean negative = v.startsWith("-");
        if (negative) {
            v = v.substring(1);
        }
        String[] parts = v.split(":");
        long hours = Long.parseLong(parts[0]);
        long minutes = Long.parseLong(parts[1]);
        String sec = parts[2];
        long micros = 0;
        int dot = sec.indexOf('.');
        if (dot >= 0) {
            String frac = (sec.substring(dot + 1) + "000000").substring(0, 6);
            micros = Long.parseLong(frac);
            sec = sec.substring(0, dot);
        }
        long total = ((hours * 60 + minutes) * 60 + Long.parseLong(sec)) * 1_000_000L + micros;
        return Duration.ofNanos((negative ? -total : total) * 1000L);
    }
}
