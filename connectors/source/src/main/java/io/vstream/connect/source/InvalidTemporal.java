package io.vstream.connect.source;

import java.io.Serializable;

/**
 * A DATE, DATETIME or TIMESTAMP cell that no calendar value stands for (the zero date, a zero month or day, a day
 * past the month's end, the zero timestamp), as the server writes it: {@code 0000-00-00}, {@code 2024-00-10 10:00:00}.
 * The row's Connect value is {@code null} (there is no Date or Timestamp for it); the text travels beside it in a
 * header ({@code EventHeaders.INVALID_TEMPORAL}) so that a consumer that writes rows back writes the same value.
 */
record InvalidTemporal(String text) implements Serializable {
    static InvalidTemporal date(int year, int month, int day) {
        return new InvalidTemporal(ymd(year, month, day));
    }

    /** A datetime (or timestamp) with {@code fsp} fractional digits of {@code micros}. */
    static InvalidTemporal datetime(int year, int month, int day, int hour, int minute, int second, long micros,
                                    int fsp) {
        String t = ymd(year, month, day) + String.format(" %02d:%02d:%02d", hour, minute, second);
        if (fsp > 0) {
            t += "." + String.format("%06d", Math.abs(micros)).substring(0, Math.min(6, fsp));
        }
        return new InvalidTemporal(t);
    }

    private static String ymd(int year, int month, int day) {
        return String.format("%04d-%02d-%02d", year, month, day);
    }
}
