package io.vstream.connect.sink;

import io.vstream.connect.core.event.ControlEvents;
import io.vstream.connect.core.event.CopyRows;
import io.vstream.connect.core.event.EventHeaders;
import io.vstream.connect.core.event.EventType;
import io.vstream.connect.core.event.RowEnvelope;
import io.vstream.connect.core.event.SchemaJson;
import io.vstream.connect.core.event.SchemalessJson;
import io.vstream.connect.core.event.SchemalessValues;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * Types the records of one partition's log that arrive without schemas (the source and sink with JsonConverter and
 * {@code schemas.enable=false}, the compact workflow format of docs/sink.md): a control event by its fixed schema, a
 * row change by the row schema its table's last FIELD record announced ({@code row_schema}). Records that carry their
 * schema pass through untouched. Pure logic; {@link RowSchemaStore} keeps what it learned across restarts.
 */
final class RowSchemas {
    private static final String ENVELOPE = "io.vstream.connect.SchemalessEnvelope";
    private static final String ROWS = "io.vstream.connect.SchemalessRows";
    /**
     * The part of a row's {@code source} block the sink reads (to find a table that came without its FIELD record);
     * its other fields are left untyped, which halves the work of typing a row.
     */
    private static final Schema SOURCE = SchemaBuilder.struct().name("io.vstream.connect.SinkSource").optional()
            .field("db", Schema.OPTIONAL_STRING_SCHEMA)
            .field("keyspace", Schema.OPTIONAL_STRING_SCHEMA)
            .field("table", Schema.OPTIONAL_STRING_SCHEMA)
            .build();

    /** A table's row schema from the offset of the FIELD record that announced it on. */
    private record Known(String json, Schema envelope, Schema rows) {
    }

    /** Per source table, its schemas by the offset of their FIELD record: a record is typed by the last one before it. */
    private final Map<String, TreeMap<Long, Known>> tables = new HashMap<>();

    /**
     * Learns a table's row schema from the FIELD record at {@code fieldOffset} ({@code rowSchemaJson} null: the record
     * has none, written by a source before FIELD records carried it); returns whether it differs from the schema in
     * force at that offset (and so must be stored).
     */
    boolean learn(String table, long fieldOffset, String rowSchemaJson) {
        if (rowSchemaJson == null) {
            return false;
        }
        TreeMap<Long, Known> history = tables.computeIfAbsent(table, t -> new TreeMap<>());
        Map.Entry<Long, Known> before = history.floorEntry(fieldOffset);
        if (before != null && before.getValue().json().equals(rowSchemaJson)) {
            return false;
        }
        Schema row;
        try {
            row = SchemaJson.read(rowSchemaJson);
        } catch (IllegalArgumentException e) {
            throw new ConnectException("The FIELD record of table " + table + " carries a row schema this sink cannot"
                    + " read: " + e.getMessage(), e);
        }
        history.put(fieldOffset, new Known(rowSchemaJson, envelope(row), CopyRows.schema(ROWS, row)));
        return true;
    }

    /** The envelope of a row change as the sink reads it: the images, the operation and the source's names. */
    private static Schema envelope(Schema row) {
        return SchemaBuilder.struct().name(ENVELOPE)
                .field(RowEnvelope.BEFORE, row)
                .field(RowEnvelope.AFTER, row)
                .field(RowEnvelope.SOURCE, SOURCE)
                .field(RowEnvelope.OP, Schema.STRING_SCHEMA)
                .field(RowEnvelope.TS_MS, Schema.OPTIONAL_INT64_SCHEMA)
                .build();
    }

    /** Forgets everything learned (before reloading what the target holds). */
    void forget() {
        tables.clear();
    }

    /** The schema in force for a record of {@code type} (ROW or ROWS) of {@code table} at {@code offset}, or null. */
    private Schema rowSchema(EventType type, String table, long offset) {
        TreeMap<Long, Known> history = table == null ? null : tables.get(table);
        Map.Entry<Long, Known> e = history == null ? null : history.lowerEntry(offset);
        return e == null ? null : type == EventType.ROWS ? e.getValue().rows() : e.getValue().envelope();
    }

    /**
     * The record with a typed ({@link Struct}) value: itself when its value is a Struct already or null, else its
     * schemaless value rebuilt with its event's schema. A ROW of a table whose FIELD record has not come, a value that
     * does not fit its schema, or a schemaless record that turns out to carry a schema envelope stop the task with the
     * record's position and the fix.
     */
    SinkRecord typed(SinkRecord record, EventType type) {
        Object value = record.value();
        if (value == null || value instanceof Struct) {
            return record;
        }
        String at = record.topic() + "-" + record.kafkaPartition() + "@" + record.kafkaOffset();
        checkSchemaless(value, at);
        Schema schema;
        String table = null;
        if (type == EventType.ROW || type == EventType.ROWS) {
            table = RecordHeaders.header(record, EventHeaders.TABLE);
            schema = rowSchema(type, table, record.kafkaOffset());
            if (schema == null) {
                throw noSchema(table, at);
            }
        } else {
            schema = ControlEvents.schemaOf(type);
        }
        Struct typed;
        try {
            typed = value instanceof byte[] json ? fromJson(type, schema, json) : fromMap(type, schema, value);
        } catch (IllegalArgumentException | org.apache.kafka.connect.errors.DataException e) {
            throw new ConnectException("Record at " + at + " (" + type + (table == null ? "" : " of table " + table)
                    + ") does not fit its schema: " + e.getMessage(), e);
        }
        return record.newRecord(record.topic(), record.kafkaPartition(), record.keySchema(), record.key(), schema,
                typed, record.timestamp(), record.headers());
    }

    /**
     * Refuses a value no converter of the workflow format gives (neither maps, from JsonConverter without schemas, nor
     * JSON bytes, from ByteArrayConverter), and one that carries JsonConverter's schema envelope.
     */
    private static void checkSchemaless(Object value, String at) {
        if (value instanceof byte[] json) {
            if (SchemalessJson.carriesSchema(json)) {
                throw new ConnectException("Record at " + at + " carries its schema (JsonConverter with"
                        + " schemas.enable=true on the source), but the sink reads its values as they are"
                        + " (ByteArrayConverter) and types them by their FIELD record: set"
                        + " value.converter.schemas.enable=false on the source, or read with JsonConverter and"
                        + " value.converter.schemas.enable=true on the sink");
            }
            return;
        }
        if (!(value instanceof Map<?, ?> map)) {
            throw new ConnectException("Record at " + at + " has a value of type " + value.getClass().getSimpleName()
                    + ": the sink reads the source's records through a converter that gives structs (JsonConverter with"
                    + " schemas, Avro), maps (JsonConverter with schemas.enable=false) or the JSON bytes themselves"
                    + " (ByteArrayConverter, the workflow format)");
        }
        if (map.size() == 2 && map.containsKey("schema") && map.containsKey("payload")) {
            throw new ConnectException("Record at " + at + " carries its schema, but the sink's value converter reads"
                    + " it without schemas: set value.converter.schemas.enable=true on the sink, or false on the source"
                    + " too (the two must match)");
        }
    }

    /**
     * A value as JsonConverter without schemas gives it (maps, lists, longs...), typed by {@link SchemalessValues}.
     */
    private static Struct fromMap(EventType type, Schema schema, Object value) {
        return type == EventType.ROWS ? SchemalessValues.toRows(schema, value)
                : SchemalessValues.toStruct(schema, value);
    }

    /**
     * The JSON bytes ByteArrayConverter hands on (the workflow format of config-examples and {@code vsc start}): a row
     * read in one pass straight into its schema's value ({@link SchemalessJson}), with no tree or map in between; a
     * control event, small, through the maps.
     */
    private static Struct fromJson(EventType type, Schema schema, byte[] json) {
        if (type == EventType.ROWS) {
            return SchemalessJson.readRows(schema, json);
        }
        if (type == EventType.ROW) {
            return SchemalessJson.readStruct(schema, json);
        }
        return SchemalessValues.toStruct(schema, SchemalessJson.readUntyped(json));
    }

    private static ConnectException noSchema(String table, String at) {
        return new ConnectException("Row of table " + table + " at " + at + " has no schema and no FIELD record"
                + " carrying its row schema came before it in this log: records without schemas need a source of this"
                + " version or later (its FIELD records carry row_schema); otherwise set"
                + " value.converter.schemas.enable=true on the source and the sink");
    }
}
