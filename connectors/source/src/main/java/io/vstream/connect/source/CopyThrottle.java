package io.vstream.connect.source;

import io.vstream.connect.core.error.ServerErrors;
import io.vstream.connect.core.sql.SqlIdentifiers;
import io.vstream.connect.jdbc.ThrottleTable;
import java.sql.Connection;
import java.sql.SQLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Holds the copy back while a workflow's coordinator asks it to (its applier lags): before each chunk the copy looks
 * for an unexpired row of its database in {@code <throttle.state.database>.throttle} ({@link ThrottleTable}) on the
 * shard, and waits while one is there, logging the coordinator's reason. The coordinator renews the row while the lag
 * lasts, so a coordinator that goes away never holds the copy back for long. Touches the shard (reads).
 */
final class CopyThrottle {
    private static final Logger LOG = LoggerFactory.getLogger(CopyThrottle.class);
    private static final long CHECK_EVERY_NANOS = 250_000_000L;
    private static final long LOG_EVERY_NANOS = 30_000_000_000L;

    private final String shard;
    private final String scope;
    private final String stateDatabase;
    private long nextCheck;
    private boolean tableSeen;
    private boolean probed;

    CopyThrottle(String shard, String stateDatabase, String scope) {
        this.shard = shard;
        this.scope = scope;
        this.stateDatabase = stateDatabase;
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
        try {
            ThrottleTable.checkReadable(conn, stateDatabase);
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
            if (!ThrottleTable.exists(conn, stateDatabase)) {
                warnIfNotReadable(conn);
                return null;
            }
            tableSeen = true;
        }
        return ThrottleTable.reason(conn, stateDatabase, scope); // null too without a table, or one not ours to read
    }
}
