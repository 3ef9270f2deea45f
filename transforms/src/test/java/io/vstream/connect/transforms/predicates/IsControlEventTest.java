package io.vstream.connect.transforms.predicates;

import static org.assertj.core.api.Assertions.assertThat;

import io.vstream.connect.core.Version;
import io.vstream.connect.core.event.EventHeaders;
import io.vstream.connect.core.event.EventType;
import io.vstream.connect.core.event.RowEnvelope;
import io.vstream.connect.transforms.Records;
import java.util.Map;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.Test;

class IsControlEventTest {

    private final IsControlEvent<SourceRecord> isControl = new IsControlEvent<>();

    @Test
    void trueForEveryEventTypeButTheRowsWithAndWithoutSchema() {
        isControl.configure(Map.of());
        for (EventType type : EventType.values()) {
            SourceRecord r = Records.control(type, null, Schema.OPTIONAL_STRING_SCHEMA, null);
            assertThat(isControl.test(r)).as(type.name()).isEqualTo(type != EventType.ROW && type != EventType.ROWS);
        }
        assertThat(isControl.test(Records.schemaless(Records.commit()))).isTrue();
    }

    @Test
    void trueForAnEventTypeThisVersionDoesNotKnow() {
        SourceRecord r = Records.withoutHeaders(Records.begin());
        r.headers().addString(EventHeaders.EVENT, "RESHARD_STARTED");
        assertThat(isControl.test(r)).isTrue();
    }

    @Test
    void falseForRowsTheirTombstonesAndRecordsWithoutTheHeader() {
        assertThat(isControl.test(Records.insert(1, 1))).isFalse();
        assertThat(isControl.test(Records.rowRecord(RowEnvelope.Op.DELETE, Records.row(1, 1, null, null), null)))
                .isFalse();
        assertThat(isControl.test(Records.tombstone(1))).isFalse();
        assertThat(isControl.test(Records.withoutHeaders(Records.begin()))).isFalse();
    }

    @Test
    void reportsTheBuildVersionAndAnEmptyConfigDef() {
        assertThat(isControl.version()).isEqualTo(Version.get());
        assertThat(isControl.config().names()).isEmpty();
    }
}
