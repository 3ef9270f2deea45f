package io.vstream.connect.quickstart;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.vstream.connect.local.Sleeper;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Follows a workflow on the coordinator's status topic, as any consumer can: the latest status record (state, reason,
 * lag, tables still copying, attempts), the states in the order they came, and when the cut-over began (the
 * {@code ts_ms} of the first CUTTING_OVER record, written before any table is locked). Reads Kafka only.
 */
final class StatusWatcher implements AutoCloseable {
    /** One status record of the workflow. */
    record Status(String state, String step, String reason, Long lagTransactions, Integer tablesCopying, int attempts,
                  long tsMs, Long lagMs) {
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    private final KafkaConsumer<String, String> consumer;
    private final String topic;
    private final String workflow;
    private final Thread thread;
    private final List<String> states = new ArrayList<>();
    private volatile Status latest;
    private volatile long cutOverStartMs;
    private volatile boolean running = true;

    StatusWatcher(String bootstrapServers, String topic, String workflow) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        p.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, "false");
        this.consumer = new KafkaConsumer<>(p, new StringDeserializer(), new StringDeserializer());
        this.topic = topic;
        this.workflow = workflow;
        this.thread = new Thread(this::follow, "status-watcher");
        thread.setDaemon(true);
        thread.start();
    }

    Status latest() {
        return latest;
    }

    synchronized List<String> states() {
        return List.copyOf(states);
    }

    /** The epoch millis at which the cut-over began, 0 before. */
    long cutOverStartMs() {
        return cutOverStartMs;
    }

    /**
     * Reads the status topic until closed. A slow broker (a metadata or fetch timeout, common on a loaded machine) is
     * waited out: the watcher tries again rather than end, so the run never loses sight of the workflow.
     */
    private void follow() {
        try {
            boolean assigned = false;
            while (running) {
                try {
                    if (!assigned) {
                        if (consumer.partitionsFor(topic, Duration.ofSeconds(10)).isEmpty()) {
                            Sleeper.sleep(500);
                            continue;
                        }
                        consumer.assign(List.of(new TopicPartition(topic, 0)));
                        consumer.seekToBeginning(consumer.assignment());
                        assigned = true;
                    }
                    for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(500))) {
                        take(r.value());
                    }
                } catch (org.apache.kafka.common.errors.TimeoutException e) {
                    Sleeper.sleep(500); // slow metadata: try again
                }
            }
        } catch (WakeupException | IllegalStateException e) {
            // closing
        } finally {
            consumer.close(CloseOptions.timeout(Duration.ofSeconds(2)));
        }
    }

    private void take(String value) {
        if (value == null) {
            return;
        }
        JsonNode v;
        try {
            v = JSON.readTree(value).path("payload");
        } catch (IOException e) {
            return;
        }
        if (!workflow.equals(v.path("workflow").asText())) {
            return;
        }
        Status s = new Status(v.path("state").asText(), text(v, "step"), text(v, "reason"),
                v.hasNonNull("lag_transactions") ? v.get("lag_transactions").asLong() : null,
                v.hasNonNull("tables_copying") ? v.get("tables_copying").asInt() : null,
                v.path("attempts").asInt(), v.path("ts_ms").asLong(),
                v.hasNonNull("lag_ms") ? v.get("lag_ms").asLong() : null);
        synchronized (this) {
            if (states.isEmpty() || !states.get(states.size() - 1).equals(s.state())) {
                states.add(s.state());
            }
        }
        if ("CUTTING_OVER".equals(s.state()) && cutOverStartMs == 0) {
            cutOverStartMs = s.tsMs();
        }
        latest = s;
    }

    private static String text(JsonNode v, String field) {
        return v.hasNonNull(field) ? v.get(field).asText() : null;
    }

    @Override
    public void close() {
        running = false;
        consumer.wakeup();
        try {
            thread.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
