package io.vstream.connect.sink;

/**
 * The JMX view of one applied partition (one source shard):
 * {@code io.vstream.connect:type=sink,connector=...,topic=...,partition=...}. Rates (rows/s, transactions/s) are
 * the counters' derivatives, as JMX tools compute them.
 */
public interface ApplierMetricsMXBean {
    long getRowsApplied();

    long getTransactionsApplied();

    /** Milliseconds between the source commit of the last applied transaction and its apply on the target. */
    long getLagMs();

    String getAppliedPosition();

    long getAppliedOffset();

    /** Round trips that wrote rows (a multi-row INSERT, a JDBC batch): the batch size is RowsWritten / WriteStatements. */
    long getWriteStatements();

    /** The rows those round trips carried. */
    long getRowsWritten();

    /** Retriable target errors (deadlock, lock wait timeout, lost connection) this partition was retried after. */
    long getRetries();
}
