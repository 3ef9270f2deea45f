package io.vstream.connect.bench;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vstream.connect.core.convert.SchemaCachingJsonConverter;
import io.vstream.connect.core.event.RowEnvelope;
import io.vstream.connect.core.event.SourceInfo;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Timestamp;
import org.apache.kafka.connect.json.JsonConverter;
import org.apache.kafka.connect.storage.Converter;

/**
 * What a record format costs per record, in this JVM, without Kafka: each candidate converter a Connect user can deploy
 * writes the same CDC change events (the cdc scenario's table, Debezium's envelope with our {@code source} block, inserts
 * and updates as its load writes them) and reads its own bytes back; the time per record (median of passes), the bytes
 * per record, and the ratio to Kafka's JsonConverter with schemas, the worker default. The converter's work runs on the
 * one task thread of a source (writing) or sink (reading) task, so these times bound a shard's rate. No peer: a table.
 */
final class FormatCosts {
    private static final int RECORDS = 10_000;
    private static final int PASS = 100_000;
    private static final int WARMUP_PASSES = 4;
    private static final int PASSES = 7;

    /** One format: its name, how it is configured, and its measured costs. */
    record Row(String format, String config, double writeNs, double readNs, double bytes) {
    }

    private final List<Row> rows = new ArrayList<>();
    private long blackhole; // what the passes computed, kept so that no work can be left out

    /** Measures every candidate; one after the other in this thread. */
    FormatCosts run() {
        List<Struct> values = changeEvents();
        Schema schema = values.get(0).schema();
        measure("JsonConverter, schemas (worker default)", JsonConverter::new, Map.of("schemas.enable", "true"),
                schema, values, true);
        measure("SchemaCachingJsonConverter, schemas (cdc-source.json)", SchemaCachingJsonConverter::new,
                Map.of("schemas.enable", "true", "decimal.format", "NUMERIC"), schema, values, false);
        measure("JsonConverter, schemas, decimal.format=NUMERIC", JsonConverter::new,
                Map.of("schemas.enable", "true", "decimal.format", "NUMERIC"), schema, values, true);
        measure("JsonConverter, no schemas", JsonConverter::new, Map.of("schemas.enable", "false"), schema, values,
                true);
        measure("SchemaCachingJsonConverter, no schemas (workflow sources)", SchemaCachingJsonConverter::new,
                Map.of("schemas.enable", "false"), schema, values, false);
        return this;
    }

    private void measure(String name, Supplier<Converter> make, Map<String, String> config, Schema schema,
                         List<Struct> values, boolean reads) {
        Converter converter = make.get();
        converter.configure(config, false);
        byte[][] written = new byte[RECORDS][];
        long bytes = 0;
        for (int i = 0; i < RECORDS; i++) {
            written[i] = converter.fromConnectData("bench.commerce.-", schema, values.get(i));
            bytes += written[i].length;
        }
        double[] write = new double[PASSES];
        double[] read = new double[PASSES];
        for (int p = -WARMUP_PASSES; p < PASSES; p++) {
            long t0 = System.nanoTime();
            long sink = 0;
            for (int i = 0; i < PASS; i++) {
                sink += converter.fromConnectData("bench.commerce.-", schema, values.get(i % RECORDS)).length;
            }
            long t1 = System.nanoTime();
            if (reads) {
                for (int i = 0; i < PASS; i++) {
                    sink += converter.toConnectData("bench.commerce.-", written[i % RECORDS]).value() == null ? 0 : 1;
                }
            }
            long t2 = System.nanoTime();
            blackhole += sink;
            if (p >= 0) {
                write[p] = (t1 - t0) / (double) PASS;
                read[p] = (t2 - t1) / (double) PASS;
            }
        }
        Row row = new Row(name, describe(config), median(write), reads ? median(read) : Double.NaN,
                bytes / (double) RECORDS);
        rows.add(row);
        Bench.say(String.format(Locale.ROOT, "formats: %s: write %.2f us, read %s, %.0f bytes per record", name,
                row.writeNs() / 1000, reads ? String.format(Locale.ROOT, "%.2f us", row.readNs() / 1000)
                        : "JsonConverter's", row.bytes()));
    }

    /** The cdc scenario's rows as change events: four inserts to one update of the row before, as its load writes. */
    private static List<Struct> changeEvents() {
        Schema row = SchemaBuilder.struct().name("bench.commerce.orders.Value").optional()
                .field("id", Schema.INT64_SCHEMA)
                .field("customer", Schema.STRING_SCHEMA)
                .field("amount", Decimal.builder(2).parameter("connect.decimal.precision", "12").build())
                .field("qty", Schema.INT32_SCHEMA)
                .field("created_at", Timestamp.builder().build())
                .field("note", Schema.OPTIONAL_STRING_SCHEMA)
                .field("status", Schema.STRING_SCHEMA)
                .build();
        Schema envelope = RowEnvelope.schema("bench.commerce.orders.Envelope", row);
        List<Struct> out = new ArrayList<>(RECORDS);
        Struct previous = null;
        for (int i = 0; i < RECORDS; i++) {
            Struct after = new Struct(row).put("id", 1_000_000L + i).put("customer", "customer-" + (i % 997))
                    .put("amount", BigDecimal.valueOf(10_000 + i * 37L, 2)).put("qty", i % 50)
                    .put("created_at", new java.util.Date(1_700_000_000_000L + i * 1_000L))
                    .put("note", i % 7 == 0 ? null : "note " + i + " for the order").put("status", "NEW");
            boolean update = i % 5 == 4 && previous != null;
            SourceInfo source = new SourceInfo("bench-cdc", "commerce", "-", "cdc_1", "orders", "0-1-" + (i / 100),
                    1, 1_700_000_000_000L + i, "false", i % 100, 0);
            out.add(RowEnvelope.value(envelope, update ? previous : null, after, source,
                    update ? RowEnvelope.Op.UPDATE : RowEnvelope.Op.CREATE, 1_700_000_000_000L + i,
                    RowEnvelope.transaction("0-1-" + (i / 100), i % 100 + 1, i % 100 + 1)));
            previous = after;
        }
        return out;
    }

    private static String describe(Map<String, String> config) {
        return config.entrySet().stream().sorted(Map.Entry.comparingByKey())
                .map(e -> "value.converter." + e.getKey() + "=" + e.getValue()).reduce((a, b) -> a + ", " + b)
                .orElse("");
    }

    private static double median(double[] xs) {
        double[] s = xs.clone();
        Arrays.sort(s);
        return s[s.length / 2];
    }

    void markdown(StringBuilder o) {
        o.append("## formats: what a record format costs per change event\n\n");
        o.append(String.format(Locale.ROOT, "In the benchmark's JVM, no Kafka: %,d distinct CDC change events of the cdc"
                + " scenario's table (Debezium's envelope, our source block, 4 inserts to 1 update), each converter"
                + " writing %,d records a pass and reading back what it wrote, %d warm-up passes, the median of %d;"
                + " one thread. Reading through SchemaCachingJsonConverter is JsonConverter's own (it delegates). The"
                + " Avro converter needs a registry process and is not measured here (AvroRegistryIT runs it:"
                + " docs/avro.md).\n\n", RECORDS, PASS, WARMUP_PASSES, PASSES));
        o.append("| format | write, per record | of JsonConverter with schemas | read, per record | bytes per record |\n");
        o.append("|---|---|---|---|---|\n");
        double base = rows.isEmpty() ? Double.NaN : rows.get(0).writeNs();
        for (Row r : rows) {
            o.append(String.format(Locale.ROOT, "| %s | %.2f us | %.2fx | %s | %,.0f |\n", r.format(),
                    r.writeNs() / 1000, r.writeNs() / base,
                    Double.isNaN(r.readNs()) ? "as JsonConverter" : String.format(Locale.ROOT, "%.2f us",
                            r.readNs() / 1000), r.bytes()));
        }
        o.append('\n');
    }

    void json(ObjectNode root) {
        ArrayNode arr = root.putObject("formats").putArray("rows");
        for (Row r : rows) {
            ObjectNode n = arr.addObject().put("format", r.format()).put("config", r.config())
                    .put("write_ns_per_record", r.writeNs()).put("bytes_per_record", r.bytes());
            if (!Double.isNaN(r.readNs())) {
                n.put("read_ns_per_record", r.readNs());
            }
        }
    }
}
