package io.vstream.connect.core.position;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Iterator;
import java.util.List;

/**
 * The exact, typed JSON of a {@link LastPk}: {@code {"fields":["id","name"],"values":[{"i":"12"},{"s":"x"}]}}.
 * Each value is JSON {@code null} or an object with one type tag whose value is a string, so that every value
 * type round-trips exactly: {@code i} Long, {@code u} BigInteger, {@code d} BigDecimal ({@code toString()}, scale
 * kept), {@code s} String, {@code b} byte[] (standard base64).
 */
final class LastPkJson {

    private LastPkJson() {
    }

    static ObjectNode write(LastPk lastPk) {
        ObjectNode node = VgtidJson.MAPPER.createObjectNode();
        ArrayNode fields = node.putArray("fields");
        ArrayNode values = node.putArray("values");
        for (int i = 0; i < lastPk.size(); i++) {
            fields.add(lastPk.columns().get(i));
            Object value = lastPk.value(i);
            if (value == null) {
                values.addNull();
            } else if (value instanceof Long l) {
                values.addObject().put("i", l.toString());
            } else if (value instanceof BigInteger b) {
                values.addObject().put("u", b.toString());
            } else if (value instanceof BigDecimal d) {
                values.addObject().put("d", d.toString());
            } else if (value instanceof String s) {
                values.addObject().put("s", s);
            } else if (value instanceof byte[] bytes) {
                values.addObject().put("b", Base64.getEncoder().encodeToString(bytes));
            } else {
                throw new IllegalStateException("LastPk holds an unexpected " + value.getClass().getName());
            }
        }
        return node;
    }

    static LastPk read(JsonReader in, JsonNode node, String path) {
        in.require(node, path, JsonNode::isObject, "an object with fields and values");
        JsonNode fields = in.required(node, "fields", path, JsonNode::isArray, "an array of column names");
        JsonNode values = in.required(node, "values", path, JsonNode::isArray, "an array of typed values");
        if (fields.size() != values.size()) {
            throw in.fail(path, "it has " + fields.size() + " fields but " + values.size() + " values");
        }
        List<String> columns = new ArrayList<>();
        List<Object> parsed = new ArrayList<>();
        for (int i = 0; i < fields.size(); i++) {
            columns.add(in.require(fields.get(i), path + ".fields[" + i + "]", JsonNode::isTextual, "a string")
                    .textValue());
            parsed.add(value(in, values.get(i), path + ".values[" + i + "]"));
        }
        try {
            return LastPk.of(columns, parsed);
        } catch (IllegalArgumentException e) {
            throw in.fail(path, e.getMessage(), e);
        }
    }

    private static Object value(JsonReader in, JsonNode node, String path) {
        if (node.isNull()) {
            return null;
        }
        in.require(node, path, JsonNode::isObject, "null or an object with one type tag (i, u, d, s, b)");
        if (node.size() != 1) {
            throw in.fail(path, "must have exactly one type tag (i, u, d, s, b), found " + node.size() + " keys");
        }
        Iterator<String> names = node.fieldNames();
        String tag = names.next();
        String text = in.requiredText(node, tag, path);
        try {
            return switch (tag) {
                case "i" -> Long.valueOf(text);
                case "u" -> new BigInteger(text);
                case "d" -> new BigDecimal(text);
                case "s" -> text;
                case "b" -> Base64.getDecoder().decode(text);
                default -> throw in.fail(path, "unknown type tag '" + tag + "'; expected i, u, d, s or b");
            };
        } catch (NumberFormatException e) {
            throw in.fail(path, "the '" + tag + "' value is not a valid " + (tag.equals("i") ? "64-bit integer"
                    : tag.equals("u") ? "integer" : "decimal number"), e);
        } catch (MalformedPositionException e) {
            throw e;
        } catch (IllegalArgumentException e) {
            throw in.fail(path, "the 'b' value is not valid base64", e);
        }
    }
}
