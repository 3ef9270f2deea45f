package io.vstream.connect.transforms;

import io.vstream.connect.core.Version;
import io.vstream.connect.core.event.RowEnvelope;
import io.vstream.connect.core.event.SourceInfo;
import io.vstream.connect.transforms.util.EnumChoice;
import io.vstream.connect.transforms.util.Schemas;
import io.vstream.connect.transforms.util.VStreamRecords;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.common.cache.Cache;
import org.apache.kafka.common.cache.LRUCache;
import org.apache.kafka.common.cache.SynchronizedCache;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.connect.components.Versioned;
import org.apache.kafka.connect.connector.ConnectRecord;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.errors.SchemaBuilderException;
import org.apache.kafka.connect.transforms.Transformation;

/**
 * Unwraps ROW records: replaces the Debezium envelope value with the flat row ({@code after}; for deletes, as
 * {@code delete.handling} says), optionally with envelope and {@code source} fields copied in as {@code __<name>}.
 * Control events are dropped or passed; tombstones and records that are not ours pass untouched. Derived schemas are
 * cached per envelope schema. Pure record work: touches no server.
 */
public class ExtractNewRow<R extends ConnectRecord<R>> implements Transformation<R>, Versioned {

    public static final String OVERVIEW_DOC = "Replaces the value of each vstream ROW record (Debezium's envelope: "
            + "before, after, source, op, ...) with the flat row: the after image, or for a delete what "
            + "<code>delete.handling</code> says. <code>add.fields</code> copies envelope and source fields into the "
            + "row as <code>__&lt;name&gt;</code>. Control events (vstream.event header not ROW) are dropped or passed "
            + "(<code>control.events</code>). Tombstones and records that are neither rows nor control events pass "
            + "unchanged. Works on values with and without a schema.";

    public static final String DELETE_HANDLING_CONFIG = "delete.handling";
    public static final String ADD_FIELDS_CONFIG = "add.fields";
    public static final String CONTROL_EVENTS_CONFIG = "control.events";

    /** The prefix of every field this transform adds to a row. */
    public static final String ADDED_FIELD_PREFIX = "__";
    /** The field {@code delete.handling=rewrite} adds: {@code true} on deletes, {@code false} on other rows. */
    public static final String DELETED_FIELD = ADDED_FIELD_PREFIX + "deleted";

    /** What to do with a delete (op {@code d}). */
    public enum DeleteHandling {
        /** Drop the record. */
        DROP("drop the record"),
        /** A tombstone: the record's key with a null value (and no value schema), for compacted topics. */
        TOMBSTONE("emit a tombstone: the key with a null value (no value schema), which compacted topics and "
                + "upserting sinks take as a delete"),
        /** The before image plus {@code __deleted=true}; every other row then carries {@code __deleted=false}. */
        REWRITE("emit the before image with " + DELETED_FIELD + "=true; every other row then carries "
                + DELETED_FIELD + "=false, so that one schema fits both");

        private final String doc;

        DeleteHandling(String doc) {
            this.doc = doc;
        }
    }

    private static final String GROUP = "Unwrap";
    private static final EnumChoice<DeleteHandling> DELETE_HANDLING = EnumChoice.of(DeleteHandling.class);
    private static final EnumChoice<ControlEventHandling> CONTROL_EVENTS = EnumChoice.of(ControlEventHandling.class);

    public static final ConfigDef CONFIG_DEF = new ConfigDef()
            .define(DELETE_HANDLING_CONFIG, ConfigDef.Type.STRING, EnumChoice.name(DeleteHandling.TOMBSTONE),
                    DELETE_HANDLING, ConfigDef.Importance.MEDIUM, deleteHandlingDoc(), GROUP, 1,
                    ConfigDef.Width.SHORT, "Delete handling")
            .define(ADD_FIELDS_CONFIG, ConfigDef.Type.LIST, List.of(), new AddedFieldsValidator(),
                    ConfigDef.Importance.MEDIUM, "Envelope and source fields to copy into each row, each as a field "
                            + "named " + ADDED_FIELD_PREFIX + "<name> (a dot becomes an underscore: source.ts_ms is "
                            + "copied as __source_ts_ms). A bare name is the envelope's op or ts_ms (when the "
                            + "connector built the event), else a field of the source block: keyspace, shard, db, "
                            + "table, gtid, ts_ms (as source.ts_ms: the commit time), snapshot, server_id, row, "
                            + "epoch, name, connector, version. transaction.id, transaction.total_order and "
                            + "transaction.data_collection_order read the transaction block. Added fields are "
                            + "optional in the row schema. Example: op,keyspace,shard,table,gtid,source.ts_ms.",
                    GROUP, 2, ConfigDef.Width.LONG, "Fields to add")
            .define(CONTROL_EVENTS_CONFIG, ConfigDef.Type.STRING, EnumChoice.name(ControlEventHandling.DROP),
                    CONTROL_EVENTS, ConfigDef.Importance.MEDIUM, ControlEventHandling.settingDoc("that reach "
                            + "this transform"), GROUP, 3, ConfigDef.Width.SHORT, "Control events");

    private DeleteHandling deleteHandling;
    private ControlEventHandling controlEvents;
    private List<AddedField> addedFields;
    private Cache<Schema, Schema> schemaCache;

    @Override
    public void configure(Map<String, ?> props) {
        AbstractConfig config = new AbstractConfig(CONFIG_DEF, props, false);
        deleteHandling = DELETE_HANDLING.parse(DELETE_HANDLING_CONFIG, config.getString(DELETE_HANDLING_CONFIG));
        controlEvents = CONTROL_EVENTS.parse(CONTROL_EVENTS_CONFIG, config.getString(CONTROL_EVENTS_CONFIG));
        addedFields = AddedField.parseAll(config.getList(ADD_FIELDS_CONFIG));
        schemaCache = new SynchronizedCache<>(new LRUCache<>(16));
    }

    @Override
    public R apply(R record) {
        if (record.value() == null) {
            return record; // a tombstone: nothing to unwrap
        }
        if (VStreamRecords.eventType(record) == io.vstream.connect.core.event.EventType.ROWS) {
            throw new DataException("ExtractNewRow met a ROWS record " + VStreamRecords.describe(record) + " (copy"
                    + " rows several to a record): set copy.rows.per.record=1 on the source connector for consumers"
                    + " that read rows one by one (docs/consumers.md)");
        }
        switch (VStreamRecords.kind(record)) {
            case OTHER:
                return record;
            case CONTROL:
                return controlEvents == ControlEventHandling.PASS ? record : null;
            default:
                break;
        }
        Object value = record.value();
        if (!VStreamRecords.isEnvelope(value)) {
            throw new DataException("ExtractNewRow expects the value of a ROW " + VStreamRecords.describe(record)
                    + " to be Debezium's envelope (before, after, source, op), but it is "
                    + (value instanceof Struct s ? "a struct with fields " + fieldNames(s.schema())
                    : value.getClass().getName())
                    + "; is the value unwrapped twice, or changed by an earlier transform of the chain?");
        }
        boolean delete = RowEnvelope.Op.DELETE.code().equals(VStreamRecords.op(value));
        if (delete && deleteHandling == DeleteHandling.DROP) {
            return null;
        }
        if (delete && deleteHandling == DeleteHandling.TOMBSTONE) {
            return record.newRecord(record.topic(), record.kafkaPartition(), record.keySchema(), record.key(),
                    null, null, record.timestamp(), record.headers());
        }
        Object image = VStreamRecords.get(value, delete ? RowEnvelope.BEFORE : RowEnvelope.AFTER);
        if (image == null) {
            throw new DataException("The ROW " + VStreamRecords.describe(record) + " with op '"
                    + VStreamRecords.op(value) + "' has no " + (delete ? RowEnvelope.BEFORE : RowEnvelope.AFTER)
                    + " image to unwrap");
        }
        return value instanceof Struct envelope
                ? applyWithSchema(record, envelope, (Struct) image, delete)
                : applySchemaless(record, (Map<?, ?>) value, asMap(record, image), delete);
    }

    private R applyWithSchema(R record, Struct envelope, Struct image, boolean delete) {
        if (addedFields.isEmpty() && deleteHandling != DeleteHandling.REWRITE) {
            return record.newRecord(record.topic(), record.kafkaPartition(), record.keySchema(), record.key(),
                    image.schema(), image, record.timestamp(), record.headers());
        }
        Schema schema = schemaCache.get(envelope.schema());
        if (schema == null) {
            schema = deriveSchema(record, envelope.schema(), image.schema());
            schemaCache.put(envelope.schema(), schema);
        }
        Struct row = new Struct(schema);
        for (Field f : image.schema().fields()) {
            row.put(f.name(), image.get(f));
        }
        for (AddedField a : addedFields) {
            row.put(a.outputName(), a.valueIn(envelope));
        }
        if (deleteHandling == DeleteHandling.REWRITE) {
            row.put(DELETED_FIELD, delete);
        }
        return record.newRecord(record.topic(), record.kafkaPartition(), record.keySchema(), record.key(), schema,
                row, record.timestamp(), record.headers());
    }

    private R applySchemaless(R record, Map<?, ?> envelope, Map<?, ?> image, boolean delete) {
        Map<String, Object> row = new LinkedHashMap<>();
        image.forEach((k, v) -> row.put(String.valueOf(k), v));
        for (AddedField a : addedFields) {
            row.put(a.outputName(), a.valueIn(envelope));
        }
        if (deleteHandling == DeleteHandling.REWRITE) {
            row.put(DELETED_FIELD, delete);
        }
        return record.newRecord(record.topic(), record.kafkaPartition(), record.keySchema(), record.key(), null,
                row, record.timestamp(), record.headers());
    }

    /** The row schema plus the added fields (optional) and, when rewriting deletes, {@code __deleted}. */
    private Schema deriveSchema(R record, Schema envelopeSchema, Schema rowSchema) {
        SchemaBuilder b = Schemas.copyStructBasics(rowSchema);
        for (Field f : rowSchema.fields()) {
            b.field(f.name(), f.schema());
        }
        try {
            for (AddedField a : addedFields) {
                b.field(a.outputName(), Schemas.optional(a.schemaIn(record, envelopeSchema)));
            }
            if (deleteHandling == DeleteHandling.REWRITE) {
                b.field(DELETED_FIELD, Schema.OPTIONAL_BOOLEAN_SCHEMA);
            }
        } catch (SchemaBuilderException e) {
            throw new DataException("ExtractNewRow cannot add its fields to the row of " + VStreamRecords.describe(
                    record) + ": the table already has a column of that name (" + e.getMessage() + "); remove the "
                    + "name from " + ADD_FIELDS_CONFIG + " or rename the column", e);
        }
        return b.build();
    }

    private static Map<?, ?> asMap(ConnectRecord<?> record, Object image) {
        if (image instanceof Map<?, ?> m) {
            return m;
        }
        throw new DataException("The schemaless envelope of " + VStreamRecords.describe(record) + " has a row image "
                + "of type " + image.getClass().getName() + "; expected a map of column names to values");
    }

    private static String fieldNames(Schema schema) {
        return schema.type() == Schema.Type.STRUCT ? schema.fields().stream().map(Field::name).toList().toString()
                : schema.type().toString();
    }

    private static String deleteHandlingDoc() {
        StringBuilder sb = new StringBuilder("What to do with a delete (op d):");
        for (DeleteHandling h : DeleteHandling.values()) {
            sb.append(' ').append(EnumChoice.name(h)).append(" = ").append(h.doc)
                    .append(h.ordinal() < DeleteHandling.values().length - 1 ? ";" : ".");
        }
        return sb.toString();
    }

    @Override
    public ConfigDef config() {
        return CONFIG_DEF;
    }

    @Override
    public String version() {
        return Version.get();
    }

    @Override
    public void close() {
        schemaCache = null;
    }

    /**
     * One entry of {@code add.fields}: where the value is ({@code block} null for the envelope itself, else
     * {@code source} or {@code transaction}), the field, and the name it gets in the row.
     */
    record AddedField(String block, String field, String outputName) {

        private static final Set<String> ENVELOPE_FIELDS = Set.of(RowEnvelope.OP, RowEnvelope.TS_MS);

        static List<AddedField> parseAll(List<String> names) {
            List<AddedField> out = new ArrayList<>();
            Set<String> seen = new TreeSet<>();
            for (String name : names) {
                AddedField a = parse(name);
                if (!seen.add(a.outputName)) {
                    throw new ConfigException(ADD_FIELDS_CONFIG, names, "names " + a.outputName + " twice");
                }
                out.add(a);
            }
            return List.copyOf(out);
        }

        static AddedField parse(String entry) {
            String name = entry == null ? "" : entry.strip();
            String output = ADDED_FIELD_PREFIX + name.replace('.', '_');
            int dot = name.indexOf('.');
            if (dot < 0) {
                if (ENVELOPE_FIELDS.contains(name)) {
                    return new AddedField(null, name, output);
                }
                if (SourceInfo.SCHEMA.field(name) != null) {
                    return new AddedField(RowEnvelope.SOURCE, name, output);
                }
            } else {
                String block = name.substring(0, dot);
                String field = name.substring(dot + 1);
                Schema blockSchema = block.equals(RowEnvelope.SOURCE) ? SourceInfo.SCHEMA
                        : block.equals(RowEnvelope.TRANSACTION) ? RowEnvelope.TRANSACTION_SCHEMA : null;
                if (blockSchema != null && blockSchema.field(field) != null) {
                    return new AddedField(block, field, output);
                }
            }
            throw new ConfigException(ADD_FIELDS_CONFIG, entry, "is not a field of the row envelope; valid names are "
                    + validNames());
        }

        static String validNames() {
            List<String> names = new ArrayList<>(List.of(RowEnvelope.OP, RowEnvelope.TS_MS));
            for (Field f : SourceInfo.SCHEMA.fields()) {
                names.add(f.name().equals(RowEnvelope.TS_MS) ? "source.ts_ms" : f.name());
            }
            for (Field f : RowEnvelope.TRANSACTION_SCHEMA.fields()) {
                names.add(RowEnvelope.TRANSACTION + "." + f.name());
            }
            return String.join(", ", names);
        }

        /** The field's value in an envelope (struct or map); {@code null} when the block or field is absent. */
        Object valueIn(Object envelope) {
            Object container = block == null ? envelope : VStreamRecords.get(envelope, block);
            return VStreamRecords.get(container, field);
        }

        /** The field's schema in an envelope schema; a record whose envelope lacks it fails, naming the field. */
        Schema schemaIn(ConnectRecord<?> record, Schema envelopeSchema) {
            Schema container = envelopeSchema;
            if (block != null) {
                Field blockField = envelopeSchema.field(block);
                container = blockField == null || blockField.schema().type() != Schema.Type.STRUCT ? null
                        : blockField.schema();
            }
            Field f = container == null ? null : container.field(field);
            if (f == null) {
                throw new DataException(ADD_FIELDS_CONFIG + " names " + (block == null ? "" : block + ".") + field
                        + ", which the envelope of " + VStreamRecords.describe(record) + " does not have"
                        + (container == null ? "" : "; it has " + fieldNames(container)));
            }
            return f.schema();
        }
    }

    /** Checks each {@code add.fields} entry names an envelope, source or transaction field. */
    static final class AddedFieldsValidator implements ConfigDef.Validator {
        @Override
        public void ensureValid(String name, Object value) {
            if (value instanceof List<?> list) {
                List<String> names = new ArrayList<>();
                list.forEach(o -> names.add(String.valueOf(o)));
                AddedField.parseAll(names);
            }
        }

        @Override
        public String toString() {
            return "comma-separated names among " + AddedField.validNames().toLowerCase(Locale.ROOT);
        }
    }
}
