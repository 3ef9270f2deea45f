package io.vstream.connect.core.position;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.function.Predicate;

/**
 * Reads one JSON document of a known kind (e.g. "VGTID JSON") and turns every problem into a
 * {@link MalformedPositionException} naming the kind and the JSON path, e.g.
 * {@code Malformed VGTID JSON at shard_gtids[0]: key 'gtid' is missing}. Never quotes values: they may be keys of rows.
 */
final class JsonReader {

    private final String kind;

    JsonReader(String kind) {
        this.kind = kind;
    }

    JsonNode parse(String json) {
        try {
            JsonNode root = VgtidJson.MAPPER.readTree(json);
            if (root == null || root.isMissingNode()) {
                throw fail("", "it is empty");
            }
            return root;
        } catch (JsonProcessingException e) {
            throw new MalformedPositionException("Malformed " + kind + ": not valid JSON (" + e.getOriginalMessage()
                    + ")", e);
        }
    }

    MalformedPositionException fail(String path, String problem, Throwable cause) {
        String at = path.isEmpty() ? "" : " at " + path;
        return new MalformedPositionException("Malformed " + kind + at + ": " + problem, cause);
    }

    MalformedPositionException fail(String path, String problem) {
        return fail(path, problem, null);
    }

    /** Checks that {@code node} (at {@code path}) is {@code what}, e.g. "an array". */
    JsonNode require(JsonNode node, String path, Predicate<JsonNode> test, String what) {
        if (node == null || !test.test(node)) {
            throw fail(path, "must be " + what + ", found " + describe(node));
        }
        return node;
    }

    /** The member {@code key} of object {@code node}, which must be present, non-null and {@code what}. */
    JsonNode required(JsonNode node, String key, String path, Predicate<JsonNode> test, String what) {
        require(node, path, JsonNode::isObject, "an object");
        JsonNode member = node.get(key);
        if (member == null || member.isNull()) {
            throw fail(path, "key '" + key + "' is missing");
        }
        if (!test.test(member)) {
            throw fail(path, "key '" + key + "' must be " + what + ", found " + describe(member));
        }
        return member;
    }

    String requiredText(JsonNode node, String key, String path) {
        return required(node, key, path, JsonNode::isTextual, "a string").textValue();
    }

    /** The JSON type of {@code node}, e.g. "a number" (not its value). */
    static String describe(JsonNode node) {
        if (node == null || node.isMissingNode()) {
            return "nothing";
        }
        return switch (node.getNodeType()) {
            case ARRAY -> "an array";
            case OBJECT, POJO -> "an object";
            case STRING -> "a string";
            case NUMBER -> "a number";
            case BOOLEAN -> "a boolean";
            case NULL -> "null";
            default -> node.getNodeType().toString().toLowerCase(java.util.Locale.ROOT);
        };
    }
}
