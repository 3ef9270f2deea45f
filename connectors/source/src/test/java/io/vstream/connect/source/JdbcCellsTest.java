package io.vstream.connect.source;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.LocalDateTime;
import java.time.format.DateTimeParseException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The DATETIME text the server sends, read by position, agrees with java.time's parser on every shape. */
class JdbcCellsTest {
    @Test
    void readsDatetimesAsJavaTimeDoes() {
        List<String> texts = List.of("2024-01-01 00:00:00", "2024-02-29 23:59:59", "2023-02-29 10:00:00",
                "0000-00-00 00:00:00", "0000-01-01 00:00:00", "9999-12-31 23:59:59.999999", "2024-06-30 12:34:56.5",
                "2024-06-30 12:34:56.123", "2024-06-30T12:34:56", "2024-13-01 00:00:00", "2024-06-31 00:00:00",
                "2024-06-30 24:00:00", " 2024-06-30 12:00:00 ", "2024-06-30 12:00:00.", "1970-01-01 00:00:00.000001",
                "2024-06-30 12:00:00.1234567891", "+12024-06-30T12:00:00", "2024-6-30 12:00:00");
        for (String text : texts) {
            assertThat(JdbcCells.datetime(text)).as(text).isEqualTo(javaTime(text));
        }
    }

    private static LocalDateTime javaTime(String text) {
        try {
            return LocalDateTime.parse(text.trim().replace(' ', 'T'));
        } catch (DateTimeParseException e) {
            return null;
        }
    }
}
