package io.vstream.connect.core.event;

import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;

/**
 * The value of a {@link EventType#ROWS} record: the {@code after} images of consecutive copy rows of one table, in the
 * order of its key, all of one chunk (between two LASTPK records), with the names that say where they come from. To
 * a consumer it stands for as many ROW records with op {@code r} and these images; it saves the per-record cost of
 * the envelope (its {@code source} block, the key, the headers), which is most of a copy row's bytes and of the work
 * of converting it. The source writes them only when asked ({@code copy.rows.per.record} > 1). Pure schema code.
 */
public final class CopyRows {
    public static final String KEYSPACE = "keyspace";
    public static final String SHARD = "shard";
    public static final String DB = "db";
    public static final String TABLE = "table";
    public static final String TS_MS = "ts_ms";
    public static final String ROWS = "rows";

    private CopyRows() {
    }

    /** The value schema of a table whose row images have {@code rowSchema} (optional, as the envelope's images). */
    public static Schema schema(String name, Schema rowSchema) {
        SchemaBuilder b = SchemaBuilder.struct().version(1)
                .field(KEYSPACE, Schema.STRING_SCHEMA)
                .field(SHARD, Schema.STRING_SCHEMA)
                .field(DB, Schema.OPTIONAL_STRING_SCHEMA)
                .field(TABLE, Schema.STRING_SCHEMA)
                .field(TS_MS, Schema.OPTIONAL_INT64_SCHEMA)
                .field(ROWS, SchemaBuilder.array(rowSchema).build());
        return name == null ? b.build() : b.name(name).build();
    }

    /**
     * One value: {@code rows} (at least one, each a struct of the schema's row schema, as built and so validated) of
     * {@code table}, read at {@code tsMs}.
     */
    public static Struct value(Schema schema, String keyspace, String shard, String db, String table,
                               List<Struct> rows, long tsMs) {
        return withRows(new Struct(schema)
                .put(KEYSPACE, keyspace)
                .put(SHARD, shard)
                .put(DB, db)
                .put(TABLE, table)
                .put(TS_MS, tsMs), rows);
    }

    /**
     * {@code head}'s fields other than the rows, with {@code rows} (at least one, each a struct of the schema's row
     * schema, as built and so validated). The rows are added to the value's list after it was put, so that Connect
     * does not validate each row again through the array (a fifth of the copy reader's time, and as much of the
     * sink's, in a clone's profile).
     */
    public static Struct withRows(Struct head, List<Struct> rows) {
        if (rows.isEmpty()) {
            throw new IllegalArgumentException("a ROWS record carries at least one row");
        }
        Schema row = rowSchema(head.schema());
        for (Struct r : rows) {
            if (r == null || r.schema() != row && !row.equals(r.schema())) {
                throw new IllegalArgumentException("a row of a ROWS record must have the record's row schema");
            }
        }
        List<Struct> held = new ArrayList<>(rows.size());
        Struct value = new Struct(head.schema());
        for (Field f : head.schema().fields()) {
            value.put(f, f.name().equals(ROWS) ? held : head.get(f));
        }
        held.addAll(rows);
        return value;
    }

    /** The row images of a value, in order. */
    @SuppressWarnings("unchecked")
    public static List<Struct> rows(Struct value) {
        return (List<Struct>) (List<?>) value.getArray(ROWS);
    }

    /** The schema of one row image of a value's schema. */
    public static Schema rowSchema(Schema schema) {
        return schema.field(ROWS).schema().valueSchema();
    }
}
