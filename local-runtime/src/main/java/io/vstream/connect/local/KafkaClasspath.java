package io.vstream.connect.local;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * The classpath of the Kafka processes (broker, Connect worker, console tools): Kafka's and Connect's jars and their
 * dependencies from the local Maven repository, as the build of the quickstart module resolved them (the resource
 * {@code io/vstream/connect/local/worker.classpath} of its jar, which the quickstart and the tests that start Kafka as
 * processes have on their classpath). It holds none of our classes: the worker gets our plugins only from
 * {@code plugin.path}. Reads files; starts nothing.
 */
public final class KafkaClasspath {
    static final String RESOURCE = "worker.classpath";
    private static final String OUR_PACKAGE = "io/vstream/";

    private final List<Path> entries;

    private KafkaClasspath(List<Path> entries) {
        this.entries = List.copyOf(entries);
    }

    /** Loads the resource and checks that every entry exists. */
    public static KafkaClasspath load() {
        String text;
        try (InputStream in = KafkaClasspath.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("The resource " + RESOURCE + " is missing: build the quickstart module"
                        + " (mvn -DskipTests package)");
            }
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<Path> entries = new ArrayList<>();
        for (String each : text.split(java.io.File.pathSeparator)) {
            Path p = Path.of(each);
            if (!Files.exists(p)) {
                throw new IllegalStateException(p + " (on the Kafka classpath) is gone from the local Maven repository:"
                        + " rebuild with mvn -DskipTests package");
            }
            entries.add(p);
        }
        return new KafkaClasspath(entries);
    }

    /** A classpath of these entries (e.g. the jars of a lib directory); unchecked. */
    public static KafkaClasspath of(List<Path> entries) {
        return new KafkaClasspath(entries);
    }

    public List<Path> entries() {
        return entries;
    }

    /** The {@code -cp} argument. */
    public String asArgument() {
        return String.join(java.io.File.pathSeparator, entries.stream().map(Path::toString).toList());
    }

    /** The entries that hold a class of ours ({@code io/vstream/...}); empty is the only right answer. */
    public List<String> entriesWithOurClasses() {
        List<String> found = new ArrayList<>();
        for (Path p : entries) {
            if (Files.isDirectory(p)) {
                if (Files.exists(p.resolve(OUR_PACKAGE))) {
                    found.add(p.toString());
                }
                continue;
            }
            try (ZipFile zip = new ZipFile(p.toFile())) {
                if (zip.stream().map(ZipEntry::getName).anyMatch(n -> n.startsWith(OUR_PACKAGE))) {
                    found.add(p.toString());
                }
            } catch (IOException e) {
                found.add(p + " (unreadable: " + e.getMessage() + ")");
            }
        }
        return found;
    }

    /**
     * Writes the log4j2 configuration of a Kafka process (INFO to its output, which goes to its log file; the MariaDB
     * driver's own report of each server error only at ERROR, as docs/worker.md recommends).
     */
    public static Path writeLogConfig(Path dir) {
        Path file = dir.resolve("log4j2.properties");
        try {
            Files.createDirectories(dir);
            Files.writeString(file, String.join("\n",
                    "rootLogger.level=INFO",
                    "rootLogger.appenderRef.out.ref=OUT",
                    "appender.out.type=Console",
                    "appender.out.name=OUT",
                    "appender.out.layout.type=PatternLayout",
                    "appender.out.layout.pattern=[%d] %p %m (%c{1})%n",
                    "logger.reflections.name=org.reflections",
                    "logger.reflections.level=ERROR",
                    // the MariaDB driver logs every error a server returns at WARN, also those the connectors expect
                    // and handle (docs/worker.md, "Logging"); the connectors log what each means
                    "logger.mariadberrors.name=org.mariadb.jdbc.message.server.ErrorPacket",
                    "logger.mariadberrors.level=ERROR",
                    ""));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return file;
    }

    /**
     * The launchers' JVM options: a heap of {@code heap}, {@code more} (a {@code -javaagent:}), the serial collector,
     * headless, log4j2 configured by {@code log4jConfig}.
     */
    public static List<String> defaultJvmOptions(String heap, List<String> more, Path log4jConfig) {
        List<String> options = new ArrayList<>();
        options.add("-Xmx" + heap);
        options.addAll(more);
        options.add("-XX:+UseSerialGC");
        options.add("-Djava.awt.headless=true");
        options.add("-Dlog4j2.configurationFile=" + log4jConfig);
        return options;
    }

    /** A {@code java} command line for {@code mainClass} with this classpath and exactly these JVM options. */
    public List<String> javaCommand(List<String> jvmOptions, String mainClass, String... args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(ProcessHandle.current().info().command().orElse("java"));
        cmd.addAll(jvmOptions);
        cmd.add("-cp");
        cmd.add(asArgument());
        cmd.add(mainClass);
        cmd.addAll(Arrays.asList(args));
        return cmd;
    }
}
