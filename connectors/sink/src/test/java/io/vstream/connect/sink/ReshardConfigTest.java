package io.vstream.connect.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigValue;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.runtime.SinkConnectorConfig;
import org.junit.jupiter.api.Test;

/**
 * The reshard keys: defaults, validation messages that name the key and the fix, the cross-field rules, and the
 * example config-examples/reshard-sink.json. Files only; no server.
 */
class ReshardConfigTest {
    private static final Path EXAMPLE = Path.of("../../config-examples/reshard-sink.json");

    private static Map<String, String> reshard(String... kv) {
        Map<String, String> c = new HashMap<>();
        c.put("mode", "reshard");
        c.put("target.user", "applier");
        c.put("target.topology", "-80=10.0.0.1:3306,80-=10.0.0.2:3306");
        c.put("reshard.column.default", "id");
        for (int i = 0; i < kv.length; i += 2) {
            c.put(kv[i], kv[i + 1]);
        }
        return c;
    }

    /** Every error message validate() reports, as "key: message". */
    private static List<String> errors(Map<String, String> config) {
        List<String> out = new ArrayList<>();
        for (ConfigValue v : new VStreamSinkConnector().validate(config).configValues()) {
            v.errorMessages().forEach(m -> out.add(v.name() + ": " + m));
        }
        return out;
    }

    @Test
    void aSoundReshardConfigValidatesAndResolves() {
        Map<String, String> c = reshard("reshard.columns", "customer:customer_id, corder:customer_id");
        assertThat(errors(c)).isEmpty();
        VStreamSinkConnectorConfig config = new VStreamSinkConnectorConfig(c);
        assertThat(config.mode()).isEqualTo(VStreamSinkConnectorConfig.Mode.RESHARD);
        assertThat(config.reshardVindex()).isEqualTo("hash"); // the default
        assertThat(config.reshardColumns()).containsExactly(Map.entry("customer", "customer_id"),
                Map.entry("corder", "customer_id"));
        SinkSettings s = SinkSettings.of(config, "rs");
        assertThat(s.forTarget("80-").host()).isEqualTo("10.0.0.2");
        assertThat(ShardRouter.of(s).targets().shards()).hasSize(2);
        assertThat(new VStreamSinkConnectorConfig(reshard("reshard.vindex", " XXHASH ")).reshardVindex())
                .isEqualTo("xxhash");
    }

    @Test
    void anUnknownVindexNamesTheKeyAndTheValidOnes() {
        assertThat(errors(reshard("reshard.vindex", "md5"))).singleElement().asString()
                .startsWith("reshard.vindex:").contains("hash").contains("xxhash");
    }

    @Test
    void malformedColumnEntriesAreRefused() {
        assertThat(errors(reshard("reshard.columns", "customer"))).singleElement().asString()
                .startsWith("reshard.columns:").contains("<table>:<column>");
        assertThat(errors(reshard("reshard.columns", "t:a,t:b"))).singleElement().asString()
                .startsWith("reshard.columns:").contains("listed twice");
    }

    @Test
    void reshardNeedsShardingColumns() {
        Map<String, String> c = reshard();
        c.remove("reshard.column.default");
        assertThat(errors(c)).singleElement().asString().startsWith("reshard.columns:")
                .contains("reshard.column.default");
        assertThatThrownBy(() -> new VStreamSinkConnector().start(c)).isInstanceOf(ConnectException.class)
                .hasMessageContaining("reshard.columns");
    }

    @Test
    void reshardNeedsANonOverlappingTopologyOfKeyRanges() {
        Map<String, String> none = reshard();
        none.remove("target.topology");
        none.put("target.host", "10.0.0.1");
        assertThat(errors(none)).singleElement().asString().startsWith("target.topology:")
                .contains("mode=reshard needs target.topology");
        assertThat(errors(reshard("target.topology", "-80=h1:3306,8-=h2:3306"))).singleElement().asString()
                .startsWith("target.topology:").contains("'8-' is not a key range").contains("odd number");
        assertThat(errors(reshard("target.topology", "-80=h1:3306,40-=h2:3306"))).singleElement().asString()
                .startsWith("target.topology:").contains("-80 and 40- overlap").contains("40-80");
        assertThat(errors(reshard("target.topology", "-80=h1:3306,80-=h1:3306"))).singleElement().asString()
                .startsWith("target.topology:").contains("same server");
        assertThat(errors(reshard("target.topology", "-80=h1"))).singleElement().asString()
                .startsWith("target.topology:").contains("<shard>=<host>:<port>");
        assertThatThrownBy(() -> new VStreamSinkConnector().start(reshard("target.topology",
                "-80=h1:3306,40-=h2:3306"))).isInstanceOf(ConnectException.class).hasMessageContaining("overlap");
    }

    @Test
    void theReshardExampleUsesKnownKeysAndValidates() throws IOException {
        Map<String, String> config = new LinkedHashMap<>();
        new ObjectMapper().readTree(EXAMPLE.toFile()).properties()
                .forEach(e -> config.put(e.getKey(), e.getValue().asText()));
        assertThat(config).containsEntry("connector.class", VStreamSinkConnector.class.getName())
                .containsEntry("mode", "reshard");
        ConfigDef connect = SinkConnectorConfig.configDef();
        List<String> problems = new ArrayList<>();
        for (String key : config.keySet()) {
            if (!VStreamSinkConnectorConfig.CONFIG_DEF.names().contains(key) && !connect.names().contains(key)
                    && !key.startsWith("consumer.override.") && !key.startsWith("key.converter.")
                    && !key.startsWith("value.converter.")) { // a converter's own settings, passed to it
                problems.add(key + ": neither the connector nor Kafka Connect defines this key");
            }
        }
        config.put("name", "reshard-sink");
        problems.addAll(errors(config));
        assertThat(problems).as("problems in %s", EXAMPLE).isEmpty();
    }

    @Test
    void theOtherModesIgnoreTheReshardRules() {
        Map<String, String> clone = new HashMap<>(Map.of("mode", "clone", "target.user", "u", "target.host", "h"));
        assertThat(errors(clone)).isEmpty();
    }

    @Test
    void theMostRestrictiveControlOfTheNewShardsWins() {
        var run = ControlStore.Control.RUN;
        var pause = new ControlStore.Control(ControlStore.Command.PAUSE, null);
        var early = new ControlStore.Control(ControlStore.Command.STOP_AT, "MariaDB/0-1-10");
        var late = new ControlStore.Control(ControlStore.Command.STOP_AT, "MariaDB/0-1-20");
        var off = new ControlStore.Control(ControlStore.Command.HANDED_OFF, null);
        assertThat(ControlStore.mostRestrictive(List.of(run, run))).isEqualTo(run);
        assertThat(ControlStore.mostRestrictive(List.of(run, late, early))).isEqualTo(early);
        assertThat(ControlStore.mostRestrictive(List.of(early, late))).isEqualTo(early);
        assertThat(ControlStore.mostRestrictive(List.of(late, pause))).isEqualTo(pause);
        assertThat(ControlStore.mostRestrictive(List.of(pause, off, run))).isEqualTo(off);
        var otherDomain = new ControlStore.Control(ControlStore.Command.STOP_AT, "MariaDB/1-2-5");
        assertThat(ControlStore.mostRestrictive(List.of(early, otherDomain)).command())
                .isEqualTo(ControlStore.Command.PAUSE);
    }
}
