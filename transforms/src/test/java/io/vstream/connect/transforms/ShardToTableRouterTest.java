package io.vstream.connect.transforms;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vstream.connect.core.Version;
import io.vstream.connect.core.event.EventHeaders;
import io.vstream.connect.core.event.EventType;
import io.vstream.connect.core.event.RowEnvelope;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.Test;

class ShardToTableRouterTest {

    private final ShardToTableRouter<SourceRecord> router = new ShardToTableRouter<>();

    private void configure(String... kv) {
        Map<String, String> props = new HashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            props.put(kv[i], kv[i + 1]);
        }
        router.configure(props);
    }

    @Test
    void reportsTheBuildVersionAndItsConfigDef() {
        assertThat(router.version()).isEqualTo(Version.get());
        assertThat(router.config().names()).containsExactlyInAnyOrder("topic.format", "topic.prefix",
                "control.events");
    }

    @Test
    void routesARowToItsTableTopicWithThePrefixOfItsShardTopic() {
        configure();
        SourceRecord in = Records.insert(1, 10);
        SourceRecord out = router.apply(in);
        assertThat(out.topic()).isEqualTo("vs.commerce.orders");
        assertThat(out.key()).isEqualTo(in.key());
        assertThat(out.keySchema()).isEqualTo(in.keySchema());
        assertThat(out.value()).isSameAs(in.value());
        assertThat(out.valueSchema()).isSameAs(in.valueSchema());
        assertThat(out.headers()).isEqualTo(in.headers());
        assertThat(out.timestamp()).isEqualTo(in.timestamp());
        assertThat(out.sourceOffset()).isEqualTo(in.sourceOffset());
        assertThat(out.kafkaPartition()).as("the shard topic's partition 0 is dropped: the producer partitions by key")
                .isNull();
    }

    @Test
    void rowsOfEveryShardMergeIntoOneTableTopic() {
        configure();
        assertThat(router.apply(Records.rowRecord("80-", RowEnvelope.Op.CREATE, null, Records.row(2, 2, null, null)))
                .topic()).isEqualTo("vs.commerce.orders");
        assertThat(router.apply(Records.rowRecord("-", RowEnvelope.Op.CREATE, null, Records.row(2, 2, null, null)))
                .topic()).isEqualTo("vs.commerce.orders");
    }

    @Test
    void aConfiguredPrefixAndFormatAreUsedAndTheResultIsSanitized() {
        configure("topic.prefix", "cdc", "topic.format", "${prefix}-${keyspace}-${table}.${shard}");
        assertThat(router.apply(Records.insert(1, 1)).topic()).isEqualTo("cdc-commerce-orders.-80");
        configure("topic.format", "rows.${topic}.${table}");
        assertThat(router.apply(Records.insert(1, 1)).topic()).isEqualTo("rows.vs.commerce.-80.orders");
        configure("topic.prefix", "a b", "topic.format", "${prefix}.${table}$x");
        assertThat(router.apply(Records.insert(1, 1)).topic()).isEqualTo("a_b.orders_x");
    }

    @Test
    void schemalessRowsAreRouted() {
        configure();
        SourceRecord in = Records.schemaless(Records.insert(1, 10));
        SourceRecord out = router.apply(in);
        assertThat(out.topic()).isEqualTo("vs.commerce.orders");
        assertThat(out.value()).isSameAs(in.value());
        assertThat(out.key()).isEqualTo(Map.of("id", 1L));
    }

    @Test
    void rowsWithoutHeadersAreRoutedByTheirSourceBlock() {
        configure();
        assertThat(router.apply(Records.withoutHeaders(Records.insert(1, 10))).topic())
                .isEqualTo("vs.commerce.orders");
        assertThat(router.apply(Records.schemaless(Records.withoutHeaders(Records.insert(1, 10)))).topic())
                .isEqualTo("vs.commerce.orders");
    }

    @Test
    void rowsAlreadyUnwrappedAreRoutedByTheirHeaders() {
        ExtractNewRow<SourceRecord> unwrap = new ExtractNewRow<>();
        unwrap.configure(Map.of());
        configure();
        assertThat(router.apply(unwrap.apply(Records.insert(1, 10))).topic()).isEqualTo("vs.commerce.orders");
    }

    @Test
    void aTombstoneKeepsItsNullValueAndIsRoutedWithItsRow() {
        configure();
        SourceRecord tombstone = Records.tombstone(3);
        SourceRecord out = router.apply(tombstone);
        assertThat(out.value()).isNull();
        assertThat(out.valueSchema()).isNull();
        assertThat(out.key()).isEqualTo(Records.key(3));
        assertThat(out.topic()).as("a compacted table topic must see the delete").isEqualTo("vs.commerce.orders");
    }

    @Test
    void aTombstoneThatIsNotOursPassesUntouched() {
        configure();
        SourceRecord tombstone = new SourceRecord(null, null, "t", 0, Schema.STRING_SCHEMA, "k", null, null);
        assertThat(router.apply(tombstone)).isSameAs(tombstone);
    }

    @Test
    void controlEventsAreDroppedByDefaultAndPassUnchangedWithPass() {
        configure();
        assertThat(router.apply(Records.begin())).isNull();
        assertThat(router.apply(Records.heartbeat())).isNull();
        SourceRecord field = Records.control(EventType.FIELD, "orders", Schema.STRING_SCHEMA, null);
        assertThat(router.apply(field)).isNull();
        configure("control.events", "pass");
        SourceRecord commit = Records.commit();
        assertThat(router.apply(commit)).isSameAs(commit);
        assertThat(router.apply(field)).as("FIELD stays on the shard topic").isSameAs(field);
    }

    @Test
    void recordsThatAreNotOursPassUntouched() {
        configure();
        SourceRecord other = new SourceRecord(null, null, "other", 0, null, null, Schema.STRING_SCHEMA, "v");
        assertThat(router.apply(other)).isSameAs(other);
    }

    @Test
    void aRowOnATopicThatIsNotAShardTopicNeedsAConfiguredPrefix() {
        configure();
        SourceRecord routed = router.apply(Records.insert(1, 10));
        assertThatThrownBy(() -> router.apply(routed)).isInstanceOf(DataException.class)
                .hasMessageContaining("set topic.prefix");
        configure("topic.prefix", "vs");
        assertThat(router.apply(routed).topic()).isEqualTo("vs.commerce.orders");
    }

    @Test
    void aRowWithoutTableHeaderNorSourceBlockFailsNamingTheHeader() {
        configure();
        SourceRecord in = Records.insert(1, 10);
        SourceRecord unwrapped = in.newRecord(in.topic(), 0, in.keySchema(), in.key(), Records.ROW,
                Records.row(1, 1, null, null), in.timestamp(), in.headers().duplicate().remove(EventHeaders.TABLE));
        assertThatThrownBy(() -> router.apply(unwrapped)).isInstanceOf(DataException.class)
                .hasMessageContaining("vstream.table");
    }

    @Test
    void theFormatMustNameTheTableAndUseKnownVariables() {
        assertThatThrownBy(() -> configure("topic.format", "${prefix}.${keyspace}")).isInstanceOf(
                ConfigException.class).hasMessageContaining("${table}");
        assertThatThrownBy(() -> configure("topic.format", "${prefix}.${tabel}")).isInstanceOf(ConfigException.class)
                .hasMessageContaining("${tabel} is not a variable");
        assertThatThrownBy(() -> configure("topic.format", " ")).isInstanceOf(ConfigException.class);
        assertThatThrownBy(() -> configure("control.events", "route")).isInstanceOf(ConfigException.class);
    }

    @Test
    void inASinkChainARowKeepsThePartitionItWasReadFrom() {
        ShardToTableRouter<org.apache.kafka.connect.sink.SinkRecord> sinkRouter = new ShardToTableRouter<>();
        sinkRouter.configure(Map.of());
        SourceRecord row = Records.insert(1, 10);
        org.apache.kafka.connect.sink.SinkRecord in = new org.apache.kafka.connect.sink.SinkRecord(row.topic(), 3,
                row.keySchema(), row.key(), row.valueSchema(), row.value(), 42L, row.timestamp(),
                org.apache.kafka.common.record.TimestampType.CREATE_TIME, row.headers());
        org.apache.kafka.connect.sink.SinkRecord out = sinkRouter.apply(in);
        assertThat(out.topic()).isEqualTo("vs.commerce.orders");
        assertThat(out.kafkaPartition()).isEqualTo(3);
        assertThat(out.kafkaOffset()).isEqualTo(42L);
        assertThat(out.value()).isSameAs(in.value());
    }
}
