package io.vstream.connect.source;

import io.vstream.connect.core.error.ServerErrors;
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
    private static final long LOG_EVERY_NANOS = 30_000_000_000L;

    private final String shard;
    private final String scope;
    private final String sql;
    private final String stateDatabase;
    private final String exists;
    private long nextCheck;
    private boolean tableSeen;
    private boolean probed;

    CopyThrottle(String shard, String stateDatabase, String scope) {
        this.shard = shard;
        this.scope = scope;
        this.sql = "/* vstream-connect:copy */ SELECT reason FROM " + SqlIdentifiers.qualify(stateDatabase, "throttle")
                + " WHERE scope = ? AND expires_at > NOW(6)";
        this.stateDatabase = stateDatabase;
        this.exists = "/* vstream-connect:copy */ SELECT 1 FROM information_schema.TABLES WHERE TABLE_SCHEMA = ?"
                + " AND TABLE_NAME = 'throttle'";
    }

    /**
     * Waits while the coordinator throttles this copy, calling {@code whileWaiting} (the stream's heartbeat) between
     * checks; {@code conn} must see fresh data (autocommit).
     */
    void await(Connection conn, java.util.function.BooleanSupplier running, Runnable whileWaiting)
            throws SQLException, InterruptedException {
        if (System.nanoTime() < nextCheck) {
            return;
        }
        String last = null;
        long loggedAt = 0;
        String why;
        while (running.getAsBoolean() && (why = reason(conn)) != null) {
            if (last == null || System.nanoTime() - loggedAt >= LOG_EVERY_NANOS) {
                LOG.info("Shard {}: copy throttled by the coordinator: {}", shard, why);
                loggedAt = System.nanoTime();
            }
            last = why;
            whileWaiting.run();
            Thread.sleep(250);
        }
        if (last != null) {
            LOG.info("Shard {}: copy throttle released", shard);
        }
        nextCheck = System.nanoTime() + CHECK_EVERY_NANOS;
    }

    /**
     * Once: whether the table is missing or only hidden from this account. Hidden, a coordinator's throttle would
     * have no effect, which the operator must hear about (the grant is documented, docs/grants.md).
     */
    private void warnIfNotReadable(Connection conn) {
        if (probed) {
            return;
        }
        probed = true;
        try (PreparedStatement ps = conn.prepareStatement("/* vstream-connect:copy */ SELECT 1 FROM "
                + SqlIdentifiers.qualify(stateDatabase, "throttle") + " LIMIT 0"); ResultSet rs = ps.executeQuery()) {
            rs.next();
        } catch (SQLException e) {
            if (e.getErrorCode() == ServerErrors.TABLE_ACCESS_DENIED
                    || e.getErrorCode() == ServerErrors.DATABASE_ACCESS_DENIED) {
                LOG.warn("Shard {}: the copy cannot read the coordinator's throttle ({}): a workflow's throttle would"
                        + " have no effect on it; GRANT SELECT ON {}.* to the connector's user (docs/grants.md)", shard,
                        e.getMessage(), SqlIdentifiers.quote(stateDatabase));
            }
        }
    }

    private String reason(Connection conn) throws SQLException {
        if (!tableSeen) {
            // until a coordinator has created the table, look it up rather than read it: a read of a missing table
            // is an error the JDBC driver logs at WARN, four times a second
            try (PreparedStatement ps = conn.prepareStatement(exists)) {
                ps.setString(1, stateDatabase);
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next()) {
                        warnIfNotReadable(conn);
                        return null;
                    }
                }
            }
            tableSeen = true;
        }
        try (PreparedStatement ps = conn.prepareStatement(sql)) {
            ps.setString(1, scope);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        } catch (SQLException e) {
            if (ServerErrors.isMissingTable(e) || e.getErrorCode() == ServerErrors.TABLE_ACCESS_DENIED) {
                return null; // no throttle table (no coordinator uses it), or not ours to read
            }
            throw e;
        }
    }
}
