package io.vstream.connect.source;

import static org.assertj.core.api.Assertions.assertThat;

import io.vstream.connect.core.topology.ShardAddress;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigValue;
import org.junit.jupiter.api.Test;

class VStreamSourceConnectorConfigTest {
    private static final String POSITION_80 = "{\"keyspace\":\"ks\",\"shard\":\"-80\",\"gtid\":\"MariaDB/0-1-42\"}";
    private static final String POSITION_80_ = "{\"keyspace\":\"ks\",\"shard\":\"80-\",\"gtid\":\"MariaDB/0-2-7\"}";

    private static Map<String, String> base() {
        Map<String, String> p = new HashMap<>();
        p.put("keyspace", "ks");
        p.put("topology", "-80=127.0.0.1:3306,80-=127.0.0.1:3307");
        p.put("user", "repl");
        return p;
    }

    private static Map<String, ConfigValue> validate(Map<String, String> props) {
        return VStreamSourceConnectorConfig.validate(props, VStreamSourceConnectorConfig.CONFIG_DEF.validateAll(props));
    }

    private static List<String> errors(Map<String, ConfigValue> values, String key) {
        return values.get(key).errorMessages();
    }

    private static Map<String, String> with(Map<String, String> props, String... kv) {
        Map<String, String> p = new HashMap<>(props);
        for (int i = 0; i < kv.length; i += 2) {
            p.put(kv[i], kv[i + 1]);
        }
        return p;
    }

    private static long errorCount(Map<String, ConfigValue> values) {
        return values.values().stream().mapToLong(v -> v.errorMessages().size()).sum();
    }

    @Test
    void aValidConfigHasNoErrors() {
        Map<String, ConfigValue> v = validate(base());
        assertThat(errorCount(v)).as(v.toString()).isZero();
    }

    @Test
    void validPositionNamingEveryShardHasNoErrors() {
        Map<String, ConfigValue> v = validate(with(base(), "start.mode", "position",
                "start.position", "{\"shard_gtids\":[" + POSITION_80 + "," + POSITION_80_ + "]}"));
        assertThat(errorCount(v)).as(v.toString()).isZero();
    }

    @Test
    void aDuplicateShardIsAnErrorOnTopology() {
        Map<String, ConfigValue> v = validate(with(base(), "topology",
                "-80=127.0.0.1:3306,-80=127.0.0.1:3308,80-=127.0.0.1:3307"));
        assertThat(errors(v, "topology")).containsExactly("Shard '-80' is listed twice; list each shard once.");
        assertThat(errorCount(v)).isEqualTo(1);
    }

    @Test
    void dashAndZeroAreTheSameShard() {
        Map<String, ConfigValue> v = validate(with(base(), "topology", "-=127.0.0.1:3306,0=127.0.0.1:3307"));
        assertThat(errors(v, "topology")).containsExactly("Shard '0' is listed twice; list each shard once.");
    }

    @Test
    void anOverlapIsAnErrorOnTopology() {
        Map<String, ConfigValue> v = validate(with(base(), "topology", "-80=127.0.0.1:1,40-=127.0.0.1:2"));
        assertThat(errors(v, "topology")).singleElement().asString()
                .startsWith("The shards must cover the whole key space exactly once: ")
                .contains("overlap");
        assertThat(errorCount(v)).isEqualTo(1);
    }

    @Test
    void aGapIsAnErrorOnTopology() {
        Map<String, ConfigValue> v = validate(with(base(), "topology", "-40=127.0.0.1:1,80-=127.0.0.1:2"));
        assertThat(errors(v, "topology")).singleElement().asString()
                .startsWith("The shards must cover the whole key space exactly once: ")
                .contains("gap");
    }

    @Test
    void aMissingEndIsAnErrorOnTopology() {
        Map<String, ConfigValue> v = validate(with(base(), "topology", "-80=127.0.0.1:1"));
        assertThat(errors(v, "topology")).singleElement().asString().contains("missing end");
    }

    @Test
    void aMalformedEntryIsAnErrorOnTopologyAndSkipsTheCoverageCheck() {
        Map<String, ConfigValue> v = validate(with(base(), "topology", "-80=127.0.0.1,80-=127.0.0.1:2"));
        assertThat(errors(v, "topology")).singleElement().asString()
                .contains("Topology entry '-80=127.0.0.1'")
                .contains("<host>:<port>");
    }

    @Test
    void anEmptyTopologyIsAnErrorOnTopology() {
        Map<String, ConfigValue> v = validate(with(base(), "topology", ""));
        assertThat(errors(v, "topology")).singleElement().asString().startsWith("No shards");
    }

    @Test
    void aMissingTopologyIsReportedByTheConfigDef() {
        Map<String, String> props = base();
        props.remove("topology");
        Map<String, ConfigValue> v = validate(props);
        assertThat(errors(v, "topology")).singleElement().asString().contains("Missing required configuration");
    }

    @Test
    void migrationModeNeedsTheMigrationAndReadsItsState() {
        Map<String, ConfigValue> v = validate(with(base(), "start.mode", "migration"));
        assertThat(errors(v, "start.migration")).singleElement().asString()
                .startsWith("start.mode is 'migration' but start.migration is empty");
        Map<String, String> ok = with(base(), "start.mode", "Migration", "start.migration", " orders-1 ");
        assertThat(errorCount(validate(ok))).isZero();
        assertThat(new VStreamSourceConnectorConfig(ok).migrationStart())
                .isEqualTo(new MigrationStart("orders-1", "_vstream"));
        assertThat(new VStreamSourceConnectorConfig(with(ok, "start.mode", "current")).migrationStart()).isNull();
    }

    @Test
    void positionModeNeedsAPosition() {
        Map<String, ConfigValue> v = validate(with(base(), "start.mode", "position"));
        assertThat(errors(v, "start.position")).singleElement().asString()
                .startsWith("start.mode is 'position' but start.position is empty");
        assertThat(errors(v, "start.mode")).isEmpty();
    }

    @Test
    void badPositionJsonIsAnErrorOnStartPosition() {
        Map<String, ConfigValue> v = validate(with(base(), "start.mode", "position", "start.position",
                "{\"shard_gtids\":[" + POSITION_80));
        assertThat(errors(v, "start.position")).singleElement().asString()
                .startsWith("start.position is not a valid VGTID: ");
        assertThat(errorCount(v)).isEqualTo(1);
    }

    @Test
    void aMalformedGtidIsAnErrorOnStartPosition() {
        Map<String, ConfigValue> v = validate(with(base(), "start.mode", "position", "start.position",
                "{\"shard_gtids\":[{\"keyspace\":\"ks\",\"shard\":\"-80\",\"gtid\":\"MariaDB/0-1\"}]}"));
        assertThat(errors(v, "start.position")).singleElement().asString()
                .startsWith("start.position is not a valid VGTID: ")
                .contains("MariaDB/0-1");
    }

    @Test
    void aShardMissingFromThePositionIsAnErrorOnStartPosition() {
        Map<String, ConfigValue> v = validate(with(base(), "start.mode", "position", "start.position",
                "{\"shard_gtids\":[" + POSITION_80 + "]}"));
        assertThat(errors(v, "start.position")).containsExactly("start.position has no entry for shard '80-' of"
                + " keyspace 'ks'; add {\"keyspace\":\"ks\",\"shard\":\"80-\",\"gtid\":...}");
        assertThat(errorCount(v)).isEqualTo(1);
    }

    @Test
    void aPositionOfAnotherKeyspaceNamesEveryShard() {
        Map<String, ConfigValue> v = validate(with(base(), "keyspace", "other", "start.mode", "position",
                "start.position", "{\"shard_gtids\":[" + POSITION_80 + "," + POSITION_80_ + "]}"));
        assertThat(errors(v, "start.position")).hasSize(2).allMatch(e -> e.contains("keyspace 'other'"));
    }

    @Test
    void thePositionIsIgnoredInCurrentMode() {
        Map<String, ConfigValue> v = validate(with(base(), "start.mode", "current", "start.position", "{not json"));
        assertThat(errorCount(v)).isZero();
    }

    @Test
    void startModeIsCaseInsensitiveAndValidated() {
        assertThat(errors(validate(with(base(), "start.mode", "CURRENT")), "start.mode")).isEmpty();
        assertThat(errors(validate(with(base(), "start.mode", "Position", "start.position",
                "{\"shard_gtids\":[" + POSITION_80 + "," + POSITION_80_ + "]}")), "start.mode")).isEmpty();
        Map<String, ConfigValue> bad = validate(with(base(), "start.mode", "earliest", "start.position", "{"));
        assertThat(errors(bad, "start.mode")).isNotEmpty();
        assertThat(errors(bad, "start.position")).as("not checked against an unknown mode").isEmpty();
    }

    @Test
    void aBadRegexIsAnErrorOnItsOwnField() {
        Map<String, ConfigValue> v = validate(with(base(), "table.include.list", "orders(,items",
                "table.exclude.list", "[abc", "column.exclude.list", "orders.ssn,*bad"));
        assertThat(errors(v, "table.include.list")).singleElement().asString()
                .startsWith("'orders(' is not a valid regular expression: ");
        assertThat(errors(v, "table.exclude.list")).singleElement().asString()
                .startsWith("'[abc' is not a valid regular expression: ");
        assertThat(errors(v, "column.exclude.list")).singleElement().asString()
                .startsWith("'*bad' is not a valid regular expression: ");
        assertThat(errors(v, "topology")).isEmpty();
        assertThat(errorCount(v)).isEqualTo(3);
    }

    @Test
    void everyErrorLandsOnItsField() {
        Map<String, ConfigValue> v = validate(with(base(), "topology", "-80=127.0.0.1:1,40-=127.0.0.1:2",
                "start.mode", "position",
                "start.position", "{\"shard_gtids\":[{\"keyspace\":\"ks\",\"shard\":\"-80\",\"gtid\":\"MariaDB/0-1\"}]}",
                "table.include.list", "orders("));
        assertThat(errors(v, "topology")).anyMatch(e -> e.contains("overlap"));
        assertThat(errors(v, "start.position")).anyMatch(e -> e.contains("MariaDB/0-1"));
        assertThat(errors(v, "table.include.list")).anyMatch(e -> e.contains("orders("));
        assertThat(errors(v, "keyspace")).isEmpty();
        assertThat(errors(v, "user")).isEmpty();
    }

    @Test
    void typedAccessorsReadTheConfig() {
        VStreamSourceConnectorConfig c = new VStreamSourceConnectorConfig(with(base(),
                "connect.timeout.ms", "5000", "heartbeat.interval.ms", "250", "table.exclude.list", "a,b",
                "start.mode", "Position", "database", ""));
        assertThat(c.database()).as("empty means the keyspace").isEqualTo("ks");
        assertThat(c.topology()).extracting(ShardAddress::name).containsExactly("-80", "80-");
        assertThat(c.connectTimeout()).isEqualTo(Duration.ofSeconds(5));
        assertThat(c.heartbeatInterval()).isEqualTo(Duration.ofMillis(250));
        assertThat(c.startMode()).isEqualTo(VStreamSourceConnectorConfig.StartMode.POSITION);
        assertThat(c.tableFilter().includesTable("a")).isFalse();
        assertThat(c.tableFilter().includesTable("c")).isTrue();
    }

    @Test
    void serverIdsAreDistinctPerShardAndStablePerConnector() {
        VStreamSourceConnectorConfig derived = new VStreamSourceConnectorConfig(base());
        long first = derived.serverId("cdc", 0);
        assertThat(first).isBetween(1_000_000_000L, 2_000_000_000L);
        assertThat(derived.serverId("cdc", 1)).isEqualTo(first + 1);
        assertThat(derived.serverId("cdc", 0)).isEqualTo(first);
        VStreamSourceConnectorConfig fixed = new VStreamSourceConnectorConfig(with(base(),
                "binlog.server.id.base", "5000"));
        assertThat(fixed.serverId("cdc", 2)).isEqualTo(5002);
    }

    @Test
    void moreShardsThanTheDerivedServerIdRangeHoldsAskForABase() {
        StringBuilder topology = new StringBuilder();
        int n = 1024;
        for (int i = 0; i < n; i++) {
            String start = i == 0 ? "" : String.format(java.util.Locale.ROOT, "%04x", i * 64);
            String end = i == n - 1 ? "" : String.format(java.util.Locale.ROOT, "%04x", (i + 1) * 64);
            topology.append(i == 0 ? "" : ",").append(start).append('-').append(end).append("=10.0.").append(i / 250)
                    .append('.').append(i % 250).append(":3306");
        }
        Map<String, ConfigValue> v = validate(with(base(), "topology", topology.toString()));
        assertThat(errors(v, "topology")).isEmpty();
        assertThat(errors(v, "binlog.server.id.base")).singleElement().asString()
                .contains("1024 shards").contains("set binlog.server.id.base");
        assertThat(errors(validate(with(base(), "topology", topology.toString(), "binlog.server.id.base",
                "3000000000")), "binlog.server.id.base")).isEmpty();
        assertThat(VStreamSourceConnectorConfig.serverIdProblem(4_294_967_000L, 1024)).get().asString()
                .contains("at most 4294966272");
        assertThat(VStreamSourceConnectorConfig.serverIdProblem(0, 1000)).isEmpty();
    }
}
