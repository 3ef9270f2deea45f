package io.vstream.connect.sink;

import java.sql.SQLException;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * What the sink task drives for one assigned Kafka partition (one source shard's log): a {@link PartitionApplier}
 * into one target, or a {@link ReshardApplier} into every new shard the source shard overlaps. The task only runs
 * the lifecycle (open, apply, abort, control, close); the appliers hold the state and touch the target servers.
 */
interface Applier extends AutoCloseable {
    /** Connects and loads what the target(s) hold; returns the Kafka offset to resume after, or -1. */
    long open() throws SQLException;

    /** The last Kafka offset every target holds (-1: some target holds nothing). */
    long appliedOffset();

    /** The source position the target(s) hold (the least advanced target's), or null. */
    String position();

    String topic();

    int partition();

    /**
     * Applies one record; false when the control stops the applier before it (it must come again).
     *
     * @throws SQLException for the caller to classify (retriable or fatal)
     */
    boolean apply(SinkRecord record, PoisonHandler poison) throws SQLException;

    /**
     * Commits what was applied since the last commit (the sink groups a batch's transactions into one commit); the
     * task calls it at the end of each batch and before it stops the partition.
     */
    void flush() throws SQLException;

    /**
     * Drops all uncommitted work (after a failure), including transactions applied since the last {@link #flush()}:
     * the caller must {@link #open()} again (which reloads what the target holds) before applying more.
     */
    void abort();

    /** After a fatal error in a batch: re-apply one statement at a time until the next commit, to find the record. */
    void serialMode(boolean on);

    boolean serial();

    /** Reads the coordinator's command (see {@link ControlStore}) and makes it the one in force. */
    ControlStore.Control readControl() throws SQLException;

    ControlStore.Control control();

    /** Whether the applier has reached what the control asks (and so should stop and acknowledge). */
    boolean holdsStopPoint();

    /** Acknowledges the control in force with the exact position held. */
    void acknowledge() throws SQLException;

    /** Records a failure the coordinator must see. */
    void reportFailure(String reason);

    long rowsApplied();

    /** Round trips that wrote rows (a multi-row INSERT, a JDBC batch); with {@link #writeRows()}, the batch size. */
    long writeStatements();

    /** The rows those round trips carried. */
    long writeRows();

    long transactionsApplied();

    long lagMs();

    @Override
    void close();

    /** Where a record that cannot be applied goes when a dead letter queue is configured. */
    interface PoisonHandler {
        void report(SinkRecord record, Throwable error);
    }
}
