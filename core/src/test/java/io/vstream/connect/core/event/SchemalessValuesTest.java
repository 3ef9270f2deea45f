package io.vstream.connect.core.event;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Date;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Timestamp;
import org.apache.kafka.connect.json.JsonConverter;
import org.junit.jupiter.api.Test;

/** Rows through the worker's own JsonConverter without schemas, rebuilt with the schema their FIELD record carried. */
class SchemalessValuesTest {
    private static final Schema GEOMETRY = SchemaBuilder.struct().name("io.debezium.data.geometry.Geometry").optional()
            .field("wkb", Schema.BYTES_SCHEMA).field("srid", Schema.OPTIONAL_INT32_SCHEMA).build();

    private static final Schema ROW = SchemaBuilder.struct().name("orders.Value").optional()
            .field("id", Schema.INT64_SCHEMA)
            .field("tiny", Schema.OPTIONAL_INT8_SCHEMA)
            .field("small", Schema.OPTIONAL_INT16_SCHEMA)
            .field("qty", Schema.OPTIONAL_INT32_SCHEMA)
            .field("price", Decimal.builder(2).parameter("connect.decimal.precision", "12").optional().build())
            .field("name", Schema.OPTIONAL_STRING_SCHEMA)
            .field("created", SchemaBuilder.int64().name("io.debezium.time.MicroTimestamp").version(1).optional()
                    .build())
            .field("day", Date.builder().optional().build())
            .field("at", Timestamp.builder().optional().build())
            .field("ratio", Schema.OPTIONAL_FLOAT32_SCHEMA)
            .field("score", Schema.OPTIONAL_FLOAT64_SCHEMA)
            .field("flag", Schema.OPTIONAL_BOOLEAN_SCHEMA)
            .field("blob", Schema.OPTIONAL_BYTES_SCHEMA)
            .field("tags", SchemaBuilder.array(Schema.STRING_SCHEMA).optional().build())
            .field("place", GEOMETRY)
            .build();

    private static Struct row() {
        return new Struct(ROW)
                .put("id", 0L)
                .put("tiny", (byte) -128)
                .put("small", (short) 32767)
                .put("qty", Integer.MIN_VALUE)
                .put("price", new BigDecimal("-9999999999.99"))
                .put("name", "ß 😀 日本")
                .put("created", 1_733_000_000_123_456L)
                .put("day", new java.util.Date(0))
                .put("at", new java.util.Date(1_733_000_000_123L))
                .put("ratio", 0.1f)
                .put("score", 1.0 / 3)
                .put("flag", true)
                .put("blob", new byte[] {0, (byte) 0xff, 10})
                .put("tags", List.of("a", "😀"))
                .put("place", new Struct(GEOMETRY).put("wkb", "wkb".getBytes(StandardCharsets.UTF_8)).put("srid", 4326));
    }

    private static Object throughJson(Schema schema, Object value, String decimalFormat) {
        JsonConverter out = new JsonConverter();
        out.configure(Map.of("schemas.enable", "false", "decimal.format", decimalFormat), false);
        byte[] bytes = out.fromConnectData("t", schema, value);
        JsonConverter in = new JsonConverter();
        in.configure(Map.of("schemas.enable", "false"), false);
        SchemaAndValue read = in.toConnectData("t", bytes);
        assertNull(read.schema());
        return read.value();
    }

    @Test
    void everyTypeComesBackAsTheSourceWroteIt() {
        Struct original = row();
        Object json = throughJson(ROW, original, "BASE64");
        assertTrue(json instanceof Map<?, ?>);
        Struct back = SchemalessValues.toStruct(ROW, json);
        back.validate();
        for (var f : ROW.fields()) {
            Object a = original.get(f);
            Object b = back.get(f);
            if (a instanceof byte[] x) {
                assertArrayEquals(x, (byte[]) b, f.name());
            } else if (a instanceof Struct s) {
                assertArrayEquals(s.getBytes("wkb"), ((Struct) b).getBytes("wkb"));
                assertEquals(s.get("srid"), ((Struct) b).get("srid"));
            } else {
                assertEquals(a, b, f.name());
            }
        }
    }

    @Test
    void nullsStayNullAndAnEnvelopeWithoutBeforeIsTyped() {
        Schema envelope = RowEnvelope.schema("x", ROW);
        Struct row = new Struct(ROW).put("id", 7L);
        Struct value = new Struct(envelope).put("before", null).put("after", row)
                .put("source", new SourceInfo("c", "ks", "-", "db", "orders", "MariaDB/0-1-2", 1L, 5L, "false", 0, 1L)
                        .toStruct())
                .put("op", "c").put("ts_ms", 5L)
                .put("transaction", RowEnvelope.transaction("0-1-2", 1, 1));
        Struct back = SchemalessValues.toStruct(envelope, throughJson(envelope, value, "BASE64"));
        assertNull(back.get("before"));
        assertEquals(7L, back.getStruct("after").get("id"));
        assertNull(back.getStruct("after").get("name"));
        assertEquals("c", back.get("op"));
        assertEquals(value.getStruct("source"), back.getStruct("source"));
    }

    @Test
    void aDecimalWrittenAsANumberIsRefusedRatherThanRounded() {
        Struct original = row();
        Object json = throughJson(ROW, original, "NUMERIC");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SchemalessValues.toStruct(ROW, json));
        assertTrue(e.getMessage().contains("'price'") && e.getMessage().contains("decimal.format=BASE64"),
                e.getMessage());
    }

    @Test
    void aValueOfTheWrongShapeNamesItsFieldButNotItsValue() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SchemalessValues.toStruct(ROW, Map.of("id", "secret-key")));
        assertTrue(e.getMessage().contains("'id'"), e.getMessage());
        assertTrue(!e.getMessage().contains("secret-key"), e.getMessage());
        IllegalArgumentException missing = assertThrows(IllegalArgumentException.class,
                () -> SchemalessValues.toStruct(ROW, Map.of("name", "x")));
        assertTrue(missing.getMessage().contains("'id'"), missing.getMessage());
    }

    @Test
    void schemaJsonKeepsEveryDetailOfARowSchema() {
        Schema back = SchemaJson.read(SchemaJson.write(ROW));
        assertEquals(ROW, back);
        Schema map = SchemaBuilder.map(Schema.STRING_SCHEMA, SchemaBuilder.array(Schema.INT32_SCHEMA).build())
                .optional().name("m").version(3).doc("d").build();
        assertEquals(map, SchemaJson.read(SchemaJson.write(map)));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SchemaJson.read("{\"type\":\"STRUCT\",\"fields\":[{\"type\":\"NOPE\",\"field\":\"a\"}]}"));
        assertTrue(e.getMessage().contains(".a") && e.getMessage().contains("NOPE"), e.getMessage());
    }
}
