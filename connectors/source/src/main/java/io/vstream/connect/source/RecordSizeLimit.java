package io.vstream.connect.source;

import java.nio.ByteBuffer;
import java.util.Map;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.ConnectException;

/**
 * The largest record this connector's producer may send ({@code producer.override.max.request.size}, else Kafka's
 * default of 1 MiB), and the check that stops a row that cannot fit before it reaches the producer, with a message
 * that names the settings that lift the limit (the producer's own RecordTooLargeException names only one of them).
 * The check is a lower bound: the bytes of the row's images' strings and binary values alone, which any converter
 * writes at least once; a row just under the limit may still fail in the producer (docs/source.md, "Large rows").
 * No I/O.
 */
final class RecordSizeLimit {
    static final String PRODUCER_MAX_REQUEST_SIZE = "producer.override.max.request.size";
    static final long KAFKA_DEFAULT = 1_048_576;

    private final long maxBytes;

    RecordSizeLimit(long maxBytes) {
        this.maxBytes = maxBytes;
    }

    /** The limit the connector's configuration sets (its {@code producer.override.max.request.size}). */
    static RecordSizeLimit of(Map<String, ?> originals) {
        Object v = originals.get(PRODUCER_MAX_REQUEST_SIZE);
        if (v == null || String.valueOf(v).isBlank()) {
            return new RecordSizeLimit(KAFKA_DEFAULT);
        }
        try {
            return new RecordSizeLimit(Long.parseLong(String.valueOf(v).strip()));
        } catch (NumberFormatException e) {
            return new RecordSizeLimit(KAFKA_DEFAULT); // the worker refuses it itself, naming the key
        }
    }

    long maxBytes() {
        return maxBytes;
    }

    /**
     * Throws when the row's images certainly make a record over the limit.
     *
     * @throws ConnectException naming the shard, table and position, the size, and the settings to raise
     */
    void check(String shard, String table, String gtid, Struct before, Struct after) {
        check(shard, table, gtid, lowerBound(before) + lowerBound(after));
    }

    /** {@link #check(String, String, String, Struct, Struct)} of a row whose images' lower bound is known. */
    void check(String shard, String table, String gtid, long bytes) {
        if (bytes <= maxBytes) {
            return;
        }
        throw new ConnectException("Shard " + shard + ": a row of table " + table + (gtid == null ? " (copy)"
                : " in transaction " + gtid) + " holds at least " + bytes + " bytes, more than this connector's"
                + " producer may send (max.request.size " + maxBytes + " bytes), so it cannot be written to Kafka."
                + " The stream stops before it; nothing is lost. To carry rows this large raise, together:"
                + " producer.override.max.request.size on this connector (the worker's"
                + " connector.client.config.override.policy must allow it) and the topics' max.message.bytes"
                + " (topic.creation.default.max.message.bytes for topics Connect creates, kafka-configs --alter for"
                + " existing ones; the brokers' message.max.bytes is their default). docs/source.md, \"Large rows\","
                + " has the settings; then restart the task");
    }

    /** The bytes of the strings and binary values of {@code row} (nested structs included); 0 for null. */
    static long lowerBound(Struct row) {
        if (row == null) {
            return 0;
        }
        long n = 0;
        for (Field f : row.schema().fields()) {
            Object v = row.get(f);
            if (v instanceof byte[] b) {
                n += b.length;
            } else if (v instanceof ByteBuffer b) {
                n += b.remaining();
            } else if (v instanceof String s) {
                n += s.length();
            } else if (v instanceof Struct s) {
                n += lowerBound(s);
            }
        }
        return n;
    }
}
