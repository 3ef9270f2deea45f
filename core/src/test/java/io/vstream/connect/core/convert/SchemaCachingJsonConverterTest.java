package io.vstream.connect.core.convert;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vstream.connect.core.event.RowEnvelope;
import io.vstream.connect.core.event.SourceInfo;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.kafka.connect.data.Date;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Time;
import org.apache.kafka.connect.data.Timestamp;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.json.JsonConverter;
import org.junit.jupiter.api.Test;

/** Every record must come out as Kafka's JsonConverter writes it, byte for byte, also once the checks have stopped. */
class SchemaCachingJsonConverterTest {

    private static final Schema ROW = SchemaBuilder.struct().name("ks.t.Value").optional()
            .field("i8", Schema.INT8_SCHEMA)
            .field("i16", Schema.OPTIONAL_INT16_SCHEMA)
            .field("i32", Schema.INT32_SCHEMA)
            .field("i64", Schema.OPTIONAL_INT64_SCHEMA)
            .field("f32", Schema.OPTIONAL_FLOAT32_SCHEMA)
            .field("f64", Schema.OPTIONAL_FLOAT64_SCHEMA)
            .field("flag", Schema.OPTIONAL_BOOLEAN_SCHEMA)
            .field("text", Schema.OPTIONAL_STRING_SCHEMA)
            .field("blob", Schema.OPTIONAL_BYTES_SCHEMA)
            .field("defaulted", SchemaBuilder.string().optional().defaultValue("dflt").build())
            .field("amount", Decimal.builder(2).optional().parameter("connect.decimal.precision", "12").build())
            .field("day", Date.builder().optional().build())
            .field("clock", Time.builder().optional().build())
            .field("at", Timestamp.builder().optional().build())
            .field("tags", SchemaBuilder.array(Schema.OPTIONAL_STRING_SCHEMA).optional().build())
            .field("attrs", SchemaBuilder.map(Schema.STRING_SCHEMA, Schema.OPTIONAL_INT64_SCHEMA).optional().build())
            .field("codes", SchemaBuilder.map(Schema.INT32_SCHEMA, Schema.STRING_SCHEMA).optional().build())
            .field("inner", SchemaBuilder.struct().name("inner").optional().doc("a nested struct")
                    .field("a", Schema.OPTIONAL_STRING_SCHEMA).field("b", Schema.INT32_SCHEMA).build())
            .build();

    private static final Schema ENVELOPE = RowEnvelope.schema("ks.t.Envelope", ROW);
    private static final Schema KEY = SchemaBuilder.struct().name("ks.t.Key").field("id", Schema.INT64_SCHEMA).build();

    private static final String[] TEXTS = {"", "plain", "quote \" backslash \\ slash /", "tab\tnew\nline\rret",
        "\u0000\u0001\u001f control", "é ü ß", "😀 4-byte 𝄞", "line sep \u2028 para \u2029", "<tag>&amp;'", "\ud800"};
    private static final double[] DOUBLES = {0.0, -0.0, 1.5, -2.25e-300, 1e300, Double.NaN, Double.POSITIVE_INFINITY,
        Double.NEGATIVE_INFINITY, Double.MIN_VALUE, 0.1 + 0.2, 123456789.123456789};

    @Test
    void writesEveryTypeAsJsonConverterDoes() {
        for (boolean schemas : new boolean[] {true, false}) {
            Pair pair = new Pair(Map.of("schemas.enable", String.valueOf(schemas)), false);
            Random random = new Random(42);
            for (int i = 0; i < 500; i++) {
                Struct row = row(random, i);
                pair.assertSame(ROW, row);
                pair.assertSame(ENVELOPE, envelope(row, i));
            }
            pair.assertSame(ROW, null);
            assertFalse(pair.ours.delegates(ROW), "no schema of these may fall back to JsonConverter");
            assertFalse(pair.ours.delegates(ENVELOPE));
        }
    }

    @Test
    void writesKeysAsJsonConverterDoes() {
        Pair pair = new Pair(Map.of(), true);
        for (long id : new long[] {0, -1, Long.MAX_VALUE, Long.MIN_VALUE, 42}) {
            pair.assertSame(KEY, new Struct(KEY).put("id", id));
        }
    }

    @Test
    void schemasThatAreEqualButNotTheSameObjectShareOneEnvelope() {
        Pair pair = new Pair(Map.of(), false);
        Random random = new Random(7);
        for (int i = 0; i < 40; i++) {
            Schema copy = RowEnvelope.schema("ks.t.Envelope", ROW); // a new object each time, equal to ENVELOPE
            Struct row = row(random, i);
            Struct value = new Struct(copy).put("after", row).put("source", source(i).toStruct()).put("op", "c")
                    .put("ts_ms", 1_700_000_000_000L);
            pair.assertSame(copy, value);
        }
    }

    @Test
    void primitivesAndArraysAtTheTopLevel() {
        Pair pair = new Pair(Map.of(), false);
        pair.assertSame(Schema.STRING_SCHEMA, "top 😀");
        pair.assertSame(Schema.INT64_SCHEMA, 5L);
        pair.assertSame(Schema.OPTIONAL_STRING_SCHEMA, null);
        pair.assertSame(SchemaBuilder.array(Schema.INT32_SCHEMA).build(), List.of(1, 2, 3));
        pair.assertSame(Schema.BYTES_SCHEMA, ByteBuffer.wrap("buffer".getBytes(StandardCharsets.UTF_8)));
        pair.assertSame(SchemaBuilder.int32().defaultValue(7).build(), null);
    }

    @Test
    void theSameErrorsAsJsonConverter() {
        Pair pair = new Pair(Map.of(), false);
        Struct row = row(new Random(1), 1);
        for (int i = 0; i < SchemaCachingJsonConverter.CHECKED_RECORDS + 2; i++) {
            pair.assertSame(ROW, row);
        }
        Struct wrongType = new Struct(KEY).put("id", 1L);
        assertThrows(DataException.class, () -> pair.reference.fromConnectData("t", ROW, wrongType));
        assertThrows(DataException.class, () -> pair.ours.fromConnectData("t", ROW, wrongType));
        Schema required = SchemaBuilder.struct().field("x", Schema.STRING_SCHEMA).build();
        Struct missing = new Struct(required);
        assertThrows(DataException.class, () -> pair.reference.fromConnectData("t", required, missing));
        assertThrows(DataException.class, () -> pair.ours.fromConnectData("t", required, missing));
    }

    @Test
    void decimalsAsNumbers() {
        Pair numeric = new Pair(Map.of("decimal.format", "NUMERIC"), false);
        Random random = new Random(9);
        for (int i = 0; i < 100; i++) {
            numeric.assertSame(ROW, row(random, i));
        }
        for (String d : new String[] {"0", "-0.01", "1E+3", "123456789012345678901234567890.12", "1e-20"}) {
            Schema decimal = Decimal.builder(new BigDecimal(d).scale()).build();
            numeric.assertSame(decimal, new BigDecimal(d));
        }
        assertFalse(numeric.ours.delegates(ROW));
    }

    @Test
    void settingsItDoesNotReproduceGoThroughJsonConverter() {
        Pair noDefaults = new Pair(Map.of("replace.null.with.default", "false"), false);
        Random random = new Random(3);
        for (int i = 0; i < 30; i++) {
            Struct row = row(random, i);
            noDefaults.assertSame(ROW, row);
        }
        Map<String, Object> schemaless = new HashMap<>();
        schemaless.put("a", 1L);
        schemaless.put("b", List.of("x", "y"));
        new Pair(Map.of("schemas.enable", "false"), false).assertSame(null, schemaless);
        assertTrue(noDefaults.ours.delegates(ROW));
    }

    @Test
    void readsAsJsonConverterDoes() {
        Pair pair = new Pair(Map.of(), false);
        Struct row = row(new Random(5), 5);
        byte[] bytes = pair.ours.fromConnectData("t", ROW, row);
        assertEquals(pair.reference.toConnectData("t", bytes), pair.ours.toConnectData("t", bytes));
    }

    private static Struct envelope(Struct row, int i) {
        Struct before = i % 3 == 0 ? null : row;
        Struct after = i % 5 == 0 ? null : row;
        return RowEnvelope.value(ENVELOPE, before, after, source(i), RowEnvelope.Op.UPDATE, 1_700_000_000_000L + i,
                i % 2 == 0 ? RowEnvelope.transaction("0-1-" + i, i, i) : null);
    }

    private static SourceInfo source(int i) {
        return new SourceInfo("cdc", "ks", "-80", "db", "t", "0-1-" + i, 1, 1_700_000_000_000L, i % 4 == 0 ? null
                : "false", i, 0);
    }

    private static Struct row(Random random, int i) {
        Struct row = new Struct(ROW)
                .put("i8", (byte) random.nextInt())
                .put("i32", i == 0 ? 0 : random.nextInt())
                .put("text", TEXTS[i % TEXTS.length]);
        if (i % 7 != 0) {
            row.put("i16", (short) random.nextInt());
            row.put("i64", random.nextLong());
            row.put("f32", i % 11 == 0 ? Float.NaN : random.nextFloat() * 1e6f - 5e5f);
            row.put("f64", DOUBLES[i % DOUBLES.length]);
            row.put("flag", random.nextBoolean());
            byte[] blob = new byte[random.nextInt(40)];
            random.nextBytes(blob);
            row.put("blob", blob);
            row.put("defaulted", i % 2 == 0 ? null : TEXTS[(i + 3) % TEXTS.length]);
            row.put("amount", new BigDecimal(BigInteger.valueOf(random.nextLong()).multiply(BigInteger.valueOf(i)), 2));
            row.put("day", new java.util.Date(86_400_000L * (random.nextInt(200_000) - 100_000)));
            row.put("clock", new java.util.Date(random.nextInt(86_400_000)));
            row.put("at", new java.util.Date(random.nextLong() % 300_000_000_000_000L));
            List<String> tags = new ArrayList<>(Arrays.asList("a", null, TEXTS[i % TEXTS.length]));
            row.put("tags", tags);
            Map<String, Long> attrs = new LinkedHashMap<>();
            attrs.put("k" + i, (long) i);
            attrs.put("nul", null);
            attrs.put("😀", -1L);
            row.put("attrs", attrs);
            Map<Integer, String> codes = new LinkedHashMap<>();
            codes.put(i, "v" + i);
            codes.put(-i - 1, "");
            row.put("codes", codes);
            row.put("inner", new Struct(ROW.field("inner").schema()).put("a", i % 2 == 0 ? null : "x").put("b", i));
        }
        return row;
    }

    /** Our converter and the reference, configured alike. */
    private static final class Pair {
        final SchemaCachingJsonConverter ours = new SchemaCachingJsonConverter();
        final JsonConverter reference = new JsonConverter();

        Pair(Map<String, String> config, boolean isKey) {
            ours.configure(config, isKey);
            reference.configure(config, isKey);
        }

        void assertSame(Schema schema, Object value) {
            byte[] expected = reference.fromConnectData("topic", schema, value);
            byte[] actual = ours.fromConnectData("topic", schema, value);
            assertArrayEquals(expected, actual, () -> "expected\n" + text(expected) + "\nbut was\n" + text(actual));
        }

        private static String text(byte[] b) {
            return b == null ? "null" : new String(b, StandardCharsets.UTF_8);
        }
    }
}
