package io.vstream.connect.core.event;

import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;

/**
 * Schemas and builders of the records that are not row changes: FIELD, BEGIN, COMMIT, DDL, VGTID, HEARTBEAT, LASTPK,
 * COPY_COMPLETED and JOURNAL. Each carries the keyspace and shard it belongs to; positions are Vitess-flavored GTID
 * strings ({@code MariaDB/0-1-42}), copy state and journals are JSON strings written by the core codecs.
 */
public final class ControlEvents {
    private static final String NS = "io.vstream.connect.";

    public static final Schema COLUMN_SCHEMA = SchemaBuilder.struct().name(NS + "Column")
            .field("name", Schema.STRING_SCHEMA)
            .field("type", Schema.STRING_SCHEMA)
            .field("connect_type", Schema.STRING_SCHEMA)
            .field("connect_name", Schema.OPTIONAL_STRING_SCHEMA)
            .field("nullable", Schema.BOOLEAN_SCHEMA)
            .field("key", Schema.BOOLEAN_SCHEMA)
            .build();

    public static final Schema FIELD = SchemaBuilder.struct().name(NS + "Field")
            .field("keyspace", Schema.STRING_SCHEMA)
            .field("shard", Schema.STRING_SCHEMA)
            .field("db", Schema.STRING_SCHEMA)
            .field("table", Schema.STRING_SCHEMA)
            .field("columns", SchemaBuilder.array(COLUMN_SCHEMA).build())
            .field("key_columns", SchemaBuilder.array(Schema.STRING_SCHEMA).build())
            .field("create_table", Schema.OPTIONAL_STRING_SCHEMA)
            .field("ts_ms", Schema.INT64_SCHEMA)
            .field("row_schema", Schema.OPTIONAL_STRING_SCHEMA)
            .build();

    public static final Schema BEGIN = SchemaBuilder.struct().name(NS + "Begin")
            .field("keyspace", Schema.STRING_SCHEMA)
            .field("shard", Schema.STRING_SCHEMA)
            .field("gtid", Schema.STRING_SCHEMA)
            .field("ts_ms", Schema.INT64_SCHEMA)
            .field("epoch", Schema.INT64_SCHEMA)
            .build();

    public static final Schema COMMIT = SchemaBuilder.struct().name(NS + "Commit")
            .field("keyspace", Schema.STRING_SCHEMA)
            .field("shard", Schema.STRING_SCHEMA)
            .field("gtid", Schema.STRING_SCHEMA)
            .field("position", Schema.STRING_SCHEMA)
            .field("event_count", Schema.INT64_SCHEMA)
            .field("ts_ms", Schema.INT64_SCHEMA)
            .field("epoch", Schema.INT64_SCHEMA)
            .build();

    public static final Schema DDL = SchemaBuilder.struct().name(NS + "Ddl")
            .field("keyspace", Schema.STRING_SCHEMA)
            .field("shard", Schema.STRING_SCHEMA)
            .field("db", Schema.OPTIONAL_STRING_SCHEMA)
            .field("statement", Schema.STRING_SCHEMA)
            .field("gtid", Schema.STRING_SCHEMA)
            .field("position", Schema.STRING_SCHEMA)
            .field("ts_ms", Schema.INT64_SCHEMA)
            .build();

    /** Position markers: VGTID and HEARTBEAT share this shape (the record's event header tells them apart). */
    public static final Schema POSITION = SchemaBuilder.struct().name(NS + "Position")
            .field("keyspace", Schema.STRING_SCHEMA)
            .field("shard", Schema.STRING_SCHEMA)
            .field("position", Schema.STRING_SCHEMA)
            .field("copy", Schema.OPTIONAL_STRING_SCHEMA)
            .field("ts_ms", Schema.INT64_SCHEMA)
            .field("epoch", Schema.INT64_SCHEMA)
            .build();

    /**
     * Copy progress of one table: the copy rows since the previous LASTPK of the table are exactly the table's rows
     * with a key in ({@code from}, {@code lastpk}] (from = null: the table's start; completed: no upper bound), as of
     * the copy's snapshot. A consumer that may have seen rows of an earlier, interrupted copy deletes the rows of that
     * range that the chunk lacks (see docs/copy.md).
     */
    public static final Schema LASTPK = SchemaBuilder.struct().name(NS + "LastPk")
            .field("keyspace", Schema.STRING_SCHEMA)
            .field("shard", Schema.STRING_SCHEMA)
            .field("table", Schema.STRING_SCHEMA)
            .field("from", Schema.OPTIONAL_STRING_SCHEMA)
            .field("lastpk", Schema.OPTIONAL_STRING_SCHEMA)
            .field("completed", Schema.BOOLEAN_SCHEMA)
            .field("rows_copied", Schema.INT64_SCHEMA)
            .field("ts_ms", Schema.INT64_SCHEMA)
            .build();

    public static final Schema COPY_COMPLETED = SchemaBuilder.struct().name(NS + "CopyCompleted")
            .field("keyspace", Schema.STRING_SCHEMA)
            .field("shard", Schema.OPTIONAL_STRING_SCHEMA)
            .field("position", Schema.OPTIONAL_STRING_SCHEMA)
            .field("ts_ms", Schema.INT64_SCHEMA)
            .build();

    public static final Schema JOURNAL = SchemaBuilder.struct().name(NS + "Journal")
            .field("keyspace", Schema.STRING_SCHEMA)
            .field("shard", Schema.STRING_SCHEMA)
            .field("id", Schema.INT64_SCHEMA)
            .field("journal", Schema.STRING_SCHEMA)
            .field("ts_ms", Schema.INT64_SCHEMA)
            .build();

    /** The keyspace-level record listing the shards a stream covers (on the keyspace topic). */
    public static final Schema TOPOLOGY = SchemaBuilder.struct().name(NS + "Topology")
            .field("keyspace", Schema.STRING_SCHEMA)
            .field("shards", SchemaBuilder.array(Schema.STRING_SCHEMA).build())
            .field("ts_ms", Schema.INT64_SCHEMA)
            .build();

    private ControlEvents() {
    }

    public static Struct topology(String keyspace, List<String> shards, long tsMs) {
        return new Struct(TOPOLOGY).put("keyspace", keyspace).put("shards", shards).put("ts_ms", tsMs);
    }

    /**
     * The schema of a control event's value, by its type ({@code null} for ROW and ROWS, whose schema is their table's:
     * the FIELD record's {@code row_schema}). A JOURNAL record on a shard's topic has the {@link #JOURNAL} schema.
     */
    public static Schema schemaOf(EventType type) {
        return switch (type) {
            case FIELD -> FIELD;
            case ROW, ROWS -> null;
            case BEGIN -> BEGIN;
            case COMMIT -> COMMIT;
            case DDL -> DDL;
            case VGTID, HEARTBEAT -> POSITION;
            case LASTPK -> LASTPK;
            case COPY_COMPLETED -> COPY_COMPLETED;
            case JOURNAL -> JOURNAL;
        };
    }

    /**
     * A FIELD value; {@code createTable} is the source's {@code SHOW CREATE TABLE} when the FIELD was emitted (the
     * current definition, which matches the rows for a stream that is not far behind), or null; {@code rowSchema} is the
     * Connect schema of the table's row images ({@code before}/{@code after}), written as {@link SchemaJson}, so that a
     * consumer of records without schemas can type them.
     */
    public static Struct field(String keyspace, String shard, TableDef table, String createTable, Schema rowSchema,
                               long tsMs) {
        List<Struct> columns = new ArrayList<>(table.columns().size());
        for (ColumnDef c : table.columns()) {
            columns.add(new Struct(COLUMN_SCHEMA)
                    .put("name", c.name())
                    .put("type", c.sqlType())
                    .put("connect_type", c.schema().type().name())
                    .put("connect_name", c.schema().name())
                    .put("nullable", c.nullable())
                    .put("key", c.primaryKey()));
        }
        return new Struct(FIELD)
                .put("keyspace", keyspace).put("shard", shard)
                .put("db", table.database()).put("table", table.table())
                .put("columns", columns).put("key_columns", table.keyColumns())
                .put("create_table", createTable)
                .put("ts_ms", tsMs)
                .put("row_schema", rowSchema == null ? null : SchemaJson.write(rowSchema));
    }

    public static Struct begin(String keyspace, String shard, String gtid, long tsMs, long epoch) {
        return new Struct(BEGIN).put("keyspace", keyspace).put("shard", shard).put("gtid", gtid)
                .put("ts_ms", tsMs).put("epoch", epoch);
    }

    public static Struct commit(String keyspace, String shard, String gtid, String position, long eventCount,
                                long tsMs, long epoch) {
        return new Struct(COMMIT).put("keyspace", keyspace).put("shard", shard).put("gtid", gtid)
                .put("position", position).put("event_count", eventCount).put("ts_ms", tsMs).put("epoch", epoch);
    }

    public static Struct ddl(String keyspace, String shard, String database, String statement, String gtid,
                             String position, long tsMs) {
        return new Struct(DDL).put("keyspace", keyspace).put("shard", shard).put("db", database)
                .put("statement", statement).put("gtid", gtid).put("position", position).put("ts_ms", tsMs);
    }

    public static Struct position(String keyspace, String shard, String position, String copyJson, long tsMs,
                                  long epoch) {
        return new Struct(POSITION).put("keyspace", keyspace).put("shard", shard).put("position", position)
                .put("copy", copyJson).put("ts_ms", tsMs).put("epoch", epoch);
    }

    public static Struct lastPk(String keyspace, String shard, String table, String fromJson, String lastPkJson,
                                boolean completed, long rowsCopied, long tsMs) {
        return new Struct(LASTPK).put("keyspace", keyspace).put("shard", shard).put("table", table)
                .put("from", fromJson).put("lastpk", lastPkJson).put("completed", completed)
                .put("rows_copied", rowsCopied).put("ts_ms", tsMs);
    }

    public static Struct copyCompleted(String keyspace, String shard, String position, long tsMs) {
        return new Struct(COPY_COMPLETED).put("keyspace", keyspace).put("shard", shard).put("position", position)
                .put("ts_ms", tsMs);
    }

    public static Struct journal(String keyspace, String shard, long id, String journalJson, long tsMs) {
        return new Struct(JOURNAL).put("keyspace", keyspace).put("shard", shard).put("id", id)
                .put("journal", journalJson).put("ts_ms", tsMs);
    }
}
