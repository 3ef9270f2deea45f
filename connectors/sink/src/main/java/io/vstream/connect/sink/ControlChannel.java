package io.vstream.connect.sink;

import io.vstream.connect.core.protocol.ControlTable;
import java.sql.Connection;
import java.sql.SQLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One applier's side of the control channel on its target: reads the coordinator's command for the stream (in a
 * reshard also its lane's row, {@link #lane}), records a failure the coordinator must see, and writes the
 * acknowledgement in the applier's own transaction, so that it says the position the target holds once that commits.
 * Reads through an autocommit connection of its own (it sees the latest command), which the applier also uses to keep
 * its row schemas. Touches the target's {@code control} table ({@link ControlStore}).
 */
final class ControlChannel {
    private static final Logger LOG = LoggerFactory.getLogger(ControlChannel.class);

    private final SinkSettings settings;
    private final TargetConnections connections;
    private final String source; // topic-partition, for messages
    private ControlStore store;
    private Connection conn; // autocommit: sees the coordinator's latest command

    ControlChannel(SinkSettings settings, TargetConnections connections, String topic, int partition) {
        this.settings = settings;
        this.connections = connections;
        this.source = topic + "-" + partition;
        this.store = new ControlStore(settings.stateDatabase(), settings.stream());
    }

    /** Reshard: also obeys (and acknowledges in) the row of the lane from {@code sourceShard}. */
    void lane(String sourceShard) {
        store = new ControlStore(settings.stateDatabase(), settings.stream(),
                ControlTable.laneKey(settings.stream(), sourceShard));
    }

    /** The command stored on the target, without putting it in force. */
    ControlStore.Control read() throws SQLException {
        return store.read(connection());
    }

    /** Records a failure the coordinator must see; a target that cannot take it is logged, not thrown. */
    void fail(String reason) {
        try {
            store.fail(connection(), reason);
        } catch (SQLException e) {
            LOG.warn("{}: cannot record the failure for the coordinator ({})", source, e.toString());
        }
    }

    /**
     * Writes {@code ack} of the command {@code inForce} in {@code txn}'s open transaction (the caller commits it);
     * {@code written} is the last transaction the applier wrote, named when the stop position came after it.
     */
    void acknowledge(Connection txn, ControlStore.Control inForce, StopGate.Ack ack, String written)
            throws SQLException {
        if (ack.command().equals(ControlStore.PASSED_STOP)) {
            LOG.warn("{}: the stop position {} came after this applier had written transaction {}, which it does"
                    + " not contain: acknowledged as passed, so the coordinator takes a new position", source,
                    inForce.stopAt(), written);
            store.acknowledgePassedStop(txn, ack.position());
        } else {
            store.acknowledge(txn, inForce.command(), ack.position());
        }
    }

    /** The autocommit connection of the channel, opened (again) when needed. */
    Connection connection() throws SQLException {
        if (conn == null || !conn.isValid(2)) {
            close();
            conn = connections.open();
            conn.setAutoCommit(true);
            ControlStore.ensure(conn, settings.stateDatabase());
        }
        return conn;
    }

    void close() {
        if (conn != null) {
            try {
                conn.close();
            } catch (SQLException e) {
                // closing anyway
            }
            conn = null;
        }
    }
}
