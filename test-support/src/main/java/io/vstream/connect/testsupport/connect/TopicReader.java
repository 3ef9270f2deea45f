package io.vstream.connect.testsupport.connect;

import io.vstream.connect.core.event.ControlEvents;
import io.vstream.connect.core.event.CopyRows;
import io.vstream.connect.core.event.EventHeaders;
import io.vstream.connect.core.event.EventType;
import io.vstream.connect.core.event.RowEnvelope;
import io.vstream.connect.core.event.SchemaJson;
import io.vstream.connect.core.event.SchemalessValues;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.json.JsonConverter;
import org.apache.kafka.connect.util.clusters.EmbeddedKafkaCluster;

/**
 * Reads whole topics of a Kafka cluster (the embedded one, or a broker process) as a consumer application does
 * (optionally {@code read_committed}), and decodes JSON-converted records back into Connect values with their headers.
 */
public final class TopicReader {
    private final String bootstrapServers;

    TopicReader(EmbeddedKafkaCluster kafka) {
        this(kafka.bootstrapServers());
    }

    private TopicReader(String bootstrapServers) {
        this.bootstrapServers = bootstrapServers;
    }

    /** A reader of the Kafka cluster at {@code bootstrapServers}. */
    public static TopicReader at(String bootstrapServers) {
        return new TopicReader(bootstrapServers);
    }

    /** One decoded record. */
    public record Decoded(String topic, long offset, SchemaAndValue key, SchemaAndValue value,
                          Map<String, String> headers) {
        public String header(String name) {
            return headers.get(name);
        }
    }

    /** Every record of partition 0 of {@code topic} from the beginning to its current end. */
    public List<Decoded> readAll(String topic, boolean readCommitted) {
        Map<String, Object> props = new HashMap<>();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, readCommitted ? "read_committed" : "read_uncommitted");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "5000");
        JsonConverter keys = converter(true, true);
        JsonConverter values = converter(false, true);
        JsonConverter keysSchemaless = converter(true, false);
        JsonConverter valuesSchemaless = converter(false, false);
        List<Decoded> out = new ArrayList<>();
        Map<String, Schema> rowSchemas = new HashMap<>(); // compact records: each table's, from its last FIELD
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props,
                new org.apache.kafka.common.serialization.ByteArrayDeserializer(),
                new org.apache.kafka.common.serialization.ByteArrayDeserializer())) {
            TopicPartition tp = new TopicPartition(topic, 0);
            consumer.assign(List.of(tp));
            consumer.seekToBeginning(List.of(tp));
            long end = consumer.endOffsets(List.of(tp)).get(tp);
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (consumer.position(tp) < end) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("Could not read " + topic + " to offset " + end);
                }
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(500))) {
                    Map<String, String> headers = new HashMap<>();
                    for (Header h : r.headers()) {
                        headers.put(h.key(), h.value() == null ? null : new String(h.value(),
                                java.nio.charset.StandardCharsets.UTF_8));
                    }
                    out.add(new Decoded(r.topic(), r.offset(), decode(keys, keysSchemaless, topic, r.key()),
                            typed(decode(values, valuesSchemaless, topic, r.value()), headers, rowSchemas), headers));
                }
            }
        }
        return out;
    }

    /**
     * A record as its converter wrote it: with its schema (the worker's default), or without (the compact format of the
     * workflow configs: a map, see docs/sink.md) when it carries none.
     */
    private static SchemaAndValue decode(JsonConverter withSchemas, JsonConverter schemaless, String topic,
                                         byte[] bytes) {
        try {
            return withSchemas.toConnectData(topic, bytes);
        } catch (org.apache.kafka.connect.errors.DataException e) {
            return schemaless.toConnectData(topic, bytes);
        }
    }

    /**
     * A compact record's value typed as the sink types it (docs/sink.md, "Record format"): a control event by its
     * fixed schema, a ROW (and a ROWS) by the row schema of its table's last FIELD record read before it; other values (and records
     * of other shapes, e.g. the keyspace topic's) as they are.
     */
    /** The key under which a table's ROWS schema is kept beside its ROW envelope schema. */
    private static final String ROWS_OF = "rows:";

    private static SchemaAndValue typed(SchemaAndValue value, Map<String, String> headers,
                                        Map<String, Schema> rowSchemas) {
        EventType type = EventType.fromHeader(headers.get(EventHeaders.EVENT));
        if (!(value.value() instanceof Map<?, ?> map) || type == null) {
            return value;
        }
        Schema schema = type == EventType.ROW ? rowSchemas.get(headers.get(EventHeaders.TABLE))
                : type == EventType.ROWS ? rowSchemas.get(ROWS_OF + headers.get(EventHeaders.TABLE))
                : ControlEvents.schemaOf(type);
        if (schema == null) {
            return value;
        }
        Struct struct;
        try {
            struct = SchemalessValues.toStruct(schema, map);
        } catch (IllegalArgumentException | org.apache.kafka.connect.errors.DataException e) {
            return value; // not a shard log's record (the keyspace topic's records have the topology's shape)
        }
        if (type == EventType.FIELD && struct.getString("row_schema") != null) {
            Schema row = SchemaJson.read(struct.getString("row_schema"));
            rowSchemas.put(struct.getString("table"), RowEnvelope.schema("compact", row));
            rowSchemas.put(ROWS_OF + struct.getString("table"), CopyRows.schema("compact.Rows", row));
        }
        return new SchemaAndValue(schema, struct);
    }

    private static JsonConverter converter(boolean isKey, boolean schemas) {
        JsonConverter c = new JsonConverter();
        c.configure(Map.of("schemas.enable", String.valueOf(schemas), "decimal.format", "NUMERIC"), isKey);
        return c;
    }
}
