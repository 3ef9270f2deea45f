package io.vstream.connect.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The record format and client tuning a file of config-examples sets (its converters, {@code copy.rows.per.record},
 * {@code producer.override.*}, {@code consumer.override.*}), so that a scenario's "us" deploys as a user who copies the example does. Reads the
 * directory {@code bench/run} passes as {@code vstream.config.examples.dir}.
 */
final class ExampleTuning {
    private static final List<String> PREFIXES = List.of("key.converter", "value.converter", "header.converter",
            "producer.override.", "consumer.override.", "copy.rows.per.record");

    private ExampleTuning() {
    }

    /** The tuning keys of {@code config-examples/<file>}, in the file's order. */
    static Map<String, String> of(String file) {
        String dir = System.getProperty("vstream.config.examples.dir", "../config-examples");
        Path path = Path.of(dir, file);
        JsonNode root;
        try {
            root = new ObjectMapper().readTree(path.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read the example " + path, e);
        }
        Map<String, String> out = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = root.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (PREFIXES.stream().anyMatch(e.getKey()::startsWith)) {
                out.put(e.getKey(), e.getValue().asText());
            }
        }
        return out;
    }

    /** The keys as {@code k=v, ...}, for the report's settings. */
    static String describe(Map<String, String> tuning) {
        StringBuilder b = new StringBuilder();
        tuning.forEach((k, v) -> b.append(b.length() == 0 ? "" : ", ").append(k).append('=').append(v));
        return b.toString();
    }
}
