package io.vstream.connect.testsupport.connect;

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
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.json.JsonConverter;
import org.apache.kafka.connect.util.clusters.EmbeddedKafkaCluster;

/**
 * Reads whole topics of the embedded Kafka as a consumer application does (optionally {@code read_committed}), and
 * decodes JSON-converted records back into Connect values with their headers.
 */
public final class TopicReader {
    private final EmbeddedKafkaCluster kafka;

    TopicReader(EmbeddedKafkaCluster kafka) {
        this.kafka = kafka;
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
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, readCommitted ? "read_committed" : "read_uncommitted");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "5000");
        JsonConverter keys = converter(true);
        JsonConverter values = converter(false);
        List<Decoded> out = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = kafka.createConsumer(props)) {
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
                    out.add(new Decoded(r.topic(), r.offset(), keys.toConnectData(topic, r.key()),
                            values.toConnectData(topic, r.value()), headers));
                }
            }
        }
        return out;
    }

    private static JsonConverter converter(boolean isKey) {
        JsonConverter c = new JsonConverter();
        c.configure(Map.of("schemas.enable", "true", "decimal.format", "NUMERIC"), isKey);
        return c;
    }
}
