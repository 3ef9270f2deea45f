package io.vstream.connect.transforms.util;

import io.vstream.connect.core.event.EventHeaders;
import io.vstream.connect.core.event.EventType;
import io.vstream.connect.core.event.RowEnvelope;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.apache.kafka.connect.connector.ConnectRecord;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.header.Header;

/**
 * Reads the record format of the vstream source connector (docs/source.md) for the transforms and predicates: the
 * {@code vstream.*} headers, whether a record is a row change or a control event, and the parts of a Debezium
 * envelope, for values with a schema ({@link Struct}) and without one ({@link Map}). Pure record work: touches no
 * server.
 *
 * <p>Header values are read as text whatever form they arrived in: the source task adds Java strings (and the epoch
 * as a long), while a sink-side chain sees what the worker's header converter made of the bytes (a string, a number,
 * or raw bytes with {@code ByteArrayConverter}).
 */
public final class VStreamRecords {

    /** What a record is to a vstream transform. */
    public enum Kind {
        /** A row change: the {@code vstream.event} header says {@code ROW}, or (no header) the value is an envelope. */
        ROW,
        /** A control event: the {@code vstream.event} header names anything but {@code ROW}. */
        CONTROL,
        /** Not a vstream record: no {@code vstream.event} header and no envelope value. Transforms leave it alone. */
        OTHER
    }

    private VStreamRecords() {
    }

    /** The last value of header {@code name} as text, or {@code null} if the record has no such header. */
    public static String header(ConnectRecord<?> record, String name) {
        Header h = record.headers().lastWithName(name);
        if (h == null || h.value() == null) {
            return null;
        }
        Object v = h.value();
        if (v instanceof String s) {
            return s;
        }
        if (v instanceof byte[] bytes) {
            return new String(bytes, StandardCharsets.UTF_8);
        }
        if (v instanceof ByteBuffer buffer) {
            return StandardCharsets.UTF_8.decode(buffer.duplicate()).toString();
        }
        return v.toString();
    }

    /** The raw {@code vstream.event} header text (stripped), or {@code null} if the record has none. */
    public static String eventHeader(ConnectRecord<?> record) {
        String v = header(record, EventHeaders.EVENT);
        return v == null || v.isBlank() ? null : v.strip();
    }

    /** The event type the {@code vstream.event} header names, or {@code null} if none or not an event type. */
    public static EventType eventType(ConnectRecord<?> record) {
        return EventType.fromHeader(eventHeader(record));
    }

    /**
     * Classifies a record by its {@code vstream.event} header; a record without one is a {@link Kind#ROW} if its
     * value is a Debezium envelope (so the transforms also work on Debezium-shaped records whose headers were
     * dropped), else {@link Kind#OTHER}. A header value that names no known event type counts as a control event:
     * it is not a row. A ROWS record (copy rows several to a record, not an envelope) is {@link Kind#OTHER}: the row
     * transforms pass it on untouched.
     */
    public static Kind kind(ConnectRecord<?> record) {
        String event = eventHeader(record);
        if (event != null) {
            EventType type = EventType.fromHeader(event);
            return type == EventType.ROW ? Kind.ROW : type == EventType.ROWS ? Kind.OTHER : Kind.CONTROL;
        }
        return isEnvelope(record.value()) ? Kind.ROW : Kind.OTHER;
    }

    /**
     * True if {@code value} is a Debezium change-event envelope: a struct (or, schemaless, a map) with the fields
     * {@code before}, {@code after}, {@code op} and {@code source}.
     */
    public static boolean isEnvelope(Object value) {
        if (value instanceof Struct s) {
            Schema schema = s.schema();
            return schema.type() == Schema.Type.STRUCT && schema.field(RowEnvelope.BEFORE) != null
                    && schema.field(RowEnvelope.AFTER) != null && schema.field(RowEnvelope.OP) != null
                    && schema.field(RowEnvelope.SOURCE) != null;
        }
        if (value instanceof Map<?, ?> m) {
            return m.containsKey(RowEnvelope.OP) && m.containsKey(RowEnvelope.SOURCE)
                    && (m.containsKey(RowEnvelope.AFTER) || m.containsKey(RowEnvelope.BEFORE));
        }
        return false;
    }

    /**
     * The field {@code name} of a struct or a map, or {@code null} if it is absent or null (a struct without such a
     * field, a map without such a key, or a container that is neither).
     */
    public static Object get(Object container, String name) {
        if (container instanceof Struct s) {
            Field f = s.schema().field(name);
            return f == null ? null : s.get(f);
        }
        if (container instanceof Map<?, ?> m) {
            return m.get(name);
        }
        return null;
    }

    /** The op code of an envelope ({@code c}, {@code u}, {@code d}, {@code r}), or {@code null}. */
    public static String op(Object envelope) {
        Object op = get(envelope, RowEnvelope.OP);
        return op == null ? null : op.toString();
    }

    /** The {@code after} image, or for a delete (no {@code after}) the {@code before} image: the row to read from. */
    public static Object currentImage(Object envelope) {
        Object after = get(envelope, RowEnvelope.AFTER);
        return after != null ? after : get(envelope, RowEnvelope.BEFORE);
    }

    /**
     * A string the record names in header {@code header}, or else in the envelope's {@code source} block field
     * {@code sourceField}; {@code null} if neither has it.
     */
    public static String headerOrSource(ConnectRecord<?> record, String header, String sourceField) {
        String fromHeader = header(record, header);
        if (fromHeader != null && !fromHeader.isEmpty()) {
            return fromHeader;
        }
        if (isEnvelope(record.value())) {
            Object v = get(get(record.value(), RowEnvelope.SOURCE), sourceField);
            return v == null ? null : v.toString();
        }
        return null;
    }

    /** Where a record is, for error messages: topic and partition, and the Kafka offset of a sink record. */
    public static String describe(ConnectRecord<?> record) {
        StringBuilder sb = new StringBuilder("record on topic '").append(record.topic()).append('\'');
        if (record.kafkaPartition() != null) {
            sb.append(" partition ").append(record.kafkaPartition());
        }
        String table = header(record, EventHeaders.TABLE);
        if (table != null) {
            sb.append(" (table '").append(table).append("')");
        }
        return sb.toString();
    }
}
