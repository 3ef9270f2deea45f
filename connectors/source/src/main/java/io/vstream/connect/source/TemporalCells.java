package io.vstream.connect.source;

import com.github.shyiko.mysql.binlog.event.deserialization.ColumnType;
import com.github.shyiko.mysql.binlog.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.Serializable;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.YearMonth;

/**
 * Reads the temporal cells (and YEAR) of a binlog row image exactly, from the server's storage formats
 * ({@code sql-common/my_time.cc}): proleptic Gregorian dates whatever the year, TIME with its sign and up to 838
 * hours, every fractional digit. The binlog client's own decoding loses the sign of a negative TIME, switches to the
 * Julian calendar before 1582 and reads YEAR 0000 as 1900; this class replaces it (see {@link BinlogDeserializers}).
 *
 * <p>Values: DATE is a {@link LocalDate}, DATETIME a {@link LocalDateTime}, TIMESTAMP an {@link Instant}, TIME a
 * signed {@link Duration}, YEAR an {@link Integer} (0 for YEAR 0000). A zero or invalid date (a zero year, month
 * and day; a zero month or day under a permissive {@code sql_mode}; a day past the month's end under
 * {@code ALLOW_INVALID_DATES}) and the zero TIMESTAMP are {@code null} from the decoding methods: no calendar value
 * stands for them; {@link #read} gives them as {@link InvalidTemporal}, the server's text.
 */
final class TemporalCells {
    private static final long TIMEF_INT_OFS = 0x800000L;
    private static final long TIMEF_OFS = 0x800000000000L;
    private static final long DATETIMEF_INT_OFS = 0x8000000000L;

    private TemporalCells() {
    }

    /** Whether {@link #read} decodes cells of this (real) column type. */
    static boolean handles(ColumnType type) {
        return switch (type) {
            case DATE, TIME, TIME_V2, DATETIME, DATETIME_V2, TIMESTAMP, TIMESTAMP_V2, YEAR -> true;
            default -> false;
        };
    }

    /** Reads one cell of a type {@link #handles} from a row image; {@code meta} is the TABLE_MAP metadata. */
    static Serializable read(ColumnType type, int meta, ByteArrayInputStream in) throws IOException {
        return switch (type) {
            case DATE -> {
                int packed = in.readInteger(3);
                LocalDate d = date(packed);
                yield d != null ? d : InvalidTemporal.date(packed >>> 9, (packed >>> 5) & 0x0F, packed & 0x1F);
            }
            case TIME -> time(in.readInteger(3));
            case TIME_V2 -> time2(meta, in.read(3 + fractionBytes(meta)));
            case DATETIME -> datetimeFields(in.readLong(8)).valueOrText(0);
            case DATETIME_V2 -> datetime2Fields(meta, in.read(5 + fractionBytes(meta))).valueOrText(meta);
            case TIMESTAMP -> {
                Instant t = timestamp(in.readLong(4), 0);
                yield t != null ? t : InvalidTemporal.datetime(0, 0, 0, 0, 0, 0, 0, 0);
            }
            case TIMESTAMP_V2 -> {
                Instant t = timestamp2(meta, in.read(4 + fractionBytes(meta)));
                yield t != null ? t : InvalidTemporal.datetime(0, 0, 0, 0, 0, 0, 0, meta);
            }
            case YEAR -> year(in.readInteger(1));
            default -> throw new IllegalArgumentException("not a temporal type: " + type);
        };
    }

    /** Bytes of the fractional part of a TIME2/DATETIME2/TIMESTAMP2 with {@code fsp} digits. */
    static int fractionBytes(int fsp) {
        return (fsp + 1) / 2;
    }

    /** DATE: 3 bytes little-endian, {@code year << 9 | month << 5 | day}. */
    static LocalDate date(int packed) {
        return calendarDate(packed >>> 9, (packed >>> 5) & 0x0F, packed & 0x1F);
    }

    /** TIME (pre-5.6 format): 3 bytes little-endian, signed {@code ±HHMMSS}. */
    static Duration time(int unsigned24) {
        int v = (unsigned24 << 8) >> 8; // sign-extend
        long abs = Math.abs((long) v);
        long seconds = (abs / 10000) * 3600 + (abs / 100 % 100) * 60 + abs % 100;
        return Duration.ofSeconds(v < 0 ? -seconds : seconds);
    }

    /**
     * TIME2 (MySQL 5.6+, MariaDB with {@code mysql56_temporal_format}): big-endian, offset by {@code 0x800000} so that
     * it sorts as bytes; a negative value with a fraction stores the fraction complemented.
     */
    static Duration time2(int fsp, byte[] b) {
        long packed; // MySQL's "packed time": (±hms << 24) + microseconds
        long intPart = bigEndian(b, 0, 3) - TIMEF_INT_OFS;
        switch (fsp) {
            case 1, 2 -> {
                long frac = b[3] & 0xFF;
                if (intPart < 0 && frac != 0) {
                    intPart++;
                    frac -= 0x100;
                }
                packed = (intPart << 24) + frac * 10_000;
            }
            case 3, 4 -> {
                long frac = bigEndian(b, 3, 2);
                if (intPart < 0 && frac != 0) {
                    intPart++;
                    frac -= 0x10000;
                }
                packed = (intPart << 24) + frac * 100;
            }
            case 5, 6 -> packed = bigEndian(b, 0, 6) - TIMEF_OFS;
            default -> packed = intPart << 24;
        }
        boolean negative = packed < 0;
        long abs = Math.abs(packed);
        long hms = abs >> 24;
        long micros = ((hms >> 12) % 1024 * 3600 + (hms >> 6) % 64 * 60 + hms % 64) * 1_000_000L + abs % (1 << 24);
        return Duration.ofNanos((negative ? -micros : micros) * 1000);
    }

    /** The fields of a DATETIME cell as stored, before they are taken as a calendar value. */
    private record DateTimeFields(int year, int month, int day, int hour, int minute, int second, long micros) {
        /** The value, or {@code null} when no calendar has the date. */
        LocalDateTime value() {
            LocalDate date = calendarDate(year, month, day);
            return date == null ? null : date.atTime(hour, minute, second, (int) Math.abs(micros) * 1000);
        }

        /** The value, or the server's text ({@code fsp} fractional digits) when no calendar has the date. */
        Serializable valueOrText(int fsp) {
            LocalDateTime v = value();
            return v != null ? v : InvalidTemporal.datetime(year, month, day, hour, minute, second, micros, fsp);
        }
    }

    /** DATETIME (pre-5.6 format): 8 bytes little-endian, {@code YYYYMMDDhhmmss} as a number. */
    static LocalDateTime datetime(long v) {
        return datetimeFields(v).value();
    }

    private static DateTimeFields datetimeFields(long v) {
        return new DateTimeFields((int) (v / 10_000_000_000L), (int) (v / 100_000_000 % 100),
                (int) (v / 1_000_000 % 100), (int) (v / 10_000 % 100), (int) (v / 100 % 100), (int) (v % 100), 0);
    }

    /**
     * DATETIME2: 5 bytes big-endian offset by {@code 0x8000000000}: 17 bits year*13+month, 5 day, 5 hour, 6 minute,
     * 6 second; then the fraction.
     */
    static LocalDateTime datetime2(int fsp, byte[] b) {
        return datetime2Fields(fsp, b).value();
    }

    private static DateTimeFields datetime2Fields(int fsp, byte[] b) {
        long intPart = bigEndian(b, 0, 5) - DATETIMEF_INT_OFS;
        long frac = switch (fsp) {
            case 1, 2 -> (long) b[5] * 10_000;
            case 3, 4 -> (long) (short) bigEndian(b, 5, 2) * 100;
            case 5, 6 -> (bigEndian(b, 5, 3) << 40) >> 40;
            default -> 0;
        };
        long ymdhms = Math.abs(intPart);
        long ymd = ymdhms >> 17;
        long ym = ymd >> 5;
        long hms = ymdhms % (1 << 17);
        return new DateTimeFields((int) (ym / 13), (int) (ym % 13), (int) (ymd % 32), (int) (hms >> 12),
                (int) ((hms >> 6) % 64), (int) (hms % 64), frac);
    }

    /** TIMESTAMP: seconds since the epoch (UTC); 0 is the zero timestamp. */
    static Instant timestamp(long seconds, long micros) {
        if (seconds == 0 && micros == 0) {
            return null;
        }
        return Instant.ofEpochSecond(seconds, micros * 1000);
    }

    /** TIMESTAMP2: 4 bytes big-endian seconds since the epoch (UTC), then the fraction. */
    static Instant timestamp2(int fsp, byte[] b) {
        long frac = switch (fsp) {
            case 1, 2 -> (long) (b[4] & 0xFF) * 10_000;
            case 3, 4 -> bigEndian(b, 4, 2) * 100;
            case 5, 6 -> bigEndian(b, 4, 3);
            default -> 0;
        };
        return timestamp(bigEndian(b, 0, 4), frac);
    }

    /** YEAR: one byte, 0 for the year 0000, else the year minus 1900. */
    static Integer year(int v) {
        return v == 0 ? 0 : 1900 + v;
    }

    /** The date, or {@code null} for a zero date, a zero month or day, or a day the month does not have. */
    private static LocalDate calendarDate(int year, int month, int day) {
        if (month < 1 || month > 12 || day < 1 || day > YearMonth.of(year, month).lengthOfMonth()) {
            return null;
        }
        return LocalDate.of(year, month, day);
    }

    private static long bigEndian(byte[] b, int offset, int length) {
        long v = 0;
        for (int i = offset; i < offset + length; i++) {
            v = (v << 8) | (b[i] & 0xFF);
        }
        return v;
    }
}
