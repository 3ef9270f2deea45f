package io.vstream.connect.sink;

import io.vstream.connect.core.config.ConfigDocs;
import io.vstream.connect.core.config.ReferenceFile;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * Keeps {@code docs/reference/sink-connector.md} exactly what {@link ConfigDocs} renders from
 * {@link VStreamSinkConnectorConfig#CONFIG_DEF} (run with {@code -Ddocs.update=true} to rewrite it). Files only.
 */
class ConfigReferenceTest {
    static final Path REFERENCE = Path.of("../../docs/reference/sink-connector.md");

    static final String INTRO = """
            The settings of `io.vstream.connect.sink.VStreamSinkConnector`, which applies the source connector's
            per-shard logs to a MySQL/MariaDB target exactly once in effect (see [sink.md](../sink.md)). Kafka Connect's
            own sink settings (`topics`, `tasks.max`, converters, `errors.tolerance`,
            `errors.deadletterqueue.topic.name`, `consumer.override.*`, ...) are described in Kafka Connect's
            documentation. Complete configurations: [config-examples/clone-sink.json](../../config-examples/clone-sink.json),
            [config-examples/reshard-sink.json](../../config-examples/reshard-sink.json).
            """;

    @Test
    void referenceMatchesTheConfigDef() {
        ReferenceFile.check(REFERENCE, ConfigDocs.toMarkdown("Sink connector configuration", INTRO,
                VStreamSinkConnectorConfig.CONFIG_DEF),
                ReferenceFile.updateCommand("connectors/sink", ConfigReferenceTest.class));
    }
}
