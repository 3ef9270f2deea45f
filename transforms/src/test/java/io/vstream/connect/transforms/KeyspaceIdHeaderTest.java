package io.vstream.connect.transforms;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vstream.connect.core.Version;
import io.vstream.connect.core.event.EventType;
import io.vstream.connect.core.event.RowEnvelope;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.StreamSupport;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.header.Header;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.Test;

class KeyspaceIdHeaderTest {

    /** Vitess's hash vindex of 1..6 (from the Vitess documentation's customer examples). */
    static final String HASH_1 = "166b40b44aba4bd6";
    static final String HASH_6 = "f098480ac4c4be71";

    private final KeyspaceIdHeader<SourceRecord> ksid = new KeyspaceIdHeader<>();

    private void configure(String... kv) {
        Map<String, String> props = new HashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            props.put(kv[i], kv[i + 1]);
        }
        ksid.configure(props);
    }

    private static String header(SourceRecord r, String name) {
        Header h = r.headers().lastWithName(name);
        return h == null ? null : (String) h.value();
    }

    @Test
    void reportsTheBuildVersionAndItsConfigDef() {
        assertThat(ksid.version()).isEqualTo(Version.get());
        assertThat(ksid.config().names()).containsExactlyInAnyOrder("vindex", "column", "header.name", "key.range");
    }

    @Test
    void writesTheHashKeyspaceIdOfTheAfterImageAsHex() {
        configure("column", "id");
        SourceRecord in = Records.insert(1, 99);
        SourceRecord out = ksid.apply(in);
        assertThat(header(out, "vstream.keyspace_id")).isEqualTo(HASH_1);
        assertThat(out.value()).isSameAs(in.value());
        assertThat(out.key()).isSameAs(in.key());
        assertThat(out.topic()).isEqualTo(in.topic());
        assertThat(out.kafkaPartition()).isEqualTo(in.kafkaPartition());
        assertThat(in.headers().lastWithName("vstream.keyspace_id")).as("the input's headers are not changed")
                .isNull();
    }

    @Test
    void readsTheBeforeImageOfADelete() {
        configure("column", "customer_id");
        assertThat(header(ksid.apply(Records.delete(9, 6)), "vstream.keyspace_id")).isEqualTo(HASH_6);
    }

    @Test
    void readsAFlatRowAfterExtractNewRow() {
        ExtractNewRow<SourceRecord> unwrap = new ExtractNewRow<>();
        unwrap.configure(Map.of("delete.handling", "rewrite"));
        configure("column", "customer_id");
        assertThat(header(ksid.apply(unwrap.apply(Records.insert(1, 6))), "vstream.keyspace_id")).isEqualTo(HASH_6);
        assertThat(header(ksid.apply(unwrap.apply(Records.delete(1, 1))), "vstream.keyspace_id")).isEqualTo(HASH_1);
    }

    @Test
    void schemalessRowsAndFlatMaps() {
        configure("column", "customer_id");
        assertThat(header(ksid.apply(Records.schemaless(Records.insert(1, 6))), "vstream.keyspace_id"))
                .isEqualTo(HASH_6);
        assertThat(header(ksid.apply(Records.schemaless(Records.delete(1, 1))), "vstream.keyspace_id"))
                .isEqualTo(HASH_1);
        SourceRecord in = Records.insert(1, 6);
        SourceRecord flat = in.newRecord(in.topic(), 0, null, null, null, new LinkedHashMap<>(Map.of("CUSTOMER_ID",
                6L)), 1L, in.headers());
        assertThat(header(ksid.apply(flat), "vstream.keyspace_id")).as("matched case-insensitively")
                .isEqualTo(HASH_6);
    }

    @Test
    void aColumnPerTableWithADefaultForTheOthers() {
        configure("column", "orders:customer_id, id");
        assertThat(header(ksid.apply(Records.insert(1, 6)), "vstream.keyspace_id")).isEqualTo(HASH_6);
        configure("column", "customer:id,id");
        assertThat(header(ksid.apply(Records.insert(1, 6)), "vstream.keyspace_id")).isEqualTo(HASH_1);
        configure("column", "customer:id");
        assertThatThrownBy(() -> ksid.apply(Records.insert(1, 6))).isInstanceOf(DataException.class)
                .hasMessageContaining("no sharding column for table 'orders'").hasMessageContaining("orders:<column>");
    }

    @Test
    void aMissingColumnFailsListingTheColumnsOfTheRow() {
        configure("column", "region");
        assertThatThrownBy(() -> ksid.apply(Records.insert(1, 6))).isInstanceOf(DataException.class)
                .hasMessageContaining("no column 'region'").hasMessageContaining("[id, customer_id, amount, note]")
                .hasMessageContaining("column.exclude.list");
    }

    @Test
    void keyRangeKeepsOnlyRowsWhoseKeyspaceIdItHolds() {
        configure("column", "id", "key.range", "-80");
        assertThat(ksid.apply(Records.insert(1, 0))).isNotNull(); // 16..
        assertThat(ksid.apply(Records.insert(6, 0))).isNull(); // f0..
        assertThat(ksid.apply(Records.delete(6, 0))).isNull();
        configure("column", "id", "key.range", "80-");
        assertThat(ksid.apply(Records.insert(1, 0))).isNull();
        assertThat(header(ksid.apply(Records.insert(6, 0)), "vstream.keyspace_id")).isEqualTo(HASH_6);
        configure("column", "id", "key.range", "10-20");
        assertThat(ksid.apply(Records.insert(1, 0))).isNotNull();
        assertThat(ksid.apply(Records.schemaless(Records.insert(6, 0)))).isNull();
    }

    @Test
    void controlEventsTombstonesAndOtherRecordsPassUntouchedEvenWithAKeyRange() {
        configure("column", "id", "key.range", "80-");
        SourceRecord begin = Records.begin();
        SourceRecord tombstone = Records.tombstone(1);
        SourceRecord other = new SourceRecord(null, null, "x", 0, null, null, Schema.STRING_SCHEMA, "v");
        SourceRecord commit = Records.schemaless(Records.commit());
        assertThat(ksid.apply(begin)).isSameAs(begin);
        assertThat(ksid.apply(tombstone)).isSameAs(tombstone);
        assertThat(ksid.apply(other)).isSameAs(other);
        assertThat(ksid.apply(commit)).isSameAs(commit);
    }

    @Test
    void anExistingHeaderOfTheNameIsReplaced() {
        configure("column", "id", "header.name", "ksid");
        SourceRecord once = ksid.apply(Records.insert(1, 0));
        SourceRecord twice = ksid.apply(once);
        List<Header> headers = StreamSupport.stream(twice.headers().spliterator(), false)
                .filter(h -> h.key().equals("ksid")).toList();
        assertThat(headers).hasSize(1);
        assertThat(headers.get(0).value()).isEqualTo(HASH_1);
        assertThat(twice.headers().lastWithName("vstream.keyspace_id")).isNull();
    }

    @Test
    void bigintUnsignedArrivesAsADecimalAndHashesAsItsInteger() {
        Schema row = SchemaBuilder.struct().name("u.Value").optional()
                .field("id", Decimal.builder(0).parameter("connect.decimal.precision", "20").build()).build();
        Schema envelope = RowEnvelope.schema("u.Envelope", row);
        Struct value = RowEnvelope.value(envelope, null, new Struct(row).put("id", new BigDecimal("1")),
                Records.source("-80", "u", "g", "false"), RowEnvelope.Op.CREATE, 1L, null);
        SourceRecord in = new SourceRecord(null, null, Records.TOPIC, 0, null, null, envelope, value, 1L,
                Records.headers(EventType.ROW, "-80", "u"));
        configure("column", "id");
        assertThat(header(ksid.apply(in), "vstream.keyspace_id")).isEqualTo(HASH_1);
        configure("column", "id", "vindex", "numeric");
        assertThat(header(ksid.apply(in), "vstream.keyspace_id")).isEqualTo("0000000000000001");
    }

    @Test
    void aDecimalWithAFractionFailsForHashButNotForXxhash() {
        configure("column", "amount");
        SourceRecord in = Records.insert(1, 1); // amount 1.25
        assertThatThrownBy(() -> ksid.apply(in)).isInstanceOf(DataException.class)
                .hasMessageContaining("column 'amount' of table 'orders'").hasMessageContaining("fraction");
        configure("column", "amount", "vindex", "xxhash");
        assertThat(header(ksid.apply(in), "vstream.keyspace_id")).hasSize(16);
    }

    @Test
    void otherVindexes() {
        configure("column", "id", "vindex", "xxhash");
        assertThat(header(ksid.apply(Records.insert(1, 0)), "vstream.keyspace_id")).isEqualTo("d46405367612b4b7");
        configure("column", "note", "vindex", "BINARY");
        assertThat(header(ksid.apply(Records.insert(1, 0)), "vstream.keyspace_id")).isEqualTo("6e31"); // "n1"
        configure("column", "id", "vindex", "numeric", "key.range", "-80");
        assertThat(header(ksid.apply(Records.insert(0x7fL << 56, 0)), "vstream.keyspace_id"))
                .isEqualTo("7f00000000000000");
        SourceRecord bytes = Records.insert(1, 0).newRecord(Records.TOPIC, 0, null, null, null,
                Map.of("id", ByteBuffer.wrap(new byte[] {(byte) 0x80, 1})), 1L, Records.headers(EventType.ROW,
                        "-80", "orders"));
        configure("column", "id", "vindex", "binary", "key.range", "80-");
        assertThat(header(ksid.apply(bytes), "vstream.keyspace_id")).isEqualTo("8001");
    }

    @Test
    void aNullShardingValueFailsForHashNamingTheColumn() {
        configure("column", "note");
        SourceRecord in = Records.rowRecord(RowEnvelope.Op.CREATE, null, Records.row(1, 1, null, null));
        assertThatThrownBy(() -> ksid.apply(in)).isInstanceOf(DataException.class)
                .hasMessageContaining("hash keyspace id of column 'note'").hasMessageContaining("NULL");
    }

    @Test
    void configurationIsValidated() {
        assertThatThrownBy(() -> configure()).isInstanceOf(ConfigException.class).hasMessageContaining("column");
        assertThatThrownBy(() -> configure("column", "id", "vindex", "md5")).isInstanceOf(ConfigException.class)
                .hasMessageContaining("hash, xxhash, binary, numeric");
        assertThatThrownBy(() -> configure("column", "id", "key.range", "8-")).isInstanceOf(ConfigException.class)
                .hasMessageContaining("odd number of hex digits");
        assertThatThrownBy(() -> configure("column", "id,customer_id")).isInstanceOf(ConfigException.class)
                .hasMessageContaining("two bare column names");
        assertThatThrownBy(() -> configure("column", "t:a,t:b")).isInstanceOf(ConfigException.class)
                .hasMessageContaining("twice");
        assertThatThrownBy(() -> configure("column", "t:")).isInstanceOf(ConfigException.class);
        assertThatThrownBy(() -> configure("column", "id", "header.name", "")).isInstanceOf(ConfigException.class);
        configure("column", "id", "key.range", "-");
        assertThat(ksid.apply(Records.insert(6, 0))).as("the full range keeps every row").isNotNull();
    }
}
