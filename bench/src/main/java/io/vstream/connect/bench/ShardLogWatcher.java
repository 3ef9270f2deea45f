package io.vstream.connect.bench;

import io.vstream.connect.core.event.EventHeaders;
import io.vstream.connect.core.event.EventType;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.record.TimestampType;

/**
 * Reads one shard topic from its start, as a consumer application would, up to the record that ends a run (the COMMIT
 * of a given GTID, or COPY_COMPLETED). So as not to take CPU from the run it measures, it only watches the topic's end
 * offset until the topic holds at least the expected number of records and has stopped growing for a second, and then
 * reads it (tailing on if the end record is not there yet). It decodes no values: it counts records by their
 * {@code vstream.event} header, tells copy rows by {@code "op":"r"} in their JSON, and takes the end time from the
 * record's broker append time (the topic is created with {@code message.timestamp.type=LogAppendTime}), so when it reads
 * does not change the result. Touches only its topic.
 */
final class ShardLogWatcher implements AutoCloseable {
    private static final byte[] OP_READ = "\"op\":\"r\"".getBytes(StandardCharsets.US_ASCII);

    /** Which record ends the run. */
    interface End {
        boolean isEnd(EventType type, byte[] value);

        /** The COMMIT record of the transaction with this GTID (e.g. {@code 0-1-42}). */
        static End commitOf(String gtid) {
            byte[] needle = ("\"gtid\":\"" + gtid + "\"").getBytes(StandardCharsets.US_ASCII);
            return (type, value) -> type == EventType.COMMIT && value != null && indexOf(value, needle, false) >= 0;
        }

        /** The shard's COPY_COMPLETED record. */
        static End copyCompleted() {
            return (type, value) -> type == EventType.COPY_COMPLETED;
        }
    }

    /**
     * What the topic held up to the end record.
     *
     * @param found           whether the end record was seen
     * @param records         records read up to and including the end record
     * @param perType         records per event type
     * @param copyRows        ROW records with op {@code r}, and the rows of ROWS records
     * @param firstRowAppend  broker append time of the first ROW record (ms), or -1
     * @param endAppend       broker append time of the end record (ms), or -1
     * @param appendTimes     whether the times are broker append times (else the consumer's receive times)
     * @param rowBytes        serialized key and value bytes of the ROW and ROWS records
     * @param rowItems        rows those records carry (a ROW record one, a ROWS record its {@code vstream.rows})
     */
    record Result(boolean found, long records, Map<EventType, Long> perType, long copyRows, long firstRowAppend,
                  long endAppend, boolean appendTimes, long rowBytes, long rowItems) {
        long rows() {
            return perType.getOrDefault(EventType.ROW, 0L);
        }

        /** The average bytes of a row (key and value as serialized; a ROWS record's shared by its rows), or 0. */
        long bytesPerRow() {
            return rowItems == 0 ? 0 : rowBytes / rowItems;
        }
    }

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final TopicPartition partition;
    private final End end;
    private final boolean countCopyRows;
    private final long minRecords;
    private final Thread thread;
    private final CountDownLatch done = new CountDownLatch(1);
    private volatile boolean running = true;
    private volatile Result result;
    private volatile Throwable failure;
    private volatile long endOffset;

    // written by the tailing thread only
    private final Map<EventType, Long> perType = new EnumMap<>(EventType.class);
    private long records;
    private long copyRows;
    private long firstRowAppend = -1;
    private long rowBytes;
    private long rowItems;
    private boolean appendTimes = true;
    private final Timeline rowTimeline = new Timeline();
    private volatile long originMs;

    /**
     * @param end           which record ends the run
     * @param countCopyRows whether to look for {@code "op":"r"} in ROW records
     * @param minRecords    how many records the topic holds at least when the run is complete (reading starts then)
     */
    ShardLogWatcher(ConnectProcesses kafka, String topic, End end, boolean countCopyRows, long minRecords) {
        Map<String, Object> props = new HashMap<>();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, "false");
        props.put(ConsumerConfig.CHECK_CRCS_CONFIG, "false");
        props.put(ConsumerConfig.FETCH_MIN_BYTES_CONFIG, "65536");
        props.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, "200");
        props.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, String.valueOf(8 * 1024 * 1024));
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "10000");
        this.consumer = kafka.createConsumer(props);
        this.partition = new TopicPartition(topic, 0);
        this.end = end;
        this.countCopyRows = countCopyRows;
        this.minRecords = minRecords;
        this.thread = new Thread(this::tail, "bench-watch-" + topic);
        this.thread.setDaemon(true);
    }

    /** The time (epoch ms) the run started: the row timeline counts from it. */
    void origin(long epochMs) {
        originMs = epochMs;
    }

    /** ROW records per {@link Timeline#BUCKET_MS} by broker append time, from {@link #origin}. */
    Timeline rowTimeline() {
        return rowTimeline;
    }

    ShardLogWatcher start() {
        thread.start();
        return this;
    }

    /** Waits for the end record; returns what was read so far when the time is up (then {@code found} is false). */
    Result await(Duration timeout) throws InterruptedException {
        done.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
        Result r = result;
        if (r != null) {
            return r;
        }
        if (failure != null) {
            throw new IllegalStateException("Reading " + partition + " failed: " + failure, failure);
        }
        return null;
    }

    /** The topic's end offset last seen (for progress lines). */
    String progress() {
        return endOffset + " records in the topic";
    }

    private void tail() {
        try {
            consumer.assign(List.of(partition));
            awaitComplete();
            consumer.seekToBeginning(List.of(partition));
            while (running) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    if (accept(r)) {
                        done.countDown();
                        return;
                    }
                }
            }
        } catch (Throwable t) {
            if (running) {
                failure = t;
            }
        } finally {
            done.countDown();
        }
    }

    /**
     * The fewest records a topic holds once {@code rows} copy rows are in it: one per row, or with
     * {@code copy.rows.per.record} = N in {@code config} one per N rows (ROWS records).
     */
    static long minRecords(long rows, Map<String, String> config) {
        int perRecord = Integer.parseInt(config.getOrDefault("copy.rows.per.record", "1").strip());
        return (rows + perRecord - 1) / Math.max(1, perRecord);
    }

    /** Watches the end offset until it reaches {@code minRecords} and then stays put for a second. */
    private void awaitComplete() throws InterruptedException {
        long stableSince = 0;
        long last = -1;
        while (running) {
            long end = consumer.endOffsets(List.of(partition)).get(partition);
            endOffset = end;
            long now = System.nanoTime();
            if (end != last) {
                last = end;
                stableSince = now;
            } else if (end >= minRecords && now - stableSince >= 1_000_000_000L) {
                return;
            }
            Thread.sleep(100);
        }
    }

    /** The rows a ROWS record carries, from its {@code vstream.rows} header (Connect writes an INT32 as its text). */
    private static long rowsOf(ConsumerRecord<byte[], byte[]> r) {
        Header h = r.headers().lastHeader(EventHeaders.ROWS);
        if (h == null) {
            throw new IllegalStateException("a ROWS record without its " + EventHeaders.ROWS + " header");
        }
        return Long.parseLong(new String(h.value(), StandardCharsets.UTF_8).strip());
    }

    /** Counts one record; true when it ends the run. */
    private boolean accept(ConsumerRecord<byte[], byte[]> r) {
        records++;
        Header h = r.headers().lastHeader(EventHeaders.EVENT);
        EventType type = h == null ? null : EventType.fromHeader(new String(h.value(), StandardCharsets.UTF_8));
        if (type == null) {
            return false;
        }
        perType.merge(type, 1L, Long::sum);
        long time = r.timestampType() == TimestampType.LOG_APPEND_TIME ? r.timestamp() : System.currentTimeMillis();
        appendTimes &= r.timestampType() == TimestampType.LOG_APPEND_TIME;
        if (type == EventType.ROW || type == EventType.ROWS) {
            long n = type == EventType.ROW ? 1 : rowsOf(r);
            rowBytes += Math.max(0, r.serializedKeySize()) + Math.max(0, r.serializedValueSize());
            rowItems += n;
            if (firstRowAppend < 0) {
                firstRowAppend = time;
            }
            rowTimeline.addAtMs(time - originMs, n);
            if (countCopyRows && (type == EventType.ROWS
                    || r.value() != null && indexOf(r.value(), OP_READ, true) >= 0)) {
                copyRows += n;
            }
        }
        if (end.isEnd(type, r.value())) {
            result = new Result(true, records, Map.copyOf(perType), copyRows, firstRowAppend, time, appendTimes,
                    rowBytes, rowItems);
            return true;
        }
        return false;
    }

    /** Where {@code needle} occurs in {@code hay}, searching from the end when {@code fromEnd}; -1 when it does not. */
    static int indexOf(byte[] hay, byte[] needle, boolean fromEnd) {
        int last = hay.length - needle.length;
        if (fromEnd) {
            for (int i = last; i >= 0; i--) {
                if (matchesAt(hay, needle, i)) {
                    return i;
                }
            }
        } else {
            for (int i = 0; i <= last; i++) {
                if (matchesAt(hay, needle, i)) {
                    return i;
                }
            }
        }
        return -1;
    }

    private static boolean matchesAt(byte[] hay, byte[] needle, int at) {
        for (int j = 0; j < needle.length; j++) {
            if (hay[at + j] != needle[j]) {
                return false;
            }
        }
        return true;
    }

    /** Partial counts, when the end never came. */
    Result partial() {
        return new Result(false, records, Map.copyOf(perType), copyRows, firstRowAppend, -1, appendTimes, rowBytes,
                rowItems);
    }

    @Override
    public void close() {
        running = false;
        try {
            thread.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        consumer.close(Duration.ofSeconds(5));
    }
}
