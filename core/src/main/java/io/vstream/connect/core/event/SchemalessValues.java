package io.vstream.connect.core.event;

import java.math.BigDecimal;
import java.math.BigInteger;
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
 * Rebuilds a typed Connect value from what a converter without schemas gives (JsonConverter with
 * {@code schemas.enable=false}: maps, lists, {@code Long}, {@code Double}, {@code Boolean}, {@code String}), given the
 * schema the value was written with: integers narrowed to their type, base64 text back to bytes, a Decimal's unscaled
 * bytes back to a {@link BigDecimal} of the schema's scale, Connect's Date/Time/Timestamp back to dates, maps back to
 * structs. Errors name the field path, never a value (it may be a row's key).
 */
public final class SchemalessValues {
    private SchemalessValues() {
    }

    /** The value of {@code schema} that {@code json} (a schemaless converter's output) was written from. */
    public static Object toConnect(Schema schema, Object json) {
        return convert(schema, json, Path.ROOT);
    }

    /** {@link #toConnect} of a struct schema: the {@link Struct}. */
    public static Struct toStruct(Schema schema, Object json) {
        return (Struct) convert(schema, json, Path.ROOT);
    }

    /**
     * {@link #toConnect} of a {@link EventType#ROWS} value ({@link CopyRows#schema}): its rows typed one by one, then
     * its other fields, the rows joined by {@link CopyRows#withRows} so that Connect validates each once, not again
     * through the array. A value without a {@code rows} array or with a null row is refused.
     */
    public static Struct toRows(Schema schema, Object json) {
        if (!(json instanceof Map<?, ?> map)) {
            return toStruct(schema, json);
        }
        if (!(map.get(CopyRows.ROWS) instanceof List<?> rows)) {
            throw new IllegalArgumentException("field " + CopyRows.ROWS + ": expected an array");
        }
        Map<Object, Object> head = new HashMap<>(map);
        head.put(CopyRows.ROWS, List.of());
        Schema row = CopyRows.rowSchema(schema);
        List<Struct> typed = new ArrayList<>(rows.size());
        for (int i = 0; i < rows.size(); i++) {
            if (rows.get(i) == null) {
                throw new IllegalArgumentException("row " + i + " of " + CopyRows.ROWS + " is null");
            }
            typed.add(toStruct(row, rows.get(i)));
        }
        return CopyRows.withRows(toStruct(schema, head), typed);
    }

    private static Object convert(Schema schema, Object v, Path path) {
        if (v == null) {
            if (!schema.isOptional()) {
                throw new IllegalArgumentException("Schemaless value at '" + where(path) + "' is null but its schema"
                        + " requires a value");
            }
            return null;
        }
        String logical = schema.name();
        switch (schema.type()) {
            case INT8:
                return number(v, path).byteValue();
            case INT16:
                return number(v, path).shortValue();
            case INT32: {
                int i = number(v, path).intValue();
                if (Date.LOGICAL_NAME.equals(logical)) {
                    return Date.toLogical(schema, i);
                }
                if (Time.LOGICAL_NAME.equals(logical)) {
                    return Time.toLogical(schema, i);
                }
                return i;
            }
            case INT64: {
                long l = number(v, path).longValue();
                return Timestamp.LOGICAL_NAME.equals(logical) ? Timestamp.toLogical(schema, l) : l;
            }
            case FLOAT32:
                return number(v, path).floatValue();
            case FLOAT64:
                return number(v, path).doubleValue();
            case BOOLEAN:
                if (v instanceof Boolean b) {
                    return b;
                }
                throw mismatch(path, "a boolean", v);
            case STRING:
                if (v instanceof String s) {
                    return s;
                }
                throw mismatch(path, "a string", v);
            case BYTES:
                return bytes(schema, v, path);
            case STRUCT:
                return struct(schema, v, path);
            case ARRAY: {
                if (!(v instanceof List<?> list)) {
                    throw mismatch(path, "an array", v);
                }
                List<Object> out = new ArrayList<>(list.size());
                for (int i = 0; i < list.size(); i++) {
                    out.add(convert(schema.valueSchema(), list.get(i), path.then("[" + i + "]")));
                }
                return out;
            }
            case MAP:
                return map(schema, v, path);
            default:
                throw new IllegalArgumentException("Schemaless value at '" + where(path) + "' has an unsupported schema"
                        + " type " + schema.type());
        }
    }

    private static Object bytes(Schema schema, Object v, Path path) {
        boolean decimal = Decimal.LOGICAL_NAME.equals(schema.name());
        if (decimal && v instanceof Number n) {
            // JsonConverter's decimal.format=NUMERIC: read back without a schema, a fraction becomes a double
            if (v instanceof Double || v instanceof Float) {
                throw new IllegalArgumentException("The DECIMAL at '" + where(path) + "' arrived as a floating-point"
                        + " number: the source's converter writes decimals with decimal.format=NUMERIC, which a"
                        + " converter without schemas reads back as a double and may round; keep decimal.format=BASE64"
                        + " (JsonConverter's default) for schemaless records");
            }
            int scale = Integer.parseInt(schema.parameters().get(Decimal.SCALE_FIELD));
            BigDecimal d = n instanceof BigDecimal b ? b : n instanceof BigInteger bi ? new BigDecimal(bi)
                    : BigDecimal.valueOf(n.longValue());
            return d.setScale(scale);
        }
        byte[] raw;
        if (v instanceof String s) {
            try {
                raw = Base64.getDecoder().decode(s);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("Schemaless value at '" + where(path) + "' should be base64 text"
                        + " (bytes) and is not", e);
            }
        } else if (v instanceof byte[] b) {
            raw = b;
        } else if (v instanceof java.nio.ByteBuffer buf) {
            raw = new byte[buf.remaining()];
            buf.duplicate().get(raw);
        } else {
            throw mismatch(path, "base64 text", v);
        }
        return decimal ? Decimal.toLogical(schema, raw) : raw;
    }

    private static Struct struct(Schema schema, Object v, Path path) {
        if (v instanceof Struct s) {
            return s;
        }
        if (!(v instanceof Map<?, ?> m)) {
            throw mismatch(path, "an object", v);
        }
        Struct out = new Struct(schema);
        for (Field f : schema.fields()) {
            Object fv = m.get(f.name());
            out.put(f, convert(f.schema(), fv, path.field(f.name())));
        }
        return out;
    }

    private static Map<Object, Object> map(Schema schema, Object v, Path path) {
        Map<Object, Object> out = new LinkedHashMap<>();
        if (v instanceof Map<?, ?> m) {
            for (Map.Entry<?, ?> e : m.entrySet()) {
                out.put(convert(schema.keySchema(), e.getKey(), path.then("{key}")),
                        convert(schema.valueSchema(), e.getValue(), path.then("{" + e.getKey() + "}")));
            }
            return out;
        }
        if (v instanceof List<?> pairs) {
            // JsonConverter writes a map whose keys are not strings as an array of [key, value] pairs
            for (int i = 0; i < pairs.size(); i++) {
                if (!(pairs.get(i) instanceof List<?> pair) || pair.size() != 2) {
                    throw mismatch(path.then("[" + i + "]"), "a [key, value] pair", pairs.get(i));
                }
                out.put(convert(schema.keySchema(), pair.get(0), path.then("[" + i + "].key")),
                        convert(schema.valueSchema(), pair.get(1), path.then("[" + i + "].value")));
            }
            return out;
        }
        throw mismatch(path, "an object", v);
    }

    private static Number number(Object v, Path path) {
        if (v instanceof Number n) {
            return n;
        }
        throw mismatch(path, "a number", v);
    }

    private static IllegalArgumentException mismatch(Path path, String expected, Object v) {
        return new IllegalArgumentException("Schemaless value at '" + where(path) + "' should be " + expected + " and is"
                + " a " + v.getClass().getSimpleName() + " (the record was not written with the schema its table's"
                + " FIELD record announced)");
    }

    private static String where(Path path) {
        String text = path.toString();
        return text.isEmpty() ? "." : text;
    }

    /**
     * Where a value lies in the record, built into text only for an error message: every field of every row is
     * converted, and only a bad one is ever named.
     */
    private record Path(Path parent, String step) {
        static final Path ROOT = new Path(null, "");

        /** A field of a struct: {@code a.b}. */
        Path field(String name) {
            return new Path(this, this == ROOT ? name : "." + name);
        }

        /** A suffix as written: {@code [3]}, {@code {key}}. */
        Path then(String suffix) {
            return new Path(this, suffix);
        }

        @Override
        public String toString() {
            return parent == null ? step : parent + step;
        }
    }
}
