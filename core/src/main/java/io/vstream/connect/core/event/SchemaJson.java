package io.vstream.connect.core.event;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Iterator;
import java.util.Map;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;

/**
 * A Connect schema as a JSON text and back: how a FIELD record tells a consumer of schemaless records (JsonConverter
 * with {@code schemas.enable=false}) the exact schema of its table's row images ({@code row_schema}), so the rows
 * themselves need not repeat it. Keeps type, optionality, name, version, parameters and the structure (struct fields in
 * order, array items, map keys and values); default values are left out (a row image always carries every value).
 */
public final class SchemaJson {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private SchemaJson() {
    }

    /** The JSON text of {@code schema}. */
    public static String write(Schema schema) {
        try {
            return MAPPER.writeValueAsString(node(schema));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write a schema as JSON", e);
        }
    }

    /** The schema a {@link #write} text describes; {@link IllegalArgumentException} naming the problem otherwise. */
    public static Schema read(String json) {
        JsonNode root;
        try {
            root = MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("Malformed row schema: not valid JSON (" + e.getOriginalMessage() + ")",
                    e);
        }
        return schema(root, "");
    }

    private static ObjectNode node(Schema s) {
        ObjectNode n = MAPPER.createObjectNode();
        n.put("type", s.type().name());
        if (s.isOptional()) {
            n.put("optional", true);
        }
        if (s.name() != null) {
            n.put("name", s.name());
        }
        if (s.version() != null) {
            n.put("version", s.version());
        }
        if (s.doc() != null) {
            n.put("doc", s.doc());
        }
        if (s.parameters() != null && !s.parameters().isEmpty()) {
            ObjectNode p = n.putObject("parameters");
            for (Map.Entry<String, String> e : s.parameters().entrySet()) {
                p.put(e.getKey(), e.getValue());
            }
        }
        switch (s.type()) {
            case STRUCT -> {
                ArrayNode fields = n.putArray("fields");
                for (Field f : s.fields()) {
                    ObjectNode fn = node(f.schema());
                    fn.put("field", f.name());
                    fields.add(fn);
                }
            }
            case ARRAY -> n.set("items", node(s.valueSchema()));
            case MAP -> {
                n.set("keys", node(s.keySchema()));
                n.set("values", node(s.valueSchema()));
            }
            default -> {
                // a primitive: its type says it all
            }
        }
        return n;
    }

    private static Schema schema(JsonNode n, String path) {
        if (n == null || !n.isObject()) {
            throw malformed(path, "a schema must be a JSON object");
        }
        JsonNode typeNode = n.get("type");
        if (typeNode == null || !typeNode.isTextual()) {
            throw malformed(path, "'type' is missing");
        }
        Schema.Type type;
        try {
            type = Schema.Type.valueOf(typeNode.asText());
        } catch (IllegalArgumentException e) {
            throw malformed(path, "unknown type '" + typeNode.asText() + "'");
        }
        SchemaBuilder b = switch (type) {
            case STRUCT -> {
                SchemaBuilder s = SchemaBuilder.struct();
                JsonNode fields = n.get("fields");
                if (fields == null || !fields.isArray()) {
                    throw malformed(path, "a STRUCT needs 'fields'");
                }
                for (int i = 0; i < fields.size(); i++) {
                    JsonNode f = fields.get(i);
                    JsonNode name = f.get("field");
                    if (name == null || !name.isTextual()) {
                        throw malformed(path + ".fields[" + i + "]", "'field' (the name) is missing");
                    }
                    s.field(name.asText(), schema(f, path + "." + name.asText()));
                }
                yield s;
            }
            case ARRAY -> SchemaBuilder.array(schema(n.get("items"), path + "[]"));
            case MAP -> SchemaBuilder.map(schema(n.get("keys"), path + "{key}"), schema(n.get("values"),
                    path + "{value}"));
            default -> SchemaBuilder.type(type);
        };
        if (n.path("optional").asBoolean(false)) {
            b.optional();
        }
        if (n.hasNonNull("name")) {
            b.name(n.get("name").asText());
        }
        if (n.hasNonNull("version")) {
            b.version(n.get("version").asInt());
        }
        if (n.hasNonNull("doc")) {
            b.doc(n.get("doc").asText());
        }
        JsonNode params = n.get("parameters");
        if (params != null && params.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = params.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                b.parameter(e.getKey(), e.getValue().asText());
            }
        }
        return b.build();
    }

    private static IllegalArgumentException malformed(String path, String problem) {
        return new IllegalArgumentException("Malformed row schema at '" + (path.isEmpty() ? "." : path) + "': "
                + problem);
    }
}
