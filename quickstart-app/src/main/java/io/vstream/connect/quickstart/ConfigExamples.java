package io.vstream.connect.quickstart;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A file of {@code config-examples/} made fit for this machine, the way a user edits it: text replacements in the
 * values (the shards' {@code host:port}, the secrets file's path) and a few keys overridden (a replication factor of
 * 1 on a single broker). Reads files only.
 */
public final class ConfigExamples {
    private static final ObjectMapper JSON = new ObjectMapper();

    private ConfigExamples() {
    }

    public static Map<String, String> load(Path file, Map<String, String> replacements, Map<String, String> overrides) {
        JsonNode root;
        try {
            root = JSON.readTree(file.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + file, e);
        }
        Map<String, String> config = new LinkedHashMap<>();
        root.properties().forEach(e -> {
            String value = e.getValue().asText();
            for (Map.Entry<String, String> r : replacements.entrySet()) {
                value = value.replace(r.getKey(), r.getValue());
            }
            config.put(e.getKey(), value);
        });
        config.putAll(overrides);
        return config;
    }
}
