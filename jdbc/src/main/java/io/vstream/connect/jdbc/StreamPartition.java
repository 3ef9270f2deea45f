package io.vstream.connect.jdbc;

import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * One Kafka partition of an applier stream (one source shard's log into the stream's target): the key of the rows the
 * sink keeps per partition in its state database ({@link AppliedTable}, its row schemas), columns {@code stream},
 * {@code topic} and {@code kafka_partition}. Touches nothing.
 */
public record StreamPartition(String stream, String topic, int partition) {
    /** Binds the key to a statement's first three parameters, in its columns' order. */
    public void bind(PreparedStatement ps) throws SQLException {
        ps.setString(1, stream);
        ps.setString(2, topic);
        ps.setInt(3, partition);
    }
}
