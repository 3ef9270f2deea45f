package io.vstream.connect.transforms.predicates;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vstream.connect.core.Version;
import io.vstream.connect.transforms.Records;
import java.util.Map;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.Test;

class EventTypeIsTest {

    private final EventTypeIs<SourceRecord> predicate = new EventTypeIs<>();

    @Test
    void matchesTheListedTypesInAnyCase() {
        predicate.configure(Map.of("types", "begin, COMMIT"));
        assertThat(predicate.test(Records.begin())).isTrue();
        assertThat(predicate.test(Records.commit())).isTrue();
        assertThat(predicate.test(Records.schemaless(Records.commit()))).isTrue();
        assertThat(predicate.test(Records.heartbeat())).isFalse();
        assertThat(predicate.test(Records.insert(1, 1))).isFalse();
    }

    @Test
    void rowMatchesRowsAndTheirTombstones() {
        predicate.configure(Map.of("types", "ROW"));
        assertThat(predicate.test(Records.insert(1, 1))).isTrue();
        assertThat(predicate.test(Records.tombstone(1))).isTrue();
        assertThat(predicate.test(Records.begin())).isFalse();
    }

    @Test
    void falseForRecordsWithoutTheHeader() {
        predicate.configure(Map.of("types", "HEARTBEAT,ROW"));
        assertThat(predicate.test(Records.withoutHeaders(Records.heartbeat()))).isFalse();
        assertThat(predicate.test(new SourceRecord(null, null, "t", 0, Schema.STRING_SCHEMA, "x"))).isFalse();
    }

    @Test
    void typesAreRequiredAndMustBeEventTypes() {
        assertThatThrownBy(() -> predicate.configure(Map.of())).isInstanceOf(ConfigException.class)
                .hasMessageContaining("types");
        assertThatThrownBy(() -> predicate.configure(Map.of("types", ""))).isInstanceOf(ConfigException.class)
                .hasMessageContaining("names no event type");
        assertThatThrownBy(() -> predicate.configure(Map.of("types", "BEGIN,HEARTBEATS")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("'HEARTBEATS' is not an event type")
                .hasMessageContaining("FIELD, ROW, BEGIN, COMMIT");
    }

    @Test
    void reportsTheBuildVersionAndItsConfigDef() {
        assertThat(predicate.version()).isEqualTo(Version.get());
        assertThat(predicate.config().names()).containsExactly("types");
    }
}
