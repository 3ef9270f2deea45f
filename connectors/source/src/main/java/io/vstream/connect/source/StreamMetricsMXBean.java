package io.vstream.connect.source;

/**
 * The JMX view of one shard's stream ({@code io.vstream.connect:type=source,connector=...,keyspace=...,shard=...}).
 */
public interface StreamMetricsMXBean {
    long getBinlogEvents();

    long getRowEvents();

    long getTransactions();

    /**
     * Milliseconds between the last processed event's commit time on the server and now; 0 once the server has sent
     * a heartbeat after it (the reader is at the end of the binlog).
     */
    long getLagMs();

    /** Milliseconds since the reader received any event (the server heartbeats an idle binlog); -1 before the first. */
    long getMillisSinceLastEvent();

    /** Times the shard's connection was lost and opened again since the task started. */
    long getReconnects();

    String getLastPosition();

    /** Rows emitted by the copy phase since the task started. */
    long getCopyRows();

    /** The table being copied, or empty. */
    String getCopyTable();

    /** The server's estimate of the rows of the table being copied. */
    long getCopyTableEstimatedRows();
}
