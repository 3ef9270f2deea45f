package io.vstream.connect.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vstream.connect.core.keyrange.KeyRange;
import io.vstream.connect.core.vindex.Vindexes;
import java.math.BigDecimal;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.ConnectException;
import org.junit.jupiter.api.Test;

/** Routing rows to new shards by the Vitess vindexes (vectors from Vitess's hash_test.go and xxhash_test.go). */
class ShardRouterTest {
    private static final Schema ORDERS = SchemaBuilder.struct().name("orders")
            .field("id", Schema.INT64_SCHEMA)
            .field("customer_id", Schema.OPTIONAL_INT32_SCHEMA)
            .field("note", Schema.OPTIONAL_STRING_SCHEMA)
            .build();

    private static final ReshardTargets HALVES = ReshardTargets.parse(List.of("-80=h1:3306", "80-=h2:3306"));

    private static ShardRouter hash(Map<String, String> columns, String defaultColumn) {
        return new ShardRouter(Vindexes.named("hash"), columns, defaultColumn, HALVES);
    }

    private static Struct order(long id, Integer customer) {
        return new Struct(ORDERS).put("id", id).put("customer_id", customer).put("note", "n");
    }

    @Test
    void hashVindexPlacesRowsOnTheShardOfTheirKeyspaceId() {
        ShardRouter r = hash(Map.of(), "id");
        // Vitess vectors: 1 -> 166b40b44aba4bd6, 2 -> 06e7ea22ce92708f, 4 -> d2fd8867d50d2dfe, 6 -> f098480ac4c4be71
        assertThat(HexFormat.of().formatHex(r.keyspaceId("orders", order(1, null), "k"))).isEqualTo("166b40b44aba4bd6");
        assertThat(r.route("orders", order(1, null), "k").name()).isEqualTo("-80");
        assertThat(r.route("orders", order(2, null), "k").name()).isEqualTo("-80");
        assertThat(r.route("orders", order(4, null), "k").name()).isEqualTo("80-");
        assertThat(r.route("orders", order(6, null), "k").name()).isEqualTo("80-");
    }

    @Test
    void aListedColumnWinsOverTheDefault() {
        ShardRouter r = hash(Map.of("orders", "customer_id"), "id");
        assertThat(r.column("orders")).isEqualTo("customer_id");
        assertThat(r.column("customers")).isEqualTo("id");
        assertThat(r.route("orders", order(1, 4), "k").name()).isEqualTo("80-"); // by customer 4, not id 1
        assertThat(r.route("orders", order(6, 2), "k").name()).isEqualTo("-80");
    }

    @Test
    void columnNamesMatchCaseInsensitivelyAsInMysql() {
        assertThat(hash(Map.of("orders", "CUSTOMER_ID"), "").route("orders", order(1, 4), "k").name())
                .isEqualTo("80-");
    }

    @Test
    void xxhashAndUnsignedValues() {
        ShardRouter x = new ShardRouter(Vindexes.named("xxhash"), Map.of(), "id", HALVES);
        // xxhash(1) = d46405367612b4b7
        assertThat(HexFormat.of().formatHex(x.keyspaceId("orders", order(1, null), "k")))
                .isEqualTo("d46405367612b4b7");
        assertThat(x.route("orders", order(1, null), "k").name()).isEqualTo("80-");
        // BIGINT UNSIGNED arrives as Decimal(20,0)
        Schema unsigned = SchemaBuilder.struct().field("id", Decimal.builder(0).build()).build();
        Struct row = new Struct(unsigned).put("id", new BigDecimal("4"));
        assertThat(hash(Map.of(), "id").route("t", row, "k").name()).isEqualTo("80-");
    }

    @Test
    void aRowItCannotPlaceIsAnErrorNamingTableKeyAndFix() {
        assertThatThrownBy(() -> hash(Map.of(), "").route("orders", order(1, 2), "Struct{id=1}"))
                .isInstanceOf(ConnectException.class)
                .hasMessageContaining("Table orders has no sharding column")
                .hasMessageContaining("reshard.columns").hasMessageContaining("reshard.column.default");
        assertThatThrownBy(() -> hash(Map.of("orders", "region"), "").route("orders", order(1, 2), "Struct{id=1}"))
                .isInstanceOf(ConnectException.class)
                .hasMessageContaining("table orders").hasMessageContaining("Struct{id=1}")
                .hasMessageContaining("no column region").hasMessageContaining("reshard.columns");
        assertThatThrownBy(() -> hash(Map.of("orders", "customer_id"), "").route("orders", order(7, null),
                "Struct{id=7}"))
                .isInstanceOf(ConnectException.class)
                .hasMessageContaining("table orders").hasMessageContaining("Struct{id=7}").hasMessageContaining("NULL");
        assertThatThrownBy(() -> hash(Map.of("orders", "note"), "").route("orders", order(1, 2), "Struct{id=1}"))
                .isInstanceOf(ConnectException.class)
                .hasMessageContaining("hash vindex cannot map sharding column note")
                .hasMessageContaining("reshard.vindex");
        ShardRouter gap = new ShardRouter(Vindexes.named("hash"), Map.of(), "id",
                ReshardTargets.parse(List.of("-80=h1:3306")));
        assertThatThrownBy(() -> gap.route("orders", order(4, null), "Struct{id=4}"))
                .isInstanceOf(ConnectException.class)
                .hasMessageContaining("keyspace id d2fd8867d50d2dfe").hasMessageContaining("Struct{id=4}")
                .hasMessageContaining("no shard of target.topology");
    }

    @Test
    void tellsWhetherARowReadFromANewShardBelongsToAnOldShard() {
        ShardRouter r = hash(Map.of("wallets", "owner"), "id");
        KeyRange low = KeyRange.parse("-80");
        assertThat(r.holds(low, "orders", 1L)).isTrue(); // as the driver reads a BIGINT
        assertThat(r.holds(low, "orders", 1)).isTrue(); // an INT
        assertThat(r.holds(low, "orders", new java.math.BigInteger("4"))).isFalse(); // a BIGINT UNSIGNED
        assertThat(r.holds(KeyRange.parse("80-"), "wallets", 4L)).isTrue();
    }

    @Test
    void aSourceShardOverlapsTheNewShardsOfItsRange() {
        ReshardTargets quarters = ReshardTargets.parse(List.of("-40=a:1", "40-80=b:1", "80-c0=c:1", "c0-=d:1"));
        assertThat(quarters.overlapping(KeyRange.parse("-")).stream().map(ReshardTargets.Shard::name))
                .containsExactly("-40", "40-80", "80-c0", "c0-");
        assertThat(quarters.overlapping(KeyRange.parse("-80")).stream().map(ReshardTargets.Shard::name))
                .containsExactly("-40", "40-80");
        assertThat(quarters.overlapping(KeyRange.parse("80-")).stream().map(ReshardTargets.Shard::name))
                .containsExactly("80-c0", "c0-");
        assertThat(HALVES.overlapping(KeyRange.parse("40-c0")).stream().map(ReshardTargets.Shard::name))
                .containsExactly("-80", "80-");
    }
}
