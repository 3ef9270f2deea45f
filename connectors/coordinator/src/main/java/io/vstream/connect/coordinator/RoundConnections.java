package io.vstream.connect.coordinator;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One open connection per server that a workflow's rounds read every poll interval, kept between rounds: a round over
 * N shards used to open (and, with TLS, handshake) N connections every second (docs/scale.md). A kept connection is
 * checked before each use and replaced when it is gone; one whose use failed is dropped ({@link #discard}), so the
 * next round starts afresh. For reads and autocommit writes only: never leave a transaction or session setting on
 * it. Used by the task's thread only.
 */
final class RoundConnections implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(RoundConnections.class);
    private static final int VALID_TIMEOUT_S = 10;

    private final Map<String, Connection> open = new HashMap<>();

    /** The kept connection to {@code name}'s server, opened or replaced when there is none that answers. */
    Connection get(String name, VStreamCoordinatorConnectorConfig.Endpoint endpoint) throws SQLException {
        Connection c = open.get(name);
        if (c != null) {
            if (!c.isClosed() && c.isValid(VALID_TIMEOUT_S)) {
                return c;
            }
            discard(name);
        }
        c = Servers.open(endpoint);
        open.put(name, c);
        return c;
    }

    /** Drops (and closes) the connection to {@code name}'s server after a failure on it. */
    void discard(String name) {
        Connection c = open.remove(name);
        if (c != null) {
            try {
                c.close();
            } catch (SQLException e) {
                LOG.debug("closing the connection to {} failed", name, e);
            }
        }
    }

    @Override
    public void close() {
        for (String name : java.util.List.copyOf(open.keySet())) {
            discard(name);
        }
    }
}
