package io.vstream.connect.transforms.predicates;

import static org.assertj.core.api.Assertions.assertThat;

import io.vstream.connect.core.Version;
import io.vstream.connect.core.event.EventHeaders;
import io.vstream.connect.transforms.Records;
import java.util.Map;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.Test;

class IsRowEventTest {

    private final IsRowEvent<SourceRecord> isRow = new IsRowEvent<>();

    @Test
    void trueForRowsWithAndWithoutSchemaAndForTheirTombstones() {
        isRow.configure(Map.of());
        assertThat(isRow.test(Records.insert(1, 1))).isTrue();
        assertThat(isRow.test(Records.schemaless(Records.delete(1, 1)))).isTrue();
        assertThat(isRow.test(Records.tombstone(1))).isTrue();
    }

    @Test
    void falseForControlEventsAndRecordsWithoutTheHeader() {
        isRow.configure(Map.of());
        assertThat(isRow.test(Records.begin())).isFalse();
        assertThat(isRow.test(Records.commit())).isFalse();
        assertThat(isRow.test(Records.schemaless(Records.heartbeat()))).isFalse();
        assertThat(isRow.test(Records.withoutHeaders(Records.insert(1, 1)))).as("by the header only").isFalse();
        assertThat(isRow.test(new SourceRecord(null, null, "t", 0, Schema.STRING_SCHEMA, null))).isFalse();
    }

    @Test
    void readsTheHeaderInAnyFormAndCase() {
        SourceRecord r = Records.withoutHeaders(Records.insert(1, 1));
        r.headers().addBytes(EventHeaders.EVENT, " row ".getBytes());
        assertThat(isRow.test(r)).isTrue();
    }

    @Test
    void reportsTheBuildVersionAndAnEmptyConfigDef() {
        assertThat(isRow.version()).isEqualTo(Version.get());
        assertThat(isRow.config().names()).isEmpty();
    }
}
