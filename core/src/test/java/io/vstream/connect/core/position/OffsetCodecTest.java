package io.vstream.connect.core.position;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.kafka.connect.errors.ConnectException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Source partitions and offsets: their exact shape, round trips for every state, and loader errors naming the key. */
class OffsetCodecTest {

    private static final String U1 = "3e11fa47-71ca-11e1-9e33-c80aa9429562";
    private static final Map<String, String> PARTITION = OffsetCodec.partition("ks", "-80");

    @Test
    void partitionIsKeyspaceThenShard() {
        assertThat(PARTITION).containsExactly(Map.entry("keyspace", "ks"), Map.entry("shard", "-80"));
        assertThat(OffsetCodec.partition(ShardGtid.current("ks", "-80"))).isEqualTo(PARTITION);
        assertThatThrownBy(() -> PARTITION.put("x", "y")).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void offsetHoldsOnlyPrimitives() {
        Map<String, Object> streaming = OffsetCodec.offset(ShardGtid.of("ks", "-80", GtidPosition.parse("MariaDB/0-1-42")));
        assertThat(streaming).containsExactly(Map.entry("v", 1L), Map.entry("gtid", "MariaDB/0-1-42"));

        ShardGtid copying = ShardGtid.of("ks", "-80", GtidPosition.parse("MariaDB/0-1-42"),
                List.of(new TableLastPk("t", LastPk.of("id", 12L)), TableLastPk.notStarted("u")));
        Map<String, Object> offset = OffsetCodec.offset(copying);
        assertThat(offset).containsOnlyKeys("v", "gtid", "copy");
        assertThat(offset.values()).allSatisfy(v -> assertThat(v).isInstanceOfAny(String.class, Long.class));
        assertThat(offset.get("copy")).isEqualTo(
                "[{\"table_name\":\"t\",\"lastpk\":{\"fields\":[\"id\"],\"values\":[{\"i\":\"12\"}]}},{\"table_name\":\"u\"}]");
        assertThat(OffsetCodec.offset(ShardGtid.current("ks", "-80"))).containsEntry("gtid", "current");
    }

    static Stream<Arguments> shardGtids() {
        LastPk everyType = LastPk.builder()
                .add("id", Long.MIN_VALUE)
                .add("big", new BigInteger("18446744073709551615"))
                .add("amount", new BigDecimal("-12345678901234567890.1234500"))
                .add("sci", new BigDecimal("1E+3"))
                .add("name", "Zoë 日本語 🎉 \"quoted\" \\ \n\t\u0000")
                .add("bin", new byte[] {0, (byte) 0x80, (byte) 0xff, 10, 13})
                .add("empty", new byte[0])
                .add("blank", "")
                .add("nothing", null)
                .build();
        GtidPosition mariadb = GtidPosition.parse("MariaDB/0-1-42,1-2-7");
        GtidPosition mysql = GtidPosition.parse("MySQL56/" + U1 + ":1-42:50-60");
        return Stream.of(
                Arguments.of(ShardGtid.of("ks", "-80", mariadb)),
                Arguments.of(ShardGtid.of("ks", "80-", mysql)),
                Arguments.of(ShardGtid.of("ks", "0", GtidPosition.empty(Flavor.MARIADB))),
                Arguments.of(ShardGtid.current("ks", "-")),
                Arguments.of(ShardGtid.current("ks", "-", List.of(TableLastPk.notStarted("a"), TableLastPk.notStarted("b")))),
                Arguments.of(ShardGtid.of("ks", "-80", mysql, List.of(
                        new TableLastPk("every_type", everyType),
                        new TableLastPk("single", LastPk.of("id", Long.MAX_VALUE)),
                        TableLastPk.notStarted("later")))));
    }

    @ParameterizedTest
    @MethodSource("shardGtids")
    void offsetRoundTrips(ShardGtid shardGtid) {
        Map<String, String> partition = OffsetCodec.partition(shardGtid);
        ShardGtid back = OffsetCodec.fromOffset(partition, OffsetCodec.offset(shardGtid));
        assertThat(back).isEqualTo(shardGtid);
        assertThat(OffsetCodec.offset(back)).isEqualTo(OffsetCodec.offset(shardGtid));
    }

    @ParameterizedTest
    @MethodSource("shardGtids")
    void vgtidJsonRoundTrips(ShardGtid shardGtid) {
        Vgtid vgtid = Vgtid.of(shardGtid, ShardGtid.of("other", "0", GtidPosition.parse("MariaDB/0-1-1")));
        String json = OffsetCodec.toJson(vgtid);
        assertThat(OffsetCodec.vgtidFromJson(json)).isEqualTo(vgtid);
        assertThat(OffsetCodec.toJson(OffsetCodec.vgtidFromJson(json))).isEqualTo(json);
    }

    @Test
    void acceptsTheIntegerVersionAConnectWorkerMayHandBack() {
        Map<String, Object> offset = new HashMap<>(Map.of("v", 1, "gtid", "MariaDB/0-1-42"));
        assertThat(OffsetCodec.fromOffset(PARTITION, offset).gtid()).isEqualTo(GtidPosition.parse("MariaDB/0-1-42"));
        offset.put("copy", null);
        assertThat(OffsetCodec.fromOffset(PARTITION, offset).isCopying()).isFalse();
        offset.put("future_key", "ignored");
        assertThat(OffsetCodec.fromOffset(PARTITION, offset).isCopying()).isFalse();
    }

    static Stream<Arguments> malformedOffsets() {
        return Stream.of(
                Arguments.of(Map.of("gtid", "MariaDB/0-1-42"), "v", "key 'v' is missing"),
                Arguments.of(Map.of("v", "1", "gtid", "MariaDB/0-1-42"), "v", "key 'v' must be an integer, found a String"),
                Arguments.of(Map.of("v", 2L, "gtid", "MariaDB/0-1-42"), "v",
                        "key 'v' is 2 but this vstream-connect reads version 1 (the offset was written by a newer release"),
                Arguments.of(Map.of("v", 1L), "gtid", "key 'gtid' is missing"),
                Arguments.of(Map.of("v", 1L, "gtid", 42L), "gtid", "key 'gtid' must be a string, found a Long"),
                Arguments.of(Map.of("v", 1L, "gtid", "MariaDB/0-1"), "gtid",
                        "key 'gtid' is malformed: Malformed MariaDB GTID position 'MariaDB/0-1': entry '0-1' must be "
                                + "domain-server-sequence, e.g. MariaDB/0-1-42"),
                Arguments.of(Map.of("v", 1L, "gtid", ""), "gtid", "key 'gtid' is malformed: Malformed GTID position ''"),
                Arguments.of(Map.of("v", 1L, "gtid", "current", "copy", 5L), "copy", "key 'copy' must be a string, found a Long"),
                Arguments.of(Map.of("v", 1L, "gtid", "current", "copy", "[{"), "copy",
                        "key 'copy' is malformed: Malformed copy state JSON: not valid JSON"),
                Arguments.of(Map.of("v", 1L, "gtid", "current", "copy", "{}"), "copy",
                        "key 'copy' is malformed: Malformed copy state JSON at copy: must be an array, found an object"),
                Arguments.of(Map.of("v", 1L, "gtid", "current", "copy", "[{\"lastpk\":null}]"), "copy",
                        "Malformed copy state JSON at copy[0]: key 'table_name' is missing"),
                Arguments.of(Map.of("v", 1L, "gtid", "current", "copy",
                        "[{\"table_name\":\"t\",\"lastpk\":{\"fields\":[\"id\"],\"values\":[{\"f\":\"1.5\"}]}}]"), "copy",
                        "at copy[0].lastpk.values[0]: unknown type tag 'f'; expected i, u, d, s or b"));
    }

    @ParameterizedTest(name = "{2}")
    @MethodSource("malformedOffsets")
    void loaderNamesTheMalformedKey(Map<String, Object> offset, String key, String expected) {
        assertThatThrownBy(() -> OffsetCodec.fromOffset(PARTITION, offset))
                .isInstanceOf(MalformedOffsetException.class)
                .isInstanceOf(ConnectException.class)
                .hasMessageStartingWith("Source offset for partition {keyspace=ks, shard=-80} is malformed: ")
                .hasMessageContaining(expected)
                .hasMessageContaining("fix: stop the connector, then delete its offsets (DELETE /connectors/<name>/offsets)")
                .satisfies(e -> assertThat(((MalformedOffsetException) e).key()).isEqualTo(key));
    }

    @Test
    void loaderNamesAMalformedPartitionKey() {
        Map<String, Object> offset = Map.of("v", 1L, "gtid", "MariaDB/0-1-42");
        assertThatThrownBy(() -> OffsetCodec.fromOffset(Map.of("keyspace", "ks"), offset))
                .isInstanceOf(MalformedOffsetException.class)
                .hasMessageStartingWith("Source partition {keyspace=ks} is malformed: key 'shard' is missing");
        assertThatThrownBy(() -> OffsetCodec.fromOffset(Map.of("keyspace", 3, "shard", "0"), offset))
                .isInstanceOf(MalformedOffsetException.class)
                .hasMessageContaining("key 'keyspace' must be a non-blank string, found a Integer")
                .satisfies(e -> assertThat(((MalformedOffsetException) e).key()).isEqualTo("keyspace"));
    }

    @Test
    void errorsNeverQuoteKeyValues() {
        String copy = "[{\"table_name\":\"t\",\"lastpk\":{\"fields\":[\"email\"],\"values\":[{\"i\":\"secret@x\"}]}}]";
        assertThatThrownBy(() -> OffsetCodec.fromOffset(PARTITION, Map.of("v", 1L, "gtid", "current", "copy", copy)))
                .hasMessageContaining("at copy[0].lastpk.values[0]: the 'i' value is not a valid 64-bit integer")
                .message().doesNotContain("secret");
    }
}
