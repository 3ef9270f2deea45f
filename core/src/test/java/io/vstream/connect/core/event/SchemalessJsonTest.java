package io.vstream.connect.core.event;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.kafka.connect.data.Date;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Time;
import org.apache.kafka.connect.data.Timestamp;
import org.apache.kafka.connect.json.JsonConverter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Values of every type written by the worker's JsonConverter without schemas, read back in one pass and compared with
 * the two-step path they replace (JsonConverter's toConnectData, then {@link SchemalessValues}): same values, same
 * errors.
 */
class SchemalessJsonTest {
    private static final Schema POINT = SchemaBuilder.struct().name("point").optional()
            .field("x", Schema.INT32_SCHEMA).field("y", Schema.OPTIONAL_INT32_SCHEMA).build();

    private static final Schema ROW = SchemaBuilder.struct().name("orders.Value").optional()
            .field("id", Schema.INT64_SCHEMA)
            .field("tiny", Schema.OPTIONAL_INT8_SCHEMA)
            .field("small", Schema.OPTIONAL_INT16_SCHEMA)
            .field("qty", Schema.OPTIONAL_INT32_SCHEMA)
            .field("price", Decimal.builder(2).optional().build())
            .field("whole", Decimal.builder(0).optional().build())
            .field("name", Schema.OPTIONAL_STRING_SCHEMA)
            .field("day", Date.builder().optional().build())
            .field("clock", Time.builder().optional().build())
            .field("at", Timestamp.builder().optional().build())
            .field("ratio", Schema.OPTIONAL_FLOAT32_SCHEMA)
            .field("score", Schema.OPTIONAL_FLOAT64_SCHEMA)
            .field("flag", Schema.OPTIONAL_BOOLEAN_SCHEMA)
            .field("blob", Schema.OPTIONAL_BYTES_SCHEMA)
            .field("tags", SchemaBuilder.array(Schema.STRING_SCHEMA).optional().build())
            .field("place", POINT)
            .field("path", SchemaBuilder.array(POINT).optional().build())
            .field("labels", SchemaBuilder.map(Schema.STRING_SCHEMA, Schema.OPTIONAL_INT64_SCHEMA).optional().build())
            .field("byCode", SchemaBuilder.map(Schema.INT32_SCHEMA, Schema.STRING_SCHEMA).optional().build())
            .build();

    private static final Schema NUMERIC_ROW = SchemaBuilder.struct()
            .field("id", Schema.INT64_SCHEMA)
            .field("whole", Decimal.builder(0).optional().build())
            .build();

    private static final Schema REQUIRED_ROW = required(ROW);

    private static final Schema ROWS = CopyRows.schema("rows", ROW);

    private static Struct full(long id) {
        return new Struct(ROW)
                .put("id", id)
                .put("tiny", (byte) -128)
                .put("small", (short) 32767)
                .put("qty", Integer.MIN_VALUE)
                .put("price", new BigDecimal("-9999999999.99"))
                .put("whole", new BigDecimal("-12345678901234567890"))
                .put("name", "ß 😀 日本 \" \\ \n")
                .put("day", new java.util.Date(-86_400_000L * 365))
                .put("clock", new java.util.Date(86_399_999L))
                .put("at", new java.util.Date(1_733_000_000_123L))
                .put("ratio", 0.1f)
                .put("score", 1.0 / 3)
                .put("flag", false)
                .put("blob", new byte[] {0, (byte) 0xff, 10})
                .put("tags", List.of("a", "😀", ""))
                .put("place", new Struct(POINT).put("x", -1).put("y", null))
                .put("path", List.of(new Struct(POINT).put("x", 0).put("y", 2), new Struct(POINT).put("x", 3)))
                .put("labels", mapOf("k", 1L, "😀", null, "", Long.MIN_VALUE))
                .put("byCode", mapOf(-1, "minus one", 0, "", 404, "😀"));
    }

    private static Stream<Struct> rows() {
        return Stream.of(
                full(Long.MAX_VALUE),
                full(Long.MIN_VALUE).put("price", new BigDecimal("0.00")).put("whole", BigDecimal.ZERO)
                        .put("score", -0.0).put("ratio", Float.MAX_VALUE).put("name", ""),
                full(0).put("price", new BigDecimal("12.34")).put("score", Double.MIN_VALUE).put("flag", true)
                        .put("blob", new byte[0]).put("tags", List.of()).put("path", List.of())
                        .put("labels", Map.of()).put("byCode", Map.of()),
                new Struct(ROW).put("id", 7L),
                new Struct(ROW).put("id", -1L).put("score", 1e300).put("ratio", -1e-30f).put("at", new java.util.Date(0))
                        .put("day", new java.util.Date(0)).put("clock", new java.util.Date(0)));
    }

    private static <K, V> Map<K, V> mapOf(Object... kv) {
        Map<K, V> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            @SuppressWarnings("unchecked") K k = (K) kv[i];
            @SuppressWarnings("unchecked") V v = (V) kv[i + 1];
            m.put(k, v);
        }
        return m;
    }

    private static byte[] write(Schema schema, Object value, String decimalFormat) {
        JsonConverter out = new JsonConverter();
        out.configure(Map.of("schemas.enable", "false", "decimal.format", decimalFormat), false);
        return out.fromConnectData("t", schema, value);
    }

    private static Object converted(byte[] json) {
        JsonConverter in = new JsonConverter();
        in.configure(Map.of("schemas.enable", "false"), false);
        return in.toConnectData("t", json).value();
    }

    /** The path SchemalessJson replaces. */
    private static Object twoStep(Schema schema, byte[] json) {
        return SchemalessValues.toConnect(schema, converted(json));
    }

    private static byte[] utf8(String json) {
        return json.getBytes(StandardCharsets.UTF_8);
    }

    /** {@link SchemalessJson#read} and its fast pass alone (no second reading) both give the two-step value. */
    private static void assertReadsAsTwoStep(Schema schema, byte[] json) {
        Object expected = twoStep(schema, json);
        assertSameValue(expected, SchemalessJson.read(schema, json));
        try {
            assertSameValue(expected, SchemalessJson.typed(schema, json));
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }

    private static void assertSameValue(Object expected, Object actual) {
        if (expected instanceof byte[] b) {
            assertArrayEquals(b, (byte[]) actual);
        } else {
            assertEquals(expected, actual);
        }
        if (actual instanceof Struct s) {
            s.validate();
        }
    }

    /** Both paths refuse the bytes with the same exception and message; the message returned for more checks. */
    private static String assertFailsAsTwoStep(Schema schema, byte[] json) {
        RuntimeException expected = assertThrows(RuntimeException.class, () -> twoStep(schema, json));
        RuntimeException actual = assertThrows(RuntimeException.class, () -> SchemalessJson.read(schema, json));
        assertEquals(expected.getClass(), actual.getClass(), actual.getMessage());
        assertEquals(expected.getMessage(), actual.getMessage());
        return actual.getMessage();
    }

    @ParameterizedTest
    @MethodSource("rows")
    void everyTypeReadsAsTheTwoStepPathReadsIt(Struct row) {
        byte[] json = write(ROW, row, "BASE64");
        assertReadsAsTwoStep(ROW, json);
        Struct back = SchemalessJson.readStruct(ROW, json);
        assertEquals(row.get("id"), back.get("id"));
        assertEquals(row.get("name"), back.get("name"));
        assertEquals(row.get("price"), back.get("price"));
        assertEquals(row.get("path"), back.get("path"));
        assertEquals(row.get("byCode"), back.get("byCode"));
        assertArrayEquals((byte[]) row.get("blob"), (byte[]) back.get("blob"));
    }

    @Test
    void integralDecimalsWrittenAsNumbersAreRead() {
        for (String whole : List.of("0", "-1", "9223372036854775807", "-9223372036854775808", "120")) {
            Struct row = new Struct(NUMERIC_ROW).put("id", 1L).put("whole", new BigDecimal(whole));
            byte[] json = write(NUMERIC_ROW, row, "NUMERIC");
            assertReadsAsTwoStep(NUMERIC_ROW, json);
            assertEquals(row, SchemalessJson.read(NUMERIC_ROW, json));
        }
    }

    @Test
    void aFractionalDecimalWrittenAsANumberIsRefusedAsBefore() {
        for (String price : List.of("12.34", "-0.01", "100.00", "0.00")) {
            Struct row = new Struct(ROW).put("id", 1L).put("price", new BigDecimal(price));
            String message = assertFailsAsTwoStep(ROW, write(ROW, row, "NUMERIC"));
            assertTrue(message.contains("'price'") && message.contains("decimal.format=BASE64"), message);
            assertFalse(message.contains(price), message);
        }
    }

    @Test
    void aRowsRecordReadsAsTheSinkTypedIt() {
        List<Struct> rows = new ArrayList<>();
        rows().forEach(rows::add);
        for (int i = 0; i < 20; i++) {
            rows.add(full(i).put("name", "row " + i));
        }
        Struct value = CopyRows.value(ROWS, "ks", "-80", null, "orders", rows, 1_733_000_000_000L);
        byte[] json = write(ROWS, value, "BASE64");
        Struct expected = SchemalessValues.toRows(ROWS, converted(json));
        Struct actual = SchemalessJson.readRows(ROWS, json);
        assertEquals(expected, actual);
        try {
            assertEquals(expected, SchemalessJson.typed(ROWS, json));
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
        assertEquals(value.get("table"), actual.get("table"));
        assertEquals(rows.size(), CopyRows.rows(actual).size());
        actual.validate();
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "{\"keyspace\":\"ks\",\"shard\":\"-\",\"table\":\"t\",\"rows\":{}}",
        "{\"keyspace\":\"ks\",\"shard\":\"-\",\"table\":\"t\"}",
        "{\"keyspace\":\"ks\",\"shard\":\"-\",\"table\":\"t\",\"rows\":[{\"id\":1},null]}",
        "{\"keyspace\":\"ks\",\"shard\":\"-\",\"table\":\"t\",\"rows\":[]}",
        "{\"keyspace\":\"ks\",\"shard\":\"-\",\"table\":\"t\",\"rows\":[{\"id\":1},{\"id\":\"secret\"}]}",
        "{\"keyspace\":\"ks\",\"shard\":\"-\",\"rows\":[{\"id\":1}]}",
        "{\"keyspace\":\"ks\",\"shard\":\"-\",\"table\":\"t\",\"rows\":[{\"id\":1},7]}",
        "[1]",
        "null",
        "{\"keyspace\":\"ks\",\"shard\":\"-\",\"table\":\"t\",\"rows\":[{\"id\":1}]",
    })
    void aBadRowsRecordFailsAsTheSinkFailedOnIt(String text) {
        byte[] json = utf8(text);
        RuntimeException expected = assertThrows(RuntimeException.class, () -> {
            Object untyped;
            try {
                untyped = converted(json);
            } catch (org.apache.kafka.connect.errors.DataException malformed) {
                throw new IllegalArgumentException("malformed");
            }
            SchemalessValues.toRows(ROWS, untyped);
        });
        RuntimeException actual = assertThrows(RuntimeException.class, () -> SchemalessJson.readRows(ROWS, json));
        assertEquals(expected.getClass(), actual.getClass(), actual.getMessage());
        if (!"malformed".equals(expected.getMessage())) {
            assertEquals(expected.getMessage(), actual.getMessage());
        }
        assertFalse(actual.getMessage().contains("secret"), actual.getMessage());
    }

    @Test
    void aRowsRecordWithItsFieldsInAnotherOrderAndUnknownOnesReadsTheSame() {
        byte[] json = utf8("{\"rows\":[{\"qty\":3,\"extra\":{\"a\":[1,{\"b\":null}]},\"id\":5},{\"id\":6}],"
                + "\"table\":\"t\",\"keyspace\":\"ks\",\"more\":[],\"shard\":\"-\"}");
        assertEquals(SchemalessValues.toRows(ROWS, converted(json)), SchemalessJson.readRows(ROWS, json));
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "{\"id\":1,\"qty\":\"7\"}",
        "{\"id\":\"secret-key\"}",
        "{\"name\":\"x\"}",
        "{\"id\":null}",
        "{\"name\":\"x\",\"id\":1,\"qty\":true,\"tiny\":\"a\"}",
        "{\"id\":1,\"blob\":\"not base64!\"}",
        "{\"id\":1,\"blob\":\"ü\"}",
        "{\"id\":1,\"blob\":12}",
        "{\"id\":1,\"price\":\"\"}",
        "{\"id\":1,\"price\":1.5}",
        "{\"id\":1,\"flag\":\"true\"}",
        "{\"id\":1,\"flag\":1}",
        "{\"id\":1,\"name\":5}",
        "{\"id\":1,\"name\":{}}",
        "{\"id\":1,\"tags\":\"a\"}",
        "{\"id\":1,\"tags\":[\"a\",null]}",
        "{\"id\":1,\"tags\":[\"a\",1]}",
        "{\"id\":1,\"place\":[]}",
        "{\"id\":1,\"place\":{\"y\":1}}",
        "{\"id\":1,\"path\":[{\"x\":1},{\"x\":null}]}",
        "{\"id\":1,\"labels\":[[\"a\",\"b\"]]}",
        "{\"id\":1,\"labels\":{\"a\":\"b\"}}",
        "{\"id\":1,\"byCode\":{\"1\":\"a\"}}",
        "{\"id\":1,\"byCode\":[[1]]}",
        "{\"id\":1,\"byCode\":[[1,\"a\",2]]}",
        "{\"id\":1,\"byCode\":[[\"1\",\"a\"]]}",
        "{\"id\":1,\"byCode\":[null]}",
        "{\"id\":1,\"byCode\":[[1,null]]}",
        "{\"id\":1,\"clock\":-1}",
        "{\"id\":1,\"clock\":86400001}",
        "{\"id\":1,\"ratio\":\"NaN\"}",
        "[]",
        "7",
        "null",
        "",
    })
    void aValueThatDoesNotFitFailsAsBeforeNamingItsFieldNotItsValue(String text) {
        String message = assertFailsAsTwoStep(REQUIRED_ROW, utf8(text));
        assertFalse(message.contains("secret"), message);
    }

    @Test
    void theFieldNamedIsTheFirstThatDoesNotFitInSchemaOrder() {
        String message = assertFailsAsTwoStep(ROW, utf8("{\"qty\":\"x\",\"id\":\"y\"}"));
        assertTrue(message.contains("'id'"), message);
        message = assertFailsAsTwoStep(ROW, utf8("{\"id\":1,\"place\":{\"y\":\"1\",\"x\":1}}"));
        assertTrue(message.contains("'place.y'"), message);
        message = assertFailsAsTwoStep(ROW, utf8("{\"id\":1,\"path\":[{\"x\":1},{\"x\":\"1\"}]}"));
        assertTrue(message.contains("'path[1].x'"), message);
        message = assertFailsAsTwoStep(ROW, utf8("{\"id\":1,\"byCode\":[[1,\"a\"],[2,3]]}"));
        assertTrue(message.contains("'byCode[1].value'"), message);
    }

    private static Schema required(Schema struct) {
        SchemaBuilder b = SchemaBuilder.struct().name(struct.name());
        struct.fields().forEach(f -> b.field(f.name(), f.schema()));
        return b.build();
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "{\"id\":1}",
        "{\"id\":1,\"name\":null,\"tags\":null,\"place\":null}",
        "{\"place\":{\"y\":2,\"x\":1},\"id\":1,\"unknown\":{\"a\":[1,2,{\"b\":\"c\"}]},\"qty\":3}",
        "{\"id\":1,\"id\":2}",
        "{\"id\":1.9,\"tiny\":300,\"small\":-70000,\"qty\":1e10,\"ratio\":16777217,\"score\":12}",
        "{\"id\":1e30,\"tiny\":-1.5e3,\"small\":4.0e9,\"qty\":-1e-400}",
        "{\"id\":123456789012345678901234567890,\"qty\":-9223372036854775809}",
        "{\"id\":007,\"score\":-0.0,\"ratio\":-1e-400}",
        "{\"id\":1,\"score\":1e400,\"ratio\":-1e400}",
        "{\"id\":1,\"score\":0.1000000000000000055511151231257827021181583404541015625}",
        "{\"id\":1,\"whole\":5,\"price\":-5}",
        "{\"id\":1,\"whole\":123456789012345678901234567890}",
        "{\"id\":1,\"labels\":{\"a\":1,\"a\":2,\"b\":null}}",
        "{\"id\":1,\"byCode\":[[1,\"a\"],[1,\"b\"]]}",
        "{\"id\":1} trailing",
        "{\"id\":1}}",
        "{\"id\":1,\"blob\":\"AA==\",\"price\":\"AA==\"}",
        "{\"id\":1,\"blob\":\"\"}",
        "{\"id\":1,\"blob\":\"AAE\"}",
        "{\"id\":1,\"labels\":[],\"byCode\":[]}",
        "{\"id\":1,\"labels\":[[\"a\",1],[\"b\",null]]}",
    })
    void awkwardButValidJsonReadsAsTheTwoStepPathReadsIt(String text) {
        assertReadsAsTwoStep(ROW, utf8(text));
    }

    @Test
    void aDuplicateFieldWhoseFirstValueDoesNotFitIsReadTheSlowWayAsJsonConverterKeepsTheLast() {
        byte[] json = utf8("{\"id\":\"x\",\"id\":2}");
        assertThrows(RuntimeException.class, () -> SchemalessJson.typed(ROW, json));
        assertEquals(twoStep(ROW, json), SchemalessJson.read(ROW, json));
    }

    @Test
    void valuesOtherThanStructsAreReadToo() {
        assertReadsAsTwoStep(Schema.INT32_SCHEMA, utf8("-5"));
        assertReadsAsTwoStep(Timestamp.SCHEMA, utf8("1733000000123"));
        assertReadsAsTwoStep(Schema.OPTIONAL_STRING_SCHEMA, utf8("null"));
        assertReadsAsTwoStep(Schema.OPTIONAL_STRING_SCHEMA, new byte[0]);
        assertNull(SchemalessJson.read(Schema.OPTIONAL_STRING_SCHEMA, null));
        assertReadsAsTwoStep(Schema.STRING_SCHEMA, utf8("\"😀\""));
        assertReadsAsTwoStep(Schema.BYTES_SCHEMA, utf8("\"AAH/\""));
        assertReadsAsTwoStep(SchemaBuilder.array(POINT).build(), utf8("[{\"x\":1},null,{\"x\":2,\"y\":3}]"));
        assertReadsAsTwoStep(SchemaBuilder.map(Schema.STRING_SCHEMA, POINT).build(), utf8("{\"a\":{\"x\":1},\"b\":null}"));
        assertReadsAsTwoStep(SchemaBuilder.map(Schema.INT64_SCHEMA, SchemaBuilder.array(Schema.INT8_SCHEMA).build())
                .build(), utf8("[[1,[1,2]],[-1,[]]]"));
        assertReadsAsTwoStep(SchemaBuilder.map(Decimal.schema(1), Schema.BOOLEAN_SCHEMA).build(),
                utf8("{\"AQ==\":true}"));
        byte[] keyed = utf8("{\"AQ==\":true}");
        Map<?, ?> m = (Map<?, ?>) SchemalessJson.read(SchemaBuilder.map(Schema.BYTES_SCHEMA, Schema.BOOLEAN_SCHEMA)
                .build(), keyed);
        assertArrayEquals(new byte[] {1}, (byte[]) m.keySet().iterator().next());
        assertFailsAsTwoStep(Schema.INT32_SCHEMA, utf8("\"5\""));
        assertFailsAsTwoStep(SchemaBuilder.map(Schema.INT32_SCHEMA, Schema.STRING_SCHEMA).build(), utf8("{\"1\":\"a\"}"));
    }

    @Test
    void controlEventsReadUntypedAsJsonConverterReadsThem() {
        for (String text : List.of("{\"a\":1,\"b\":[1,2.5,\"x\",true,false,null,{}],\"c\":{\"d\":-0.0}}",
                "[[1,\"a\"],[2,\"b\"]]", "123456789012345678901234567890", "-1e-400", "1e400", "007", "\"😀\"",
                "null", "", "{\"a\":1,\"a\":2} trailing", "0.1", "-0")) {
            Object expected = converted(utf8(text));
            Object actual = SchemalessJson.readUntyped(utf8(text));
            assertEquals(expected, actual, text);
            assertEquals(expected == null ? null : expected.getClass(), actual == null ? null : actual.getClass());
        }
        assertNull(SchemalessJson.readUntyped(null));
    }

    @ParameterizedTest
    @ValueSource(strings = {"{", "{\"id\":}", "{\"id\":1,}", "[1,", "{\"id\":tru}", "{\"id\":\"x}", "nul", "{'id':1}"})
    void malformedJsonIsAnIllegalArgumentWithTheParsersMessage(String text) {
        assertThrows(org.apache.kafka.connect.errors.DataException.class, () -> converted(utf8(text)));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SchemalessJson.read(ROW, utf8(text)));
        assertTrue(e.getMessage().startsWith("Schemaless value is not valid JSON: "), e.getMessage());
        assertInstanceOf(com.fasterxml.jackson.core.JsonProcessingException.class, e.getCause());
        assertThrows(IllegalArgumentException.class, () -> SchemalessJson.readUntyped(utf8(text)));
        assertThrows(IllegalArgumentException.class, () -> SchemalessJson.readRows(ROWS, utf8(text)));
    }

    @Test
    void bytesInsideStructsCompareByContent() {
        Struct row = full(1);
        Struct back = SchemalessJson.readStruct(ROW, write(ROW, row, "BASE64"));
        assertTrue(Arrays.equals((byte[]) row.get("blob"), (byte[]) back.get("blob")));
        assertEquals(row, back);
    }
}
