package io.vstream.connect.source;

/** The JMX view of one shard's stream ({@code io.vstream.connect:type=source,connector=...,shard=...}). */
public interface StreamMetricsMXBean {
    long getBinlogEvents();

    long getRowEvents();

    long getTransactions();

    /** Milliseconds between the last processed event's commit time on the server and now. */
    long getLagMs();

    String getLastPosition();

    /** Rows emitted by the copy phase since the task started. */
    long getCopyRows();

    /** The table being copied, or empty. */
    String getCopyTable();

    /** The server's estimate of the rows of the table being copied. */
    long getCopyTableEstimatedRows();
}
