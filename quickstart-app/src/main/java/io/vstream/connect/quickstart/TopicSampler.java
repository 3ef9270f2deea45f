package io.vstream.connect.quickstart;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Looks into a shard's topic as a consumer does: how many records it holds, and the first row change event, shortened
 * to its table, operation and after image. Reads Kafka only.
 */
final class TopicSampler implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final KafkaConsumer<String, String> consumer;

    TopicSampler(String bootstrapServers) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        p.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, "false");
        p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "200");
        consumer = new KafkaConsumer<>(p, new StringDeserializer(), new StringDeserializer());
    }

    /** Records in the topic's single partition (0 if it does not exist yet). */
    long count(String topic) {
        if (consumer.partitionsFor(topic, Duration.ofSeconds(5)).isEmpty()) {
            return 0;
        }
        TopicPartition tp = new TopicPartition(topic, 0);
        Map<TopicPartition, Long> end = consumer.endOffsets(List.of(tp));
        Map<TopicPartition, Long> start = consumer.beginningOffsets(List.of(tp));
        return end.get(tp) - start.get(tp);
    }

    /** The first row change event of the topic, e.g. {@code corder c {"order_id":..}}; null if none within 5 s. */
    String firstRowEvent(String topic) {
        TopicPartition tp = new TopicPartition(topic, 0);
        consumer.assign(List.of(tp));
        consumer.seekToBeginning(List.of(tp));
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (System.nanoTime() < deadline) {
            for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(300))) {
                try {
                    JsonNode v = r.value() == null ? null : JSON.readTree(r.value()).path("payload");
                    if (v != null && v.has("op")) {
                        return v.path("source").path("table").asText() + " op=" + v.path("op").asText() + " after="
                                + v.path("after") + " gtid=" + v.path("source").path("gtid").asText();
                    }
                } catch (IOException e) {
                    // not JSON: skip
                }
            }
        }
        return null;
    }

    @Override
    public void close() {
        consumer.close(CloseOptions.timeout(Duration.ofSeconds(2)));
    }
}
