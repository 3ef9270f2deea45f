package io.vstream.connect.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a caller changes of a Kafka process's defaults ({@link KafkaBroker}, {@link ConnectWorker}): its JVM options,
 * all of them instead of the launcher's (heap, collector, a profile, the logging of another binding on the classpath),
 * properties, added or replacing a default, and whether it runs in a session of its own. Writes the process's properties file; starts nothing.
 */
public final class ProcessOverrides {
    private List<String> jvm;
    private boolean ownSession = true;
    private final Map<String, String> properties = new LinkedHashMap<>();

    /** The process's JVM options instead of the launcher's; before a start. */
    public ProcessOverrides jvm(List<String> options) {
        this.jvm = List.copyOf(options);
        return this;
    }

    /** One more property, or another value of one of the launcher's; before a start. */
    public ProcessOverrides property(String key, String value) {
        properties.put(key, value);
        return this;
    }

    /** Whether the process runs in a session of its own (the default; see {@link ManagedProcess}); before a start. */
    public ProcessOverrides ownSession(boolean own) {
        this.ownSession = own;
        return this;
    }

    boolean ownSession() {
        return ownSession;
    }

    /** A {@code java} command line for {@code mainClass}: the JVM options given, or else {@code defaultJvm}. */
    List<String> javaCommand(KafkaClasspath classpath, List<String> defaultJvm, String mainClass, String... args) {
        return classpath.javaCommand(jvm == null ? defaultJvm : jvm, mainClass, args);
    }

    /**
     * Writes {@code defaultLines} ({@code key=value} lines and {@code #} comments) without those whose key is given
     * here, then the properties given here.
     */
    Path writeProperties(Path file, List<String> defaultLines) {
        List<String> lines = new ArrayList<>(defaultLines);
        lines.removeIf(line -> properties.containsKey(line.substring(0, Math.max(0, line.indexOf('=')))));
        properties.forEach((k, v) -> lines.add(k + "=" + v));
        lines.add("");
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, String.join("\n", lines));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return file;
    }
}
