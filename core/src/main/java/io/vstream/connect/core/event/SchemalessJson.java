package io.vstream.connect.core.event;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Date;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Time;
import org.apache.kafka.connect.data.Timestamp;

/**
 * Reads the bytes JsonConverter with {@code schemas.enable=false} wrote for a value straight into the typed Connect
 * value of its known schema, in one streaming pass: what JsonConverter's {@code toConnectData} followed by
 * {@link SchemalessValues#toConnect} gives, without the tree, the maps and the boxed numbers in between. Struct fields
 * are matched to the schema in order (the writer's order), by name only when the JSON strays from it; unknown fields
 * are skipped, missing ones are null.
 *
 * <p>The pass only notices that a value does not fit its schema; it does not say where. A record it refuses is read
 * again the slow way ({@link #readUntyped}, then {@link SchemalessValues}), which throws the exact error the two-step
 * path throws (the first misfit field in schema order, named by its path, never its value). A record that does not
 * fit stops the sink task, so its second reading costs nothing that matters.
 */
public final class SchemalessJson {
    /** As the ObjectMapper of JsonConverter's deserializer reads: leading zeros in numbers allowed. */
    private static final JsonFactory JSON = JsonFactory.builder()
            .enable(JsonReadFeature.ALLOW_LEADING_ZEROS_FOR_NUMBERS)
            .build();

    private SchemalessJson() {
    }

    /** The value of {@code schema} that {@code json} (the UTF-8 bytes JsonConverter without schemas wrote) holds. */
    public static Object read(Schema schema, byte[] json) {
        try {
            return typed(schema, json);
        } catch (IOException | RuntimeException misfit) {
            return SchemalessValues.toConnect(schema, readUntyped(json));
        }
    }

    /** {@link #read} of a struct schema. */
    public static Struct readStruct(Schema schema, byte[] json) {
        return (Struct) read(schema, json);
    }

    /**
     * A {@link EventType#ROWS} value ({@link CopyRows#schema}): what {@link SchemalessValues#toRows} gives for what
     * JsonConverter reads from {@code json}, errors included, its rows parsed one by one straight into structs and
     * joined without a second validation (as {@link CopyRows#withRows} joins them).
     */
    public static Struct readRows(Schema rowsSchema, byte[] json) {
        try {
            Struct value = (Struct) typed(rowsSchema, json);
            if (value != null && wellFormedRows(value)) {
                return value;
            }
        } catch (IOException | RuntimeException misfit) {
            // read again below, for the exact error
        }
        return SchemalessValues.toRows(rowsSchema, readUntyped(json));
    }

    /**
     * Whether {@code json} is JsonConverter's envelope with schemas ({@code {"schema": ..., "payload": ...}}), which a
     * reader without schemas must refuse: no value of ours has a field named {@code schema} or {@code payload}, so
     * the first field tells (JsonConverter writes {@code schema} first; either is taken). Malformed JSON is not an
     * envelope (the readers name the parser's error).
     */
    public static boolean carriesSchema(byte[] json) {
        if (json == null) {
            return false;
        }
        try (JsonParser p = JSON.createParser(json)) {
            return p.nextToken() == JsonToken.START_OBJECT && p.nextToken() == JsonToken.FIELD_NAME
                    && ("schema".equals(p.currentName()) || "payload".equals(p.currentName()));
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * What JsonConverter with {@code schemas.enable=false} gives for {@code json} with no schema: a
     * {@code HashMap<String, Object>} for an object, an {@code ArrayList} for an array, {@code Long} for an integral
     * number, {@code Double} for another, {@code Boolean}, {@code String}, or null (also for no bytes at all). For
     * control events, then typed by {@link SchemalessValues}. Malformed JSON: {@link IllegalArgumentException}.
     */
    public static Object readUntyped(byte[] json) {
        if (json == null) {
            return null;
        }
        try (JsonParser p = JSON.createParser(json)) {
            JsonToken t = p.nextToken();
            return t == null ? null : untyped(p, t);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("Schemaless value is not valid JSON: " + e.getOriginalMessage(), e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Object untyped(JsonParser p, JsonToken t) throws IOException {
        switch (t) {
            case START_OBJECT: {
                Map<String, Object> map = new HashMap<>();
                for (String name = p.nextFieldName(); name != null; name = p.nextFieldName()) {
                    map.put(name, untyped(p, p.nextToken()));
                }
                return map;
            }
            case START_ARRAY: {
                List<Object> list = new ArrayList<>();
                for (JsonToken e = p.nextToken(); e != JsonToken.END_ARRAY; e = p.nextToken()) {
                    list.add(untyped(p, e));
                }
                return list;
            }
            case VALUE_NUMBER_INT:
                return longOf(p);
            case VALUE_NUMBER_FLOAT:
                return doubleOf(p);
            case VALUE_STRING:
                return p.getText();
            case VALUE_TRUE:
                return Boolean.TRUE;
            case VALUE_FALSE:
                return Boolean.FALSE;
            default:
                return null;
        }
    }

    /**
     * The fast pass: the typed value, or an exception (of any kind) when the bytes do not fit the schema (package
     * private for the tests, which check that it alone reads every value that fits).
     */
    static Object typed(Schema schema, byte[] json) throws IOException {
        if (json == null) {
            return nothing(schema);
        }
        try (JsonParser p = JSON.createParser(json)) {
            JsonToken t = p.nextToken();
            return t == null ? nothing(schema) : value(p, t, schema);
        }
    }

    private static Object value(JsonParser p, JsonToken t, Schema schema) throws IOException {
        if (t == JsonToken.VALUE_NULL) {
            return nothing(schema);
        }
        switch (schema.type()) {
            case INT8:
                return t == JsonToken.VALUE_NUMBER_INT ? (byte) longOf(p) : (byte) (int) fraction(p, t);
            case INT16:
                return t == JsonToken.VALUE_NUMBER_INT ? (short) longOf(p) : (short) (int) fraction(p, t);
            case INT32:
                return int32(schema, t == JsonToken.VALUE_NUMBER_INT ? (int) longOf(p) : (int) fraction(p, t));
            case INT64: {
                long l = t == JsonToken.VALUE_NUMBER_INT ? longOf(p) : (long) fraction(p, t);
                return Timestamp.LOGICAL_NAME.equals(schema.name()) ? Timestamp.toLogical(schema, l) : l;
            }
            case FLOAT32:
                return t == JsonToken.VALUE_NUMBER_INT ? (float) longOf(p) : (float) fraction(p, t);
            case FLOAT64:
                return t == JsonToken.VALUE_NUMBER_INT ? (double) longOf(p) : fraction(p, t);
            case BOOLEAN:
                return bool(t);
            case STRING:
                expect(t, JsonToken.VALUE_STRING);
                return p.getText();
            case BYTES:
                return bytes(p, t, schema);
            case STRUCT:
                expect(t, JsonToken.START_OBJECT);
                return struct(p, schema);
            case ARRAY:
                expect(t, JsonToken.START_ARRAY);
                return fill(p, schema, new ArrayList<>());
            case MAP:
                return map(p, t, schema, new LinkedHashMap<>());
            default:
                throw Misfit.INSTANCE;
        }
    }

    /** What a missing value or JSON null is: null where the schema allows it. */
    private static Object nothing(Schema schema) {
        if (!schema.isOptional()) {
            throw Misfit.INSTANCE;
        }
        return null;
    }

    private static void expect(JsonToken t, JsonToken wanted) {
        if (t != wanted) {
            throw Misfit.INSTANCE;
        }
    }

    private static Object int32(Schema schema, int i) {
        String logical = schema.name();
        if (Date.LOGICAL_NAME.equals(logical)) {
            return Date.toLogical(schema, i);
        }
        if (Time.LOGICAL_NAME.equals(logical)) {
            return Time.toLogical(schema, i);
        }
        return i;
    }

    private static Boolean bool(JsonToken t) {
        if (t == JsonToken.VALUE_TRUE) {
            return Boolean.TRUE;
        }
        if (t == JsonToken.VALUE_FALSE) {
            return Boolean.FALSE;
        }
        throw Misfit.INSTANCE;
    }

    /** An integral JSON number as JsonConverter reads it: a {@code long}, wrapped around when it does not fit. */
    private static long longOf(JsonParser p) throws IOException {
        return p.getNumberType() == JsonParser.NumberType.BIG_INTEGER ? p.getBigIntegerValue().longValue()
                : p.getLongValue();
    }

    /**
     * A JSON number with a fraction or exponent as JsonConverter reads it: a {@link BigDecimal} made a double. That is
     * the correctly rounded double of the text, as the parser's own, but for zero, which a BigDecimal does not sign
     * ({@code -0.0} reads back as {@code 0.0}, {@code -1e-400} as {@code -0.0}).
     */
    private static double doubleOf(JsonParser p) throws IOException {
        double d = p.getDoubleValue();
        return d == 0 ? p.getDecimalValue().doubleValue() : d;
    }

    private static double fraction(JsonParser p, JsonToken t) throws IOException {
        if (t != JsonToken.VALUE_NUMBER_FLOAT) {
            throw Misfit.INSTANCE;
        }
        return doubleOf(p);
    }

    /**
     * Base64 text, or for a Decimal also an integral number (JsonConverter's decimal.format=NUMERIC); a Decimal that
     * arrived as a floating-point number is refused, as {@link SchemalessValues} refuses it.
     */
    private static Object bytes(JsonParser p, JsonToken t, Schema schema) throws IOException {
        boolean decimal = Decimal.LOGICAL_NAME.equals(schema.name());
        if (decimal && t == JsonToken.VALUE_NUMBER_INT) {
            int scale = Integer.parseInt(schema.parameters().get(Decimal.SCALE_FIELD));
            return BigDecimal.valueOf(longOf(p)).setScale(scale);
        }
        expect(t, JsonToken.VALUE_STRING);
        byte[] raw = base64(p);
        return decimal ? Decimal.toLogical(schema, raw) : raw;
    }

    /** The current string decoded as {@code Base64.getDecoder().decode(String)} does, from the parser's buffer. */
    private static byte[] base64(JsonParser p) throws IOException {
        char[] chars = p.getTextCharacters();
        int from = p.getTextOffset();
        int length = p.getTextLength();
        byte[] ascii = new byte[length];
        for (int i = 0; i < length; i++) {
            char c = chars[from + i];
            if (c > 0x7f) {
                throw Misfit.INSTANCE;
            }
            ascii[i] = (byte) c;
        }
        return Base64.getDecoder().decode(ascii);
    }

    /**
     * The struct the current object holds. Each field is looked for first where the schema puts it next, by name
     * (no hashing) and only then by a lookup; an array or map is put empty and filled after, so that Connect does
     * not validate its elements a second time.
     */
    private static Struct struct(JsonParser p, Schema schema) throws IOException {
        List<Field> fields = schema.fields();
        int count = fields.size();
        Struct out = new Struct(schema);
        int next = 0;
        int inOrder = 0;
        for (String name = p.nextFieldName(); name != null; name = p.nextFieldName()) {
            Field f = next < count ? fields.get(next) : null;
            if (f == null || !name.equals(f.name())) {
                f = schema.field(name);
                if (f == null) {
                    p.nextToken();
                    p.skipChildren();
                    continue;
                }
            }
            next = f.index() + 1;
            if (f.index() == inOrder) {
                inOrder++;
            }
            put(p, p.nextToken(), out, f);
        }
        if (inOrder < count) {
            requireAll(out, fields);
        }
        return out;
    }

    private static void put(JsonParser p, JsonToken t, Struct out, Field f) throws IOException {
        Schema schema = f.schema();
        if (schema.type() == Schema.Type.ARRAY && t == JsonToken.START_ARRAY) {
            List<Object> list = new ArrayList<>();
            out.put(f, list);
            fill(p, schema, list);
        } else if (schema.type() == Schema.Type.MAP && (t == JsonToken.START_OBJECT || t == JsonToken.START_ARRAY)) {
            Map<Object, Object> map = new LinkedHashMap<>();
            out.put(f, map);
            map(p, t, schema, map);
        } else {
            out.put(f, value(p, t, schema));
        }
    }

    /** A struct whose fields did not all come in order: every required field must have come. */
    private static void requireAll(Struct out, List<Field> fields) {
        for (Field f : fields) {
            if (!f.schema().isOptional() && out.getWithoutDefault(f.name()) == null) {
                throw Misfit.INSTANCE;
            }
        }
    }

    private static List<Object> fill(JsonParser p, Schema schema, List<Object> list) throws IOException {
        Schema element = schema.valueSchema();
        for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
            list.add(value(p, t, element));
        }
        return list;
    }

    /** A map: a JSON object (string keys), or JsonConverter's array of {@code [key, value]} pairs for other keys. */
    private static Map<Object, Object> map(JsonParser p, JsonToken t, Schema schema, Map<Object, Object> out)
            throws IOException {
        Schema keys = schema.keySchema();
        Schema values = schema.valueSchema();
        if (t == JsonToken.START_OBJECT) {
            for (String name = p.nextFieldName(); name != null; name = p.nextFieldName()) {
                Object key = key(p, name, keys);
                out.put(key, value(p, p.nextToken(), values));
            }
            return out;
        }
        expect(t, JsonToken.START_ARRAY);
        for (JsonToken e = p.nextToken(); e != JsonToken.END_ARRAY; e = p.nextToken()) {
            expect(e, JsonToken.START_ARRAY);
            Object key = value(p, pairPart(p), keys);
            Object value = value(p, pairPart(p), values);
            expect(p.nextToken(), JsonToken.END_ARRAY);
            out.put(key, value);
        }
        return out;
    }

    /** The next element of a {@code [key, value]} pair, which must be there. */
    private static JsonToken pairPart(JsonParser p) throws IOException {
        JsonToken t = p.nextToken();
        if (t == JsonToken.END_ARRAY) {
            throw Misfit.INSTANCE;
        }
        return t;
    }

    /** A JSON object's key (text) as a key of {@code schema}: the text itself, or base64 bytes. */
    private static Object key(JsonParser p, String name, Schema schema) {
        if (schema.type() == Schema.Type.STRING) {
            return name;
        }
        if (schema.type() != Schema.Type.BYTES) {
            throw Misfit.INSTANCE;
        }
        byte[] raw = Base64.getDecoder().decode(name);
        return Decimal.LOGICAL_NAME.equals(schema.name()) ? Decimal.toLogical(schema, raw) : raw;
    }

    /** Whether a ROWS value read by the fast pass is one {@link SchemalessValues#toRows} accepts: rows, none null. */
    private static boolean wellFormedRows(Struct value) {
        List<Struct> rows = CopyRows.rows(value);
        if (rows == null || rows.isEmpty()) {
            return false;
        }
        for (Struct row : rows) {
            if (row == null) {
                return false;
            }
        }
        return true;
    }

    /** The fast pass's "does not fit": no message and no stack, the slow reading says what and where. */
    private static final class Misfit extends RuntimeException {
        private static final long serialVersionUID = 1L;
        static final Misfit INSTANCE = new Misfit();

        private Misfit() {
            super(null, null, false, false);
        }
    }
}
