package io.vstream.connect.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The answer of {@code PUT /connector-plugins/{class}/config/validate}, reduced to what an operator acts on: the
 * error messages by configuration key (keys without errors are left out).
 */
public record ValidationResult(String connectorClass, int errorCount, Map<String, List<String>> errors) {
    public ValidationResult {
        errors = Collections.unmodifiableMap(new LinkedHashMap<>(errors));
    }

    /** Reads Connect's {@code ConfigInfos} JSON ({@code name, error_count, groups, configs[].value.errors}). */
    public static ValidationResult fromJson(JsonNode root) {
        Map<String, List<String>> errors = new LinkedHashMap<>();
        for (JsonNode c : root.path("configs")) {
            JsonNode value = c.path("value");
            List<String> messages = new java.util.ArrayList<>();
            value.path("errors").forEach(e -> messages.add(e.asText()));
            if (!messages.isEmpty()) {
                errors.put(value.path("name").asText(c.path("definition").path("name").asText("?")), messages);
            }
        }
        int count = root.path("error_count").asInt(errors.values().stream().mapToInt(List::size).sum());
        return new ValidationResult(root.path("name").asText(""), count, errors);
    }

    public boolean ok() {
        return errorCount == 0 && errors.isEmpty();
    }
}
