package io.vstream.connect.it;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

/**
 * A plugin directory for the Avro tests, laid out as docs/avro.md tells users to: Apicurio's converter jars (with Avro
 * and their other dependencies) as a plugin of their own, {@code <dir>/apicurio-avro-converter/}. Its jars carry no
 * {@code META-INF/services} manifest, so workers with {@code plugin.discovery=service_load} (ours) would not see the
 * converter; a small jar holding the manifest is added, as Kafka's {@code connect-plugin-path sync-manifests} does.
 * The worker's {@code plugin.path} lists this directory after the shared one of our plugins, which stays untouched.
 */
final class AvroPlugins {
    static final String CONVERTER_DIR_PROPERTY = "vstream.avro-converter.dir";
    static final String PLUGIN_NAME = "apicurio-avro-converter";
    static final String MANIFEST = "META-INF/services/org.apache.kafka.connect.storage.Converter";

    private AvroPlugins() {
    }

    /** Lays out {@code target/avro-plugins/apicurio-avro-converter/} and returns {@code target/avro-plugins}. */
    static Path converterPluginPath() {
        Path converter = Paths.get(require(CONVERTER_DIR_PROPERTY));
        Path target = Paths.get("target", "avro-plugins").toAbsolutePath();
        Path plugin = target.resolve(PLUGIN_NAME);
        try {
            deleteTree(target);
            Files.createDirectories(plugin);
            try (Stream<Path> jars = Files.list(converter)) {
                for (Path jar : (Iterable<Path>) jars::iterator) {
                    Files.copy(jar, plugin.resolve(jar.getFileName()));
                }
            }
            try (OutputStream file = Files.newOutputStream(plugin.resolve("apicurio-converter-manifests.jar"));
                 JarOutputStream jar = new JarOutputStream(file)) {
                jar.putNextEntry(new JarEntry(MANIFEST));
                jar.write((AvroRegistryIT.CONVERTER_CLASS + "\n").getBytes(StandardCharsets.UTF_8));
                jar.closeEntry();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Could not lay out " + plugin, e);
        }
        return target;
    }

    private static String require(String property) {
        String value = System.getProperty(property);
        if (value == null) {
            throw new IllegalStateException("System property " + property + " is not set: run through 'mvn verify'");
        }
        return value;
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) all.sorted(java.util.Comparator.reverseOrder())::iterator) {
                Files.delete(p);
            }
        }
    }
}
