package io.vstream.connect.core.convert;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.util.Collection;
import java.util.Map;
import org.apache.kafka.connect.data.Date;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Time;
import org.apache.kafka.connect.data.Timestamp;
import org.apache.kafka.connect.errors.DataException;

/**
 * Writes a Connect value with its schema as the JSON that Kafka's {@code JsonConverter} gives for it (with a null
 * replaced by the schema's default, its default), straight into a
 * streaming generator instead of through a tree of nodes. Every value calls the generator method that the node
 * {@code JsonConverter} would build calls when it is serialized, so the text is the same byte for byte; the converter
 * that uses this checks that on the first records of every schema ({@link SchemaCachingJsonConverter}).
 *
 * <p>Only values with a schema: a schemaless value's JSON types are inferred from its Java classes, which the converter
 * leaves to {@code JsonConverter}.
 */
final class JsonPayloadWriter {

    private JsonPayloadWriter() {
    }

    /**
     * Writes {@code value} of {@code schema} (not null) to {@code out}; {@link DataException} as JsonConverter would.
     * {@code numericDecimals}: decimals as JSON numbers ({@code decimal.format=NUMERIC}) instead of base64.
     */
    static void write(JsonGenerator out, Schema schema, Object value, boolean numericDecimals) throws IOException {
        if (value == null) {
            if (schema.defaultValue() != null) {
                write(out, schema, schema.defaultValue(), numericDecimals);
                return;
            }
            if (schema.isOptional()) {
                out.writeNull();
                return;
            }
            throw new DataException("Conversion error: null value for field that is required and has no default value");
        }
        if (schema.name() != null && writeLogical(out, schema, value, numericDecimals)) {
            return;
        }
        try {
            switch (schema.type()) {
                case INT8 -> out.writeNumber((Byte) value);
                case INT16 -> out.writeNumber((Short) value);
                case INT32 -> out.writeNumber((Integer) value);
                case INT64 -> out.writeNumber((Long) value);
                case FLOAT32 -> out.writeNumber((Float) value);
                case FLOAT64 -> out.writeNumber((Double) value);
                case BOOLEAN -> out.writeBoolean((Boolean) value);
                case STRING -> out.writeString(((CharSequence) value).toString());
                case BYTES -> writeBytes(out, value);
                case ARRAY -> {
                    out.writeStartArray();
                    for (Object element : (Collection<?>) value) {
                        write(out, schema.valueSchema(), element, numericDecimals);
                    }
                    out.writeEndArray();
                }
                case MAP -> writeMap(out, schema, (Map<?, ?>) value, numericDecimals);
                case STRUCT -> writeStruct(out, schema, value, numericDecimals);
            }
        } catch (ClassCastException e) {
            throw new DataException("Invalid type for " + schema.type() + ": " + value.getClass());
        }
    }

    private static void writeStruct(JsonGenerator out, Schema schema, Object value, boolean numericDecimals)
            throws IOException {
        if (!(value instanceof Struct struct) || !struct.schema().equals(schema)) {
            throw new DataException("Mismatching schema.");
        }
        out.writeStartObject();
        for (Field field : schema.fields()) {
            out.writeFieldName(field.name());
            write(out, field.schema(), struct.get(field), numericDecimals);
        }
        out.writeEndObject();
    }

    private static void writeMap(JsonGenerator out, Schema schema, Map<?, ?> map, boolean numericDecimals)
            throws IOException {
        Schema keySchema = schema.keySchema();
        Schema valueSchema = schema.valueSchema();
        if (keySchema.type() == Schema.Type.STRING) {
            out.writeStartObject();
            for (Map.Entry<?, ?> e : map.entrySet()) {
                out.writeFieldName(keyText(keySchema, e.getKey()));
                write(out, valueSchema, e.getValue(), numericDecimals);
            }
            out.writeEndObject();
        } else {
            out.writeStartArray();
            for (Map.Entry<?, ?> e : map.entrySet()) {
                out.writeStartArray();
                write(out, keySchema, e.getKey(), numericDecimals);
                write(out, valueSchema, e.getValue(), numericDecimals);
                out.writeEndArray();
            }
            out.writeEndArray();
        }
    }

    private static void writeBytes(JsonGenerator out, Object value) throws IOException {
        if (value instanceof byte[] bytes) {
            out.writeBinary(bytes);
        } else if (value instanceof ByteBuffer buffer) {
            // JsonConverter writes the whole backing array, whatever the buffer's position and limit
            out.writeBinary(buffer.array());
        } else {
            throw new DataException("Invalid type for bytes type: " + value.getClass());
        }
    }

    /** Writes a value of one of Connect's logical types; false for a schema name that is none of them. */
    private static boolean writeLogical(JsonGenerator out, Schema schema, Object value, boolean numericDecimals)
            throws IOException {
        switch (schema.name()) {
            case Decimal.LOGICAL_NAME -> {
                if (!(value instanceof BigDecimal decimal)) {
                    throw new DataException("Invalid type for Decimal, expected BigDecimal but was " + value.getClass());
                }
                if (numericDecimals) {
                    out.writeNumber(decimal);
                } else {
                    out.writeBinary(Decimal.fromLogical(schema, decimal));
                }
                return true;
            }
            case Date.LOGICAL_NAME -> {
                out.writeNumber(Date.fromLogical(schema, date(value, "Date")));
                return true;
            }
            case Time.LOGICAL_NAME -> {
                out.writeNumber(Time.fromLogical(schema, date(value, "Time")));
                return true;
            }
            case Timestamp.LOGICAL_NAME -> {
                out.writeNumber(Timestamp.fromLogical(schema, date(value, "Timestamp")));
                return true;
            }
            default -> {
                return false;
            }
        }
    }

    private static java.util.Date date(Object value, String type) {
        if (!(value instanceof java.util.Date d)) {
            throw new DataException("Invalid type for " + type + ", expected Date but was " + value.getClass());
        }
        return d;
    }

    /** A string map key as JsonConverter names its JSON field: a null key by the default, or "null" if optional. */
    private static String keyText(Schema keySchema, Object key) {
        if (key != null) {
            return ((CharSequence) key).toString();
        }
        if (keySchema.defaultValue() != null) {
            return keySchema.defaultValue().toString();
        }
        if (keySchema.isOptional()) {
            return "null";
        }
        throw new DataException("Conversion error: null value for field that is required and has no default value");
    }
}
