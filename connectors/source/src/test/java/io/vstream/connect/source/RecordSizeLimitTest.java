package io.vstream.connect.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.junit.jupiter.api.Test;

class RecordSizeLimitTest {
    private static final Schema ROW = SchemaBuilder.struct().field("id", Schema.INT64_SCHEMA)
            .field("name", Schema.OPTIONAL_STRING_SCHEMA).field("doc", Schema.OPTIONAL_BYTES_SCHEMA).build();

    private static Struct row(int chars, int bytes) {
        return new Struct(ROW).put("id", 1L).put("name", "x".repeat(chars)).put("doc", new byte[bytes]);
    }

    @Test
    void theLimitIsTheProducerOverrideOrKafkasDefault() {
        assertThat(RecordSizeLimit.of(Map.of()).maxBytes()).isEqualTo(1_048_576L);
        assertThat(RecordSizeLimit.of(Map.of("producer.override.max.request.size", "8388608")).maxBytes())
                .isEqualTo(8_388_608L);
    }

    @Test
    void theBoundCountsStringsAndBinaryValuesOfBothImages() {
        assertThat(RecordSizeLimit.lowerBound(row(10, 20))).isEqualTo(30L);
        assertThat(RecordSizeLimit.lowerBound(null)).isZero();
    }

    @Test
    void aRowOverTheLimitIsRefusedNamingTheSettingsThatLiftIt() {
        RecordSizeLimit limit = new RecordSizeLimit(1_000);
        limit.check("-80", "docs", "0-1-5", row(400, 100), row(400, 100));
        assertThatThrownBy(() -> limit.check("-80", "docs", "0-1-6", row(400, 100), row(500, 100)))
                .hasMessageContaining("Shard -80: a row of table docs in transaction 0-1-6 holds at least 1100 bytes")
                .hasMessageContaining("producer.override.max.request.size")
                .hasMessageContaining("topic.creation.default.max.message.bytes")
                .hasMessageContaining("message.max.bytes")
                .hasMessageContaining("nothing is lost");
    }
}
