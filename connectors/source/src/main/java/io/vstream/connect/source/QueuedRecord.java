package io.vstream.connect.source;

import org.apache.kafka.connect.source.SourceRecord;

/**
 * One entry of a shard's queue between its binlog reader and the task's poll(): a record, whether it ends a source
 * transaction (a point where the task may switch shards and commit a Kafka transaction), or an abort marker that
 * says the records since the last boundary belong to a transaction the reader will replay from its start.
 */
record QueuedRecord(SourceRecord record, boolean boundary, boolean abort) {
    static QueuedRecord inTransaction(SourceRecord r) {
        return new QueuedRecord(r, false, false);
    }

    static QueuedRecord boundary(SourceRecord r) {
        return new QueuedRecord(r, true, false);
    }

    static QueuedRecord abortMarker() {
        return new QueuedRecord(null, true, true);
    }
}
