package io.vstream.connect.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProcessOverridesTest {

    @Test
    void aGivenPropertyReplacesTheDefaultLineAndOthersAreAdded(@TempDir Path dir) throws Exception {
        ProcessOverrides overrides = new ProcessOverrides().property("group.id", "bench-x").property("extra", "1");

        Path file = overrides.writeProperties(dir.resolve("w/worker.properties"),
                List.of("# a comment", "group.id=vstream-quickstart", "group.id.suffix=kept", "plugin.path=/p"));

        assertThat(Files.readAllLines(file)).containsExactly("# a comment", "group.id.suffix=kept", "plugin.path=/p",
                "group.id=bench-x", "extra=1");
    }

    @Test
    void givenJvmOptionsReplaceTheDefaultOnes() {
        KafkaClasspath classpath = KafkaClasspath.of(List.of(Path.of("/a.jar"), Path.of("/b.jar")));
        List<String> defaults = KafkaClasspath.defaultJvmOptions("512m", List.of("-javaagent:x"), Path.of("/l.props"));

        assertThat(new ProcessOverrides().javaCommand(classpath, defaults, "kafka.Kafka", "s.props")).endsWith(
                "-Xmx512m", "-javaagent:x", "-XX:+UseSerialGC", "-Djava.awt.headless=true",
                "-Dlog4j2.configurationFile=/l.props", "-cp", "/a.jar:/b.jar", "kafka.Kafka", "s.props");
        assertThat(new ProcessOverrides().jvm(List.of("-Xmx1g", "-XX:+UseG1GC"))
                .javaCommand(classpath, defaults, "kafka.Kafka")).endsWith("-Xmx1g", "-XX:+UseG1GC", "-cp",
                "/a.jar:/b.jar", "kafka.Kafka");
    }
}
