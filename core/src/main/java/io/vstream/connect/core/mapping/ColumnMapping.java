package io.vstream.connect.core.mapping;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * How the columns of a source table map onto a target table (an online schema change's ghost table, or any renamed
 * target): each shared column with its target name (the same name, or the new name of a renamed column), the source
 * columns the target drops, and the target columns the source lacks (they take their default). One JSON form,
 * {@code {"map":[["old","new"],...],"dropped":[...],"added":[...]}}, stored beside the migration and read by the applier.
 */
public record ColumnMapping(Map<String, String> shared, List<String> dropped, List<String> added) {
    private static final ObjectMapper JSON = new ObjectMapper();

    public ColumnMapping {
        shared = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(shared));
        dropped = List.copyOf(dropped);
        added = List.copyOf(added);
    }

    /** The identity mapping of these columns. */
    public static ColumnMapping identity(List<String> columns) {
        Map<String, String> m = new LinkedHashMap<>();
        columns.forEach(c -> m.put(c, c));
        return new ColumnMapping(m, List.of(), List.of());
    }

    /** The target name of a source column, or {@code null} when the target drops it. */
    public String target(String sourceColumn) {
        String t = shared.get(sourceColumn);
        if (t != null) {
            return t;
        }
        for (Map.Entry<String, String> e : shared.entrySet()) {
            if (e.getKey().equalsIgnoreCase(sourceColumn)) {
                return e.getValue();
            }
        }
        return null;
    }

    /** The source columns that were renamed, old name to new name. */
    public Map<String, String> renamed() {
        Map<String, String> r = new LinkedHashMap<>();
        shared.forEach((k, v) -> {
            if (!k.equals(v)) {
                r.put(k, v);
            }
        });
        return r;
    }

    public String toJson() {
        ObjectNode root = JSON.createObjectNode();
        ArrayNode map = root.putArray("map");
        shared.forEach((k, v) -> map.addArray().add(k).add(v));
        ArrayNode d = root.putArray("dropped");
        dropped.forEach(d::add);
        ArrayNode a = root.putArray("added");
        added.forEach(a::add);
        try {
            return JSON.writeValueAsString(root);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Reads {@link #toJson()}; a malformed mapping is refused naming what is wrong. */
    public static ColumnMapping fromJson(String json) {
        Objects.requireNonNull(json, "json");
        JsonNode root;
        try {
            root = JSON.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("Column mapping is not JSON: " + e.getOriginalMessage());
        }
        if (root == null || !root.path("map").isArray()) {
            throw new IllegalArgumentException("Column mapping lacks its 'map' array");
        }
        Map<String, String> m = new LinkedHashMap<>();
        for (JsonNode pair : root.get("map")) {
            if (!pair.isArray() || pair.size() != 2 || !pair.get(0).isTextual() || !pair.get(1).isTextual()) {
                throw new IllegalArgumentException("Column mapping entry " + pair + " must be [\"source\",\"target\"]");
            }
            m.put(pair.get(0).asText(), pair.get(1).asText());
        }
        return new ColumnMapping(m, strings(root.path("dropped")), strings(root.path("added")));
    }

    private static List<String> strings(JsonNode n) {
        List<String> out = new ArrayList<>();
        if (n.isArray()) {
            n.forEach(x -> out.add(x.asText()));
        }
        return out;
    }
}
