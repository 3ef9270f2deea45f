package io.vstream.connect.cli;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Reads coordinators' status topics with a plain consumer (no group, nothing committed): first every record up to
 * the current end, then, for {@code --watch}, whatever arrives. Keeps each workflow's history
 * ({@link WorkflowHistory}) by the record's {@code workflow} field. Touches Kafka only.
 */
public final class StatusReader implements AutoCloseable {
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final Duration timeout;
    private final String bootstrap;
    private final Map<String, WorkflowHistory> histories = new LinkedHashMap<>();
    private final java.util.Set<String> missing = new java.util.LinkedHashSet<>();

    public StatusReader(String bootstrapServers, Properties extra, Duration timeout) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        p.put(ConsumerConfig.CLIENT_ID_CONFIG, "vsc-status");
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        p.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, "false"); // reading status never creates a topic
        p.put(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, String.valueOf(timeout.toMillis()));
        p.put(ConsumerConfig.REQUEST_TIMEOUT_MS_CONFIG, String.valueOf(Math.min(timeout.toMillis(), 30_000)));
        if (extra != null) {
            p.putAll(extra);
        }
        this.bootstrap = bootstrapServers;
        this.timeout = timeout;
        try {
            this.consumer = new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        } catch (KafkaException e) {
            throw CliException.unreachable("Kafka at " + bootstrapServers, e);
        }
    }

    /** Reads every record of {@code topics} up to their current end; a missing topic has no records. */
    public Map<String, WorkflowHistory> readAll(Collection<String> topics) {
        try {
            List<TopicPartition> parts = new ArrayList<>();
            for (String t : topics) {
                List<PartitionInfo> infos = consumer.partitionsFor(t, timeout);
                if (infos != null && !infos.isEmpty()) {
                    infos.forEach(i -> parts.add(new TopicPartition(i.topic(), i.partition())));
                } else {
                    missing.add(t); // not created yet (a coordinator creates it with its first record)
                }
            }
            consumer.assign(parts);
            if (parts.isEmpty()) {
                return histories;
            }
            consumer.seekToBeginning(parts);
            Map<TopicPartition, Long> end = new HashMap<>(consumer.endOffsets(parts, timeout));
            long deadline = System.nanoTime() + timeout.toNanos();
            while (!caughtUp(end)) {
                if (System.nanoTime() > deadline) {
                    throw slow(topics);
                }
                pollOnce(Duration.ofMillis(200));
            }
            return histories;
        } catch (TimeoutException e) {
            throw slow(topics);
        } catch (KafkaException e) {
            throw CliException.unreachable("Kafka at " + bootstrap, e);
        }
    }

    /** Kafka answered too slowly (or not at all): which of the two cannot be told apart, so say both. */
    private CliException slow(Collection<String> topics) {
        return new CliException(ExitCodes.UNREACHABLE, "Kafka at " + bootstrap + " did not answer within "
                + timeout.toMillis() + " ms while reading " + topics + ": it is slow or unreachable (raise"
                + " --timeout-ms for a slow cluster; check --bootstrap-servers and --kafka-config otherwise)");
    }

    /** Waits up to {@code wait} for new records (after {@link #readAll}); returns whether any arrived. */
    public boolean poll(Duration wait) {
        try {
            assignTopicsThatAppeared();
            if (consumer.assignment().isEmpty()) {
                sleep(wait);
                return false;
            }
            return pollOnce(wait) > 0;
        } catch (KafkaException e) {
            throw CliException.unreachable("Kafka at " + bootstrap, e);
        }
    }

    /** Reads, from their start, the status topics that did not exist at {@link #readAll} and exist now. */
    private void assignTopicsThatAppeared() {
        if (missing.isEmpty()) {
            return;
        }
        List<TopicPartition> added = new ArrayList<>();
        for (java.util.Iterator<String> it = missing.iterator(); it.hasNext(); ) {
            List<PartitionInfo> infos = consumer.partitionsFor(it.next(), timeout);
            if (infos != null && !infos.isEmpty()) {
                infos.forEach(i -> added.add(new TopicPartition(i.topic(), i.partition())));
                it.remove();
            }
        }
        if (!added.isEmpty()) {
            java.util.Set<TopicPartition> all = new java.util.HashSet<>(consumer.assignment());
            all.addAll(added);
            consumer.assign(all);
            consumer.seekToBeginning(added);
        }
    }

    public Map<String, WorkflowHistory> histories() {
        return histories;
    }

    private int pollOnce(Duration wait) {
        int n = 0;
        for (ConsumerRecord<byte[], byte[]> rec : consumer.poll(wait)) {
            StatusRecord r = StatusRecord.fromJson(rec.value());
            if (r != null) {
                histories.computeIfAbsent(r.workflow(), WorkflowHistory::new).add(r);
                n++;
            }
        }
        return n;
    }

    private boolean caughtUp(Map<TopicPartition, Long> end) {
        for (Map.Entry<TopicPartition, Long> e : end.entrySet()) {
            if (consumer.position(e.getKey(), timeout) < e.getValue()) {
                return false;
            }
        }
        return true;
    }

    private static void sleep(Duration d) {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        consumer.close(org.apache.kafka.clients.consumer.CloseOptions.timeout(Duration.ofSeconds(2)));
    }
}
