package io.vstream.connect.source;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.vstream.connect.core.config.ConfigDocs;
import io.vstream.connect.core.config.ReferenceFile;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigValue;
import org.apache.kafka.connect.runtime.SourceConnectorConfig;
import org.apache.kafka.connect.storage.Converter;
import org.junit.jupiter.api.Test;

/**
 * Keeps the source connector's generated documents in step with {@link VStreamSourceConnectorConfig}: the reference
 * page {@code docs/reference/source-connector.md} must be exactly what {@link ConfigDocs} renders from
 * {@link VStreamSourceConnectorConfig#CONFIG_DEF} (run with {@code -Ddocs.update=true} to rewrite it), and the example
 * {@code config-examples/cdc-source.json} must use only keys that exist and pass the connector's validation.
 * Reads and writes files only; no server.
 */
class ConfigReferenceTest {

    static final Path REFERENCE = Path.of("../../docs/reference/source-connector.md");
    static final Path CDC_EXAMPLE = Path.of("../../config-examples/cdc-source.json");

    static final String TITLE = "Source connector configuration";
    static final String INTRO = """
            The settings of `io.vstream.connect.source.VStreamSourceConnector`, which streams every shard of a keyspace
            from its binlog into one ordered topic per shard (see [source.md](../source.md)). Kafka Connect's own
            connector settings (`connector.class`, `tasks.max`, converters, `topic.creation.*`, `exactly.once.support`,
            `transaction.boundary`, ...) are described in Kafka Connect's documentation. A complete configuration:
            [config-examples/cdc-source.json](../../config-examples/cdc-source.json).
            """;

    @Test
    void referenceMatchesTheConfigDef() {
        String markdown = ConfigDocs.toMarkdown(TITLE, INTRO, VStreamSourceConnectorConfig.CONFIG_DEF);

        ReferenceFile.check(REFERENCE, markdown,
                ReferenceFile.updateCommand("connectors/source", ConfigReferenceTest.class));
    }

    @Test
    void cdcExampleUsesKnownKeysAndValidates() throws IOException {
        Map<String, String> config = readFlatStringObject(CDC_EXAMPLE);
        ConfigDef connect = SourceConnectorConfig.configDef();

        assertThat(config).containsEntry("connector.class", VStreamSourceConnector.class.getName());

        List<String> problems = new ArrayList<>();
        for (String key : config.keySet()) {
            boolean ours = VStreamSourceConnectorConfig.CONFIG_DEF.names().contains(key);
            boolean connects = connect.names().contains(key) || key.startsWith("topic.creation.default.")
                    || key.startsWith("producer.override."); // the worker's client override policy allows these
            if (!ours && !connects && !converterKey(config, key, problems)) {
                problems.add(key + ": neither the connector nor Kafka Connect defines this key");
            }
        }
        Map<String, String> withName = new LinkedHashMap<>(config);
        withName.put("name", "commerce-cdc"); // PUT /connectors/{name}/config takes the name from the URL
        for (ConfigValue v : new VStreamSourceConnector().validate(withName).configValues()) {
            v.errorMessages().forEach(m -> problems.add(v.name() + ": " + m));
        }
        for (ConfigValue v : connect.validate(withName)) {
            if (config.containsKey(v.name())) {
                v.errorMessages().forEach(m -> problems.add(v.name() + ": " + m));
            }
        }
        assertThat(problems).as("problems in %s", CDC_EXAMPLE).isEmpty();
    }

    /**
     * Whether {@code key} is a {@code key.converter.*} or {@code value.converter.*} key that the converter the file
     * names defines (Connect hands those to the converter); a value the converter refuses is added to
     * {@code problems}.
     */
    private static boolean converterKey(Map<String, String> config, String key, List<String> problems) {
        for (String prefix : List.of("key.converter", "value.converter")) {
            String className = config.get(prefix);
            if (className == null || !key.startsWith(prefix + ".")) {
                continue;
            }
            ConfigDef def;
            try {
                def = ((Converter) Class.forName(className).getDeclaredConstructor().newInstance()).config();
            } catch (ReflectiveOperationException e) {
                problems.add(prefix + ": cannot load " + className + " (" + e + ")");
                return true;
            }
            String name = key.substring(prefix.length() + 1);
            if (!def.names().contains(name)) {
                return false;
            }
            for (ConfigValue v : def.validate(Map.of(name, config.get(key)))) {
                if (v.name().equals(name)) {
                    v.errorMessages().forEach(m -> problems.add(key + ": " + m));
                }
            }
            return true;
        }
        return false;
    }

    /**
     * The file as {@code PUT /connectors/{name}/config} takes it: one flat JSON object of string values (a key given
     * twice is refused rather than silently overwritten).
     */
    private static Map<String, String> readFlatStringObject(Path file) throws IOException {
        JsonNode root = JsonMapper.builder().enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build()
                .readTree(file.toFile());
        assertThat(root.isObject()).as("%s must hold one JSON object", file).isTrue();
        Map<String, String> config = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> field : root.properties()) {
            assertThat(field.getValue().isTextual()).as("%s: the value of '%s' must be a JSON string", file,
                    field.getKey()).isTrue();
            config.put(field.getKey(), field.getValue().asText());
        }
        return config;
    }
}
