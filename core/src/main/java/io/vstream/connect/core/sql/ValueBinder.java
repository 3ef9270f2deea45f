package io.vstream.connect.core.sql;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Calendar;
import java.util.TimeZone;

/**
 * Binds Connect-side Java values to {@link PreparedStatement} parameters with the setter that keeps their exact
 * value, so no statement ever carries a value as SQL text.
 *
 * <p>Choices that matter: a {@link BigInteger} (BIGINT UNSIGNED above 2^63-1) goes as a decimal; instants
 * ({@link Instant}, {@link OffsetDateTime}, {@link ZonedDateTime}, {@link java.util.Date}) go as their UTC wall-clock
 * time, so the writing session must use {@code time_zone = '+00:00'}; local dates and times go through
 * {@code setObject} (JDBC 4.2) so the JVM's time zone never shifts them, local date-times as their text (see
 * {@link #bindDateTime}). Connect's {@code Date} and {@code Time}
 * logical types also arrive as {@link java.util.Date}: callers that know the column is DATE or TIME should pass a
 * {@link LocalDate} or {@link LocalTime} instead.
 */
public final class ValueBinder {

    private static final TimeZone UTC = TimeZone.getTimeZone(ZoneOffset.UTC);
    /** A date-time as the server reads it, the year proleptic ({@code uuuu}: the year 0000 is 0000, not 1 BC). */
    private static final DateTimeFormatter DATE_TIME = DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss.SSSSSS");

    private ValueBinder() {
    }

    /**
     * Binds {@code value} to parameter {@code index} (1-based) of {@code ps}.
     *
     * @throws IllegalArgumentException naming the type if it is not one of the supported types
     * @throws SQLException             if the driver refuses the value
     */
    public static void bind(PreparedStatement ps, int index, Object value) throws SQLException {
        if (value == null) {
            ps.setNull(index, Types.NULL);
        } else if (value instanceof String) {
            ps.setString(index, (String) value);
        } else if (value instanceof Long) {
            ps.setLong(index, (Long) value);
        } else if (value instanceof Integer) {
            ps.setInt(index, (Integer) value);
        } else if (value instanceof Short) {
            ps.setShort(index, (Short) value);
        } else if (value instanceof Byte) {
            ps.setByte(index, (Byte) value);
        } else if (value instanceof Boolean) {
            ps.setBoolean(index, (Boolean) value);
        } else if (value instanceof BigDecimal) {
            ps.setBigDecimal(index, (BigDecimal) value);
        } else if (value instanceof BigInteger) {
            ps.setBigDecimal(index, new BigDecimal((BigInteger) value));
        } else if (value instanceof Double) {
            ps.setDouble(index, (Double) value);
        } else if (value instanceof Float) {
            // as the double of its exact value: the float's shortest text (-3.4028235E38) reads on the server as a
            // double beyond the float range (out of range in strict mode); the exact double rounds to the same float
            ps.setDouble(index, ((Float) value).doubleValue());
        } else if (value instanceof byte[]) {
            ps.setBytes(index, (byte[]) value);
        } else if (value instanceof ByteBuffer) {
            ps.setBytes(index, remaining((ByteBuffer) value));
        } else {
            bindTemporal(ps, index, value);
        }
    }

    /**
     * A date-time goes as its text to the microsecond: MariaDB Connector/J 3.5 writes the year 0000 of a {@link
     * LocalDateTime} as 0001 (its text protocol formats the year of the era), though DATETIME holds the year 0000.
     * A value finer than the microsecond, which no column holds, is left to the driver.
     */
    private static void bindDateTime(PreparedStatement ps, int index, LocalDateTime value) throws SQLException {
        if (value.getNano() % 1000 == 0) {
            ps.setString(index, dateTimeText(value));
        } else {
            ps.setObject(index, value);
        }
    }

    /**
     * {@code value} (whole microseconds) as {@code uuuu-MM-dd HH:mm:ss.SSSSSS}, the server's text of a DATETIME(6):
     * written digit by digit for the years 0-9999 (what a copy binds for every temporal cell, so the formatter's own
     * cost showed in the sink's profile), by the formatter otherwise.
     */
    static String dateTimeText(LocalDateTime value) {
        int year = value.getYear();
        if (year < 0 || year > 9999) {
            return DATE_TIME.format(value);
        }
        char[] c = new char[26];
        digits(c, 0, year, 4);
        c[4] = '-';
        digits(c, 5, value.getMonthValue(), 2);
        c[7] = '-';
        digits(c, 8, value.getDayOfMonth(), 2);
        c[10] = ' ';
        digits(c, 11, value.getHour(), 2);
        c[13] = ':';
        digits(c, 14, value.getMinute(), 2);
        c[16] = ':';
        digits(c, 17, value.getSecond(), 2);
        c[19] = '.';
        digits(c, 20, value.getNano() / 1000, 6);
        return new String(c);
    }

    private static void digits(char[] out, int at, int value, int width) {
        for (int i = at + width - 1; i >= at; i--) {
            out[i] = (char) ('0' + value % 10);
            value /= 10;
        }
    }

    private static void bindTemporal(PreparedStatement ps, int index, Object value) throws SQLException {
        if (value instanceof LocalDateTime) {
            bindDateTime(ps, index, (LocalDateTime) value);
        } else if (value instanceof LocalDate || value instanceof LocalTime) {
            ps.setObject(index, value);
        } else if (value instanceof Instant) {
            bindDateTime(ps, index, LocalDateTime.ofInstant((Instant) value, ZoneOffset.UTC));
        } else if (value instanceof OffsetDateTime) {
            bindDateTime(ps, index, ((OffsetDateTime) value).withOffsetSameInstant(ZoneOffset.UTC).toLocalDateTime());
        } else if (value instanceof ZonedDateTime) {
            bindDateTime(ps, index, LocalDateTime.ofInstant(((ZonedDateTime) value).toInstant(), ZoneOffset.UTC));
        } else if (value instanceof java.sql.Date) {
            ps.setDate(index, (java.sql.Date) value);
        } else if (value instanceof java.sql.Time) {
            ps.setTime(index, (java.sql.Time) value);
        } else if (value instanceof Timestamp) {
            ps.setTimestamp(index, (Timestamp) value, Calendar.getInstance(UTC));
        } else if (value instanceof java.util.Date) {
            ps.setTimestamp(index, new Timestamp(((java.util.Date) value).getTime()), Calendar.getInstance(UTC));
        } else {
            throw new IllegalArgumentException("Cannot bind a value of type " + value.getClass().getName()
                    + " to parameter " + index + "; supported: null, Boolean, Byte, Short, Integer, Long, BigInteger, "
                    + "BigDecimal, Float, Double, String, byte[], ByteBuffer, java.util.Date, LocalDate, LocalTime, "
                    + "LocalDateTime, Instant, OffsetDateTime, ZonedDateTime");
        }
    }

    private static byte[] remaining(ByteBuffer buffer) {
        ByteBuffer view = buffer.duplicate(); // leave the caller's position alone
        byte[] bytes = new byte[view.remaining()];
        view.get(bytes);
        return bytes;
    }
}
