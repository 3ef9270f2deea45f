package io.vstream.connect.core.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReferenceFileTest {

    private static final String COMMAND = "mvn -pl connectors/source test -Dtest=ConfigReferenceTest -Ddocs.update=true";

    @TempDir
    Path dir;

    @Test
    void upToDateFileIsLeftAlone() throws IOException {
        Path file = dir.resolve("ref.md");
        Files.writeString(file, "# Ref\n");
        FileTime before = FileTime.fromMillis(1_000_000L);
        Files.setLastModifiedTime(file, before);

        assertThat(ReferenceFile.check(file, "# Ref\n", COMMAND, false)).isEqualTo(ReferenceFile.Outcome.UP_TO_DATE);
        assertThat(ReferenceFile.check(file, "# Ref\n", COMMAND, true)).isEqualTo(ReferenceFile.Outcome.UP_TO_DATE);
        assertThat(Files.getLastModifiedTime(file)).isEqualTo(before);
    }

    @Test
    void staleFileFailsWithTheCommandThatRegeneratesIt() throws IOException {
        Path file = dir.resolve("ref.md");
        Files.writeString(file, "# Old\n");

        assertThatThrownBy(() -> ReferenceFile.check(file, "# New\n", COMMAND, false))
                .isInstanceOf(AssertionError.class)
                .hasMessage(file.toAbsolutePath().normalize() + " is stale: run " + COMMAND);
        assertThat(Files.readString(file)).isEqualTo("# Old\n");
    }

    @Test
    void missingFileFailsSayingWhereItLooked() {
        Path file = dir.resolve("docs/reference/ref.md");

        assertThatThrownBy(() -> ReferenceFile.check(file, "# New\n", COMMAND, false))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("is missing (no file at " + file.toAbsolutePath().normalize() + ")")
                .hasMessageEndingWith(": run " + COMMAND);
        assertThat(file).doesNotExist();
    }

    @Test
    void updateModeWritesTheFileAndItsDirectories() throws IOException {
        Path file = dir.resolve("docs/reference/ref.md");

        assertThat(ReferenceFile.check(file, "# New\nü\n", COMMAND, true)).isEqualTo(ReferenceFile.Outcome.WRITTEN);
        assertThat(Files.readAllBytes(file)).isEqualTo("# New\nü\n".getBytes(StandardCharsets.UTF_8));
        assertThat(ReferenceFile.check(file, "# New\nü\n", COMMAND, false)).isEqualTo(ReferenceFile.Outcome.UP_TO_DATE);

        assertThat(ReferenceFile.check(file, "# Newer\n", COMMAND, true)).isEqualTo(ReferenceFile.Outcome.WRITTEN);
        assertThat(Files.readString(file)).isEqualTo("# Newer\n");
    }

    @Test
    void crlfCheckoutIsNotStale() throws IOException {
        Path file = dir.resolve("ref.md");
        Files.writeString(file, "# Ref\r\n\r\ntext\r\n");

        assertThat(ReferenceFile.check(file, "# Ref\n\ntext\n", COMMAND, false))
                .isEqualTo(ReferenceFile.Outcome.UP_TO_DATE);
    }

    @Test
    void updatesOnlyWhenThePropertyIsTrue() throws IOException {
        Path file = dir.resolve("ref.md");
        Files.writeString(file, "# Old\n");
        String previous = System.getProperty(ReferenceFile.UPDATE_PROPERTY);
        try {
            System.setProperty(ReferenceFile.UPDATE_PROPERTY, "false");
            assertThatThrownBy(() -> ReferenceFile.check(file, "# New\n", COMMAND)).isInstanceOf(AssertionError.class);
            System.setProperty(ReferenceFile.UPDATE_PROPERTY, "true");
            assertThat(ReferenceFile.check(file, "# New\n", COMMAND)).isEqualTo(ReferenceFile.Outcome.WRITTEN);
        } finally {
            if (previous == null) {
                System.clearProperty(ReferenceFile.UPDATE_PROPERTY);
            } else {
                System.setProperty(ReferenceFile.UPDATE_PROPERTY, previous);
            }
        }
    }

    @Test
    void namesTheFileRelativeToTheRepositoryRoot() {
        assertThat(ReferenceFile.displayName(Path.of("../../docs/reference/source-connector.md")))
                .isEqualTo("docs/reference/source-connector.md");
        assertThat(ReferenceFile.displayName(Path.of("../docs/reference/transforms.md")))
                .isEqualTo("docs/reference/transforms.md");
        assertThat(ReferenceFile.displayName(Path.of("./docs/../docs/reference/x.md")))
                .isEqualTo("docs/reference/x.md");
    }

    @Test
    void updateCommandNamesModuleTestAndProperty() {
        assertThat(ReferenceFile.updateCommand("connectors/source", ConfigReferenceTestStandIn.class))
                .isEqualTo("mvn -pl connectors/source test -Dtest=ConfigReferenceTestStandIn -Ddocs.update=true");
    }

    private static final class ConfigReferenceTestStandIn {
    }
}
