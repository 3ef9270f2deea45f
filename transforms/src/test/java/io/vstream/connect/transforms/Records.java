package io.vstream.connect.transforms;

import io.vstream.connect.core.event.ControlEvents;
import io.vstream.connect.core.event.EventHeaders;
import io.vstream.connect.core.event.EventType;
import io.vstream.connect.core.event.RowEnvelope;
import io.vstream.connect.core.event.SchemaNames;
import io.vstream.connect.core.event.SourceInfo;
import io.vstream.connect.core.event.TopicNames;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.header.ConnectHeaders;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * Builds records as the source connector writes them (its RecordFactory: same topics, schemas, headers and envelope
 * through the core event model), and their schemaless forms (what a JSON converter without schemas gives a sink).
 */
public final class Records {
    public static final String PREFIX = "vs";
    public static final String KEYSPACE = "commerce";
    public static final String SHARD = "-80";
    public static final String TOPIC = TopicNames.shardTopic(PREFIX, KEYSPACE, SHARD);
    public static final String GTID = "0-1-42";

    public static final Schema ROW = SchemaBuilder.struct().name(SchemaNames.value(PREFIX, KEYSPACE, "orders"))
            .optional()
            .field("id", Schema.INT64_SCHEMA)
            .field("customer_id", Schema.INT64_SCHEMA)
            .field("amount", Decimal.builder(2).optional().build())
            .field("note", Schema.OPTIONAL_STRING_SCHEMA)
            .build();
    public static final Schema KEY = SchemaBuilder.struct().name(SchemaNames.key(PREFIX, KEYSPACE, "orders"))
            .field("id", Schema.INT64_SCHEMA).build();
    public static final Schema ENVELOPE = RowEnvelope.schema(SchemaNames.envelope(PREFIX, KEYSPACE, "orders"), ROW);

    private Records() {
    }

    public static Struct row(long id, long customerId, String amount, String note) {
        return new Struct(ROW).put("id", id).put("customer_id", customerId)
                .put("amount", amount == null ? null : new BigDecimal(amount)).put("note", note);
    }

    public static Struct key(long id) {
        return new Struct(KEY).put("id", id);
    }

    public static SourceInfo source(String shard, String table, String gtid, String snapshot) {
        return new SourceInfo("cdc", KEYSPACE, shard, "shop", table, gtid, 7L, 1_700_000_000_000L, snapshot, 0, 0L);
    }

    public static ConnectHeaders headers(EventType type, String shard, String table) {
        ConnectHeaders h = new ConnectHeaders();
        h.addString(EventHeaders.EVENT, type.headerValue());
        h.addString(EventHeaders.KEYSPACE, KEYSPACE);
        h.addString(EventHeaders.SHARD, shard);
        if (table != null) {
            h.addString(EventHeaders.TABLE, table);
        }
        h.addLong(EventHeaders.EPOCH, 0L);
        return h;
    }

    /** A ROW record of table {@code orders} on shard {@code -80}. */
    public static SourceRecord rowRecord(RowEnvelope.Op op, Struct before, Struct after) {
        return rowRecord(SHARD, op, before, after);
    }

    public static SourceRecord rowRecord(String shard, RowEnvelope.Op op, Struct before, Struct after) {
        Struct image = after != null ? after : before;
        Struct value = RowEnvelope.value(ENVELOPE, before, after,
                source(shard, "orders", op == RowEnvelope.Op.READ ? null : GTID,
                        op == RowEnvelope.Op.READ ? "true" : "false"),
                op, 1_700_000_000_500L, op == RowEnvelope.Op.READ ? null
                        : RowEnvelope.transaction(shard + ":" + GTID, 1, 1));
        return new SourceRecord(Map.of("keyspace", KEYSPACE, "shard", shard), Map.of("v", 1, "gtid", GTID),
                TopicNames.shardTopic(PREFIX, KEYSPACE, shard), 0, KEY, key(image.getInt64("id")), ENVELOPE,
                value, 1_700_000_000_000L, headers(EventType.ROW, shard, "orders"));
    }

    public static SourceRecord insert(long id, long customerId) {
        return rowRecord(RowEnvelope.Op.CREATE, null, row(id, customerId, "1.25", "n" + id));
    }

    public static SourceRecord delete(long id, long customerId) {
        return rowRecord(RowEnvelope.Op.DELETE, row(id, customerId, "1.25", "n" + id), null);
    }

    public static SourceRecord begin() {
        return control(EventType.BEGIN, null, ControlEvents.BEGIN,
                ControlEvents.begin(KEYSPACE, SHARD, GTID, 1L, 0L));
    }

    public static SourceRecord commit() {
        return control(EventType.COMMIT, null, ControlEvents.COMMIT,
                ControlEvents.commit(KEYSPACE, SHARD, GTID, "MariaDB/0-1-42", 1, 1L, 0L));
    }

    public static SourceRecord heartbeat() {
        return control(EventType.HEARTBEAT, null, ControlEvents.POSITION,
                ControlEvents.position(KEYSPACE, SHARD, "MariaDB/0-1-42", null, 1L, 0L));
    }

    public static SourceRecord control(EventType type, String table, Schema schema, Struct value) {
        return new SourceRecord(Map.of("keyspace", KEYSPACE, "shard", SHARD), Map.of("v", 1, "gtid", GTID), TOPIC, 0,
                null, null, schema, value, 1L, headers(type, SHARD, table));
    }

    /** The record with its key and value as schemaless maps, as a JSON converter without schemas gives them. */
    public static SourceRecord schemaless(SourceRecord r) {
        return r.newRecord(r.topic(), r.kafkaPartition(), null, toPlain(r.key()), null, toPlain(r.value()),
                r.timestamp(), r.headers());
    }

    /** A copy of the record without any header. */
    public static SourceRecord withoutHeaders(SourceRecord r) {
        return r.newRecord(r.topic(), r.kafkaPartition(), r.keySchema(), r.key(), r.valueSchema(), r.value(),
                r.timestamp(), new ConnectHeaders());
    }

    /** A tombstone for {@code id} with ROW headers, as a tombstone-producing transform earlier in a chain leaves it. */
    public static SourceRecord tombstone(long id) {
        return new SourceRecord(Map.of(), Map.of(), TOPIC, 0, KEY, key(id), null, null, 1L,
                headers(EventType.ROW, SHARD, "orders"));
    }

    static Object toPlain(Object value) {
        if (value instanceof Struct s) {
            Map<String, Object> m = new LinkedHashMap<>();
            for (Field f : s.schema().fields()) {
                m.put(f.name(), toPlain(s.get(f)));
            }
            return m;
        }
        if (value instanceof List<?> l) {
            List<Object> out = new ArrayList<>();
            l.forEach(o -> out.add(toPlain(o)));
            return out;
        }
        return value;
    }
}
