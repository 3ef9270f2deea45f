package io.vstream.connect.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.vstream.connect.core.event.EventHeaders;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.connect.header.ConnectHeaders;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.Test;

class InvalidCellsTest {
    private static SinkRecord record(ConnectHeaders headers) {
        return new SinkRecord("t", 0, null, null, null, null, 7L, null, null, headers);
    }

    @Test
    void aRecordWithoutSuchHeadersHasNone() {
        ConnectHeaders headers = new ConnectHeaders();
        headers.addString(EventHeaders.EVENT, "ROW");
        assertThat(InvalidCells.of(record(headers))).isNull();
    }

    @Test
    void readsDatesNoCalendarHasAndEnumIndexZero() {
        ConnectHeaders headers = new ConnectHeaders();
        headers.addString(EventHeaders.INVALID_TEMPORAL, "born=0000-00-00");
        headers.addString(EventHeaders.INVALID_TEMPORAL, "a=b=2024-00-10 10:11:12.000001"); // the last '=' splits
        headers.addBytes(EventHeaders.INVALID_ENUM, "grade".getBytes(StandardCharsets.UTF_8)); // a byte converter
        InvalidCells cells = InvalidCells.of(record(headers));
        assertThat(cells.temporals()).isEqualTo(Map.of("born", "0000-00-00", "a=b", "2024-00-10 10:11:12.000001"));
        assertThat(cells.enumIndexZero()).isEqualTo(Set.of("grade"));
        assertThat(cells.needsRelaxedMode()).isTrue();
    }

    @Test
    void datesAloneAreWrittenStrictly() {
        ConnectHeaders headers = new ConnectHeaders();
        headers.addString(EventHeaders.INVALID_TEMPORAL, "born=0000-00-00");
        InvalidCells cells = InvalidCells.of(record(headers));
        assertThat(cells.enumIndexZero()).isEmpty();
        assertThat(cells.needsRelaxedMode()).isFalse();
    }
}
