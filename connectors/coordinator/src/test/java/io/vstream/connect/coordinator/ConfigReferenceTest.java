package io.vstream.connect.coordinator;

import io.vstream.connect.core.config.ConfigDocs;
import io.vstream.connect.core.config.ReferenceFile;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * Keeps {@code docs/reference/coordinator.md} exactly what {@link ConfigDocs} renders from
 * {@link VStreamCoordinatorConnectorConfig#CONFIG_DEF} (run with {@code -Ddocs.update=true} to rewrite it).
 */
class ConfigReferenceTest {
    static final Path REFERENCE = Path.of("../../docs/reference/coordinator.md");

    static final String INTRO = """
            The settings of `io.vstream.connect.coordinator.VStreamCoordinatorConnector`, the one-task connector that
            drives a workflow and its cut-over (see [clone.md](../clone.md)). Its state lives in its Connect offsets;
            its progress goes to `status.topic` (let Connect create it with `topic.creation.default.*`). A complete
            configuration: [config-examples/clone-coordinator.json](../../config-examples/clone-coordinator.json).
            """;

    @Test
    void referenceMatchesTheConfigDef() {
        ReferenceFile.check(REFERENCE, ConfigDocs.toMarkdown("Coordinator configuration", INTRO,
                VStreamCoordinatorConnectorConfig.CONFIG_DEF),
                ReferenceFile.updateCommand("connectors/coordinator", ConfigReferenceTest.class));
    }
}
