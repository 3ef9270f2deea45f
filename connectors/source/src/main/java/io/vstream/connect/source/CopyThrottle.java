package io.vstream.connect.source;

import io.vstream.connect.core.sql.SqlIdentifiers;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Holds the copy back while a workflow's coordinator asks it to (its applier lags): before each chunk the copy looks
 * for an unexpired row of its database in {@code <throttle.state.database>.throttle} on the shard, and waits while one
 * is there, logging the coordinator's reason. The coordinator renews the row while the lag lasts, so a coordinator
 * that goes away never holds the copy back for long. Touches the shard (reads).
 */
final class CopyThrottle {
    private static final Logger LOG = LoggerFactory.getLogger(CopyThrottle.class);
    private static final long CHECK_EVERY_NANOS = 250_000_000L;

    private final String shard;
    private final String scope;
    private final String sql;
    private long nextCheck;

    CopyThrottle(String shard, String stateDatabase, String scope) {
        this.shard = shard;
        this.scope = scope;
        this.sql = "/* vstream-connect:copy */ SELECT reason FROM " + SqlIdentifiers.qualify(stateDatabase, "throttle")
                + " WHERE scope = ? AND expires_at > NOW(6)";
    }

    /** Waits while the coordinator throttles this copy; {@code conn} must see fresh data (autocommit). */
    void await(Connection conn, java.util.function.BooleanSupplier running) throws SQLException, InterruptedException {
        if (System.nanoTime() < nextCheck) {
            return;
        }
        String last = null;
        String why;
        while (running.getAsBoolean() && (why = reason(conn)) != null) {
            if (!why.equals(last)) {
                LOG.info("Shard {}: copy throttled by the coordinator: {}", shard, why);
                last = why;
            }
            Thread.sleep(250);
        }
        if (last != null) {
            LOG.info("Shard {}: copy throttle released", shard);
        }
        nextCheck = System.nanoTime() + CHECK_EVERY_NANOS;
    }

    private String reason(Connection conn) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement(sql)) {
            ps.setString(1, scope);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        } catch (SQLException e) {
            if (e.getErrorCode() == 1146 || e.getErrorCode() == 1049 || e.getErrorCode() == 1142) {
                return null; // no throttle table (no coordinator uses it), or not ours to read
            }
            throw e;
        }
    }
}
