package io.vstream.connect.transforms;

import static org.assertj.core.api.Assertions.assertThat;

import io.vstream.connect.transforms.predicates.EventTypeIs;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;
import org.junit.jupiter.api.Test;

/** docs/transforms.md is hand-written: this keeps it naming every option of every plugin with its default. */
class TransformsDocTest {

    private static final Path DOC = Path.of("../docs/transforms.md");

    @Test
    void theGuideDocumentsEveryOptionWithItsDefault() throws IOException {
        String doc = Files.readString(DOC, StandardCharsets.UTF_8);
        Map<String, ConfigDef> defs = Map.of(
                "ExtractNewRow", ExtractNewRow.CONFIG_DEF,
                "ShardToTableRouter", ShardToTableRouter.CONFIG_DEF,
                "KeyspaceIdHeader", KeyspaceIdHeader.CONFIG_DEF,
                "EventTypeIs", EventTypeIs.CONFIG_DEF);
        defs.forEach((plugin, def) -> {
            assertThat(doc).as("section of %s", plugin).contains(plugin);
            for (ConfigDef.ConfigKey key : def.configKeys().values()) {
                assertThat(doc).as("option %s of %s", key.name, plugin).contains("`" + key.name + "`");
                if (key.hasDefault() && key.defaultValue != null) {
                    String shown = ConfigDef.convertToString(key.defaultValue, key.type);
                    if (!shown.isEmpty()) {
                        assertThat(doc).as("default of %s.%s", plugin, key.name)
                                .contains("| `" + key.name + "` | `" + shown + "` |");
                    }
                }
            }
        });
        for (String plugin : new String[] {"IsRowEvent", "IsControlEvent", "io.vstream.connect.transforms.predicates"}) {
            assertThat(doc).contains(plugin);
        }
    }
}
