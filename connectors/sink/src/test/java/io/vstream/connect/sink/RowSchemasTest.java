package io.vstream.connect.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vstream.connect.core.event.CopyRows;
import io.vstream.connect.core.event.EventHeaders;
import io.vstream.connect.core.event.EventType;
import io.vstream.connect.core.event.SchemaJson;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.header.ConnectHeaders;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.Test;

/** How the sink types compact (schemaless) records: by event type, and a row by the schema in force at its offset. */
class RowSchemasTest {
    private static final Schema V1 = SchemaBuilder.struct().optional()
            .field("id", Schema.INT64_SCHEMA).field("n", Schema.OPTIONAL_INT32_SCHEMA).build();
    private static final Schema V2 = SchemaBuilder.struct().optional()
            .field("id", Schema.INT64_SCHEMA).field("n", Schema.OPTIONAL_INT64_SCHEMA)
            .field("note", Schema.OPTIONAL_STRING_SCHEMA).build();

    private static SinkRecord record(EventType type, String table, Object value, long offset) {
        ConnectHeaders h = new ConnectHeaders();
        h.addString(EventHeaders.EVENT, type.headerValue());
        if (table != null) {
            h.addString(EventHeaders.TABLE, table);
        }
        return new SinkRecord("log", 0, null, null, null, value, offset, 0L,
                org.apache.kafka.common.record.TimestampType.CREATE_TIME, h);
    }

    private static Map<String, Object> row(Map<String, Object> after) {
        Map<String, Object> source = new HashMap<>();
        source.put("version", "1");
        source.put("connector", "vstream");
        source.put("name", "n");
        source.put("ts_ms", 1L);
        source.put("db", "db");
        source.put("keyspace", "ks");
        source.put("shard", "-");
        source.put("server_id", 1L);
        source.put("row", 0L); // JsonConverter without schemas reads every integer as a Long
        source.put("epoch", 0L);
        Map<String, Object> v = new HashMap<>();
        v.put("before", null);
        v.put("after", after);
        v.put("source", source);
        v.put("op", "c");
        return v;
    }

    /** A ROWS value of table t as JsonConverter without schemas reads it. */
    private static Map<String, Object> rows(List<Map<String, Object>> rows) {
        Map<String, Object> v = new HashMap<>();
        v.put("keyspace", "ks");
        v.put("shard", "-");
        v.put("db", "db");
        v.put("table", "t");
        v.put("ts_ms", 4L);
        v.put("rows", rows);
        return v;
    }

    @Test
    void aRowIsTypedWithTheSchemaInForceAtItsOffset() {
        RowSchemas schemas = new RowSchemas();
        assertThat(schemas.learn("t", 10, SchemaJson.write(V1))).isTrue();
        assertThat(schemas.learn("t", 15, SchemaJson.write(V1))).as("the same schema again").isFalse();
        assertThat(schemas.learn("t", 20, SchemaJson.write(V2))).isTrue();

        Struct before = (Struct) schemas.typed(record(EventType.ROW, "t", row(Map.of("id", 1L, "n", 5L)), 12),
                EventType.ROW).value();
        assertThat(before.getStruct("after").get("n")).isEqualTo(5); // INT32 in V1
        Struct after = (Struct) schemas.typed(record(EventType.ROW, "t", row(Map.of("id", 1L, "n", 5L)), 21),
                EventType.ROW).value();
        assertThat(after.getStruct("after").get("n")).isEqualTo(5L); // INT64 in V2
        assertThat(after.getStruct("after").schema().field("note")).isNotNull();
        assertThat(after.getStruct("source").getString("keyspace")).isEqualTo("ks");
    }

    @Test
    void copyRowsOfOneRecordAreTypedWithTheSchemaInForceAtItsOffset() {
        RowSchemas schemas = new RowSchemas();
        schemas.learn("t", 10, SchemaJson.write(V1));
        schemas.learn("t", 20, SchemaJson.write(V2));
        Map<String, Object> value = rows(List.of(Map.of("id", 1L, "n", 5L), Map.of("id", 2L)));

        Struct v1 = (Struct) schemas.typed(record(EventType.ROWS, "t", value, 12), EventType.ROWS).value();
        List<Struct> rows = CopyRows.rows(v1);
        assertThat(rows).hasSize(2);
        assertThat(rows.get(0).get("n")).isEqualTo(5); // INT32 in V1
        assertThat(rows.get(1).get("n")).isNull();
        assertThat(v1.getString(CopyRows.TABLE)).isEqualTo("t");
        Struct v2 = (Struct) schemas.typed(record(EventType.ROWS, "t", value, 21), EventType.ROWS).value();
        assertThat(CopyRows.rows(v2).get(0).get("n")).isEqualTo(5L); // INT64 in V2
        assertThat(CopyRows.rows(v2).get(0).schema().field("note")).isNotNull();

        assertThatThrownBy(() -> schemas.typed(record(EventType.ROWS, "other", value, 30), EventType.ROWS))
                .isInstanceOf(ConnectException.class).hasMessageContaining("no FIELD record");
    }

    @Test
    void controlEventsHaveTheirFixedSchemasAndStructsPassThrough() {
        RowSchemas schemas = new RowSchemas();
        Map<String, Object> begin = Map.of("keyspace", "ks", "shard", "-", "gtid", "0-1-5", "ts_ms", 3L,
                "epoch", 0L);
        Struct typed = (Struct) schemas.typed(record(EventType.BEGIN, null, begin, 1), EventType.BEGIN).value();
        assertThat(typed.getString("gtid")).isEqualTo("0-1-5");
        SinkRecord struct = record(EventType.BEGIN, null, typed, 2);
        assertThat(schemas.typed(struct, EventType.BEGIN)).isSameAs(struct);
    }

    @Test
    void mismatchesStopWithTheFix() {
        RowSchemas schemas = new RowSchemas();
        assertThatThrownBy(() -> schemas.typed(record(EventType.ROW, "t", row(Map.of("id", 1L)), 3), EventType.ROW))
                .isInstanceOf(ConnectException.class).hasMessageContaining("Row of table t at log-0@3")
                .hasMessageContaining("no FIELD record carrying its row schema");
        schemas.learn("t", 1, SchemaJson.write(V1));
        assertThatThrownBy(() -> schemas.typed(record(EventType.ROW, "t", row(Map.of("id", "x")), 3),
                EventType.ROW)).isInstanceOf(ConnectException.class).hasMessageContaining("after.id");
        assertThatThrownBy(() -> schemas.typed(record(EventType.BEGIN, null,
                Map.of("schema", Map.of(), "payload", Map.of()), 4), EventType.BEGIN))
                .isInstanceOf(ConnectException.class).hasMessageContaining("value.converter.schemas.enable=true");
        schemas.forget();
        assertThatThrownBy(() -> schemas.typed(record(EventType.ROW, "t", row(Map.of("id", 1L)), 3), EventType.ROW))
                .isInstanceOf(ConnectException.class);
        assertThat(List.of(schemas.learn("t", 1, null))).containsExactly(false);
    }

    private static byte[] json(Object value) {
        try {
            return new com.fasterxml.jackson.databind.ObjectMapper().writeValueAsBytes(value);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new AssertionError(e);
        }
    }

    /** ByteArrayConverter's values (the workflow configs' sink): typed as the maps JsonConverter would give. */
    @Test
    void jsonBytesAreTypedAsTheirMaps() {
        RowSchemas schemas = new RowSchemas();
        schemas.learn("t", 10, SchemaJson.write(V2));
        Map<String, Object> change = row(Map.of("id", 1L, "n", 5L, "note", "\uD83D\uDE00 é"));
        assertThat(schemas.typed(record(EventType.ROW, "t", json(change), 12), EventType.ROW).value())
                .isEqualTo(schemas.typed(record(EventType.ROW, "t", change, 12), EventType.ROW).value());

        Map<String, Object> rows = rows(List.of(Map.of("id", 1L, "n", 5L), Map.of("id", 0L)));
        Struct fromBytes = (Struct) schemas.typed(record(EventType.ROWS, "t", json(rows), 13), EventType.ROWS).value();
        assertThat(fromBytes).isEqualTo(schemas.typed(record(EventType.ROWS, "t", rows, 13), EventType.ROWS).value());
        assertThat(CopyRows.rows(fromBytes).get(1).get("id")).isEqualTo(0L);

        Map<String, Object> begin = Map.of("keyspace", "ks", "shard", "-", "gtid", "0-1-5", "ts_ms", 3L,
                "epoch", 0L);
        assertThat(schemas.typed(record(EventType.BEGIN, null, json(begin), 1), EventType.BEGIN).value())
                .isEqualTo(schemas.typed(record(EventType.BEGIN, null, begin, 1), EventType.BEGIN).value());
    }

    @Test
    void jsonBytesThatDoNotFitStopWithTheFix() {
        RowSchemas schemas = new RowSchemas();
        schemas.learn("t", 1, SchemaJson.write(V1));
        Map<String, Object> envelope = new java.util.LinkedHashMap<>(); // as JsonConverter writes it: schema first
        envelope.put("schema", Map.of("type", "struct"));
        envelope.put("payload", Map.of("keyspace", "ks"));
        assertThatThrownBy(() -> schemas.typed(record(EventType.BEGIN, null, json(envelope), 4), EventType.BEGIN))
                .isInstanceOf(ConnectException.class).hasMessageContaining("ByteArrayConverter")
                .hasMessageContaining("value.converter.schemas.enable=false on the source");
        Map<String, Object> reversed = new java.util.LinkedHashMap<>();
        reversed.put("payload", Map.of("keyspace", "ks"));
        reversed.put("schema", Map.of("type", "struct"));
        assertThatThrownBy(() -> schemas.typed(record(EventType.BEGIN, null, json(reversed), 4), EventType.BEGIN))
                .isInstanceOf(ConnectException.class).hasMessageContaining("ByteArrayConverter");
        assertThatThrownBy(() -> schemas.typed(record(EventType.ROW, "t", json(row(Map.of("id", "x"))), 5),
                EventType.ROW)).isInstanceOf(ConnectException.class).hasMessageContaining("log-0@5")
                .hasMessageContaining("after.id");
        assertThatThrownBy(() -> schemas.typed(record(EventType.ROW, "t", "{\"before\": nul".getBytes(
                java.nio.charset.StandardCharsets.UTF_8), 6), EventType.ROW)).isInstanceOf(ConnectException.class)
                .hasMessageContaining("log-0@6");
        assertThatThrownBy(() -> schemas.typed(record(EventType.ROW, "u", json(row(Map.of("id", 1L))), 7),
                EventType.ROW)).isInstanceOf(ConnectException.class).hasMessageContaining("no FIELD record");
    }
}
