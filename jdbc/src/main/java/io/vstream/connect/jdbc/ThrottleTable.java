package io.vstream.connect.jdbc;

import io.vstream.connect.core.error.ServerErrors;
import io.vstream.connect.core.sql.SqlIdentifiers;
import io.vstream.connect.core.sql.SqlTag;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;

/**
 * The throttles a workflow's coordinator sets for the source connector's copy on a shard
 * ({@code <state.database>.throttle}; gh-ost's throttling): one row per scope (the copied database), with a reason
 * and an expiry. The coordinator writes and renews a row while its applier lags ({@link #set}) and deletes it when
 * the copy may go on ({@link #clear}); the copy looks for an unexpired row of its scope before each chunk
 * ({@link #reason}) and waits while there is one. A row expires unless renewed, so a coordinator that goes away never
 * holds the copy back for long. One place for the table's shape and its statements, used by both sides. Touches the
 * shard.
 */
public final class ThrottleTable {
    /** The table's name inside the state database. */
    public static final String NAME = "throttle";

    private ThrottleTable() {
    }

    /**
     * The coordinator's: asks the copy of {@code scope} to wait for {@code reason} during {@code ttl} (creating the
     * table and its database when missing).
     */
    public static void set(Connection shard, String stateDatabase, String scope, String reason, Duration ttl)
            throws SQLException {
        StateTables.create(shard, stateDatabase, createStatement(stateDatabase));
        try (PreparedStatement ps = shard.prepareStatement(setStatement(stateDatabase))) {
            ps.setString(1, scope);
            ps.setString(2, reason);
            ps.setLong(3, ttl.toNanos() / 1000);
            ps.executeUpdate();
        }
    }

    /**
     * The coordinator's: lets the copy of {@code scope} go on. No DDL: it is called every round, and each
     * {@code CREATE ... IF NOT EXISTS} would land in the shard's binlog; nothing to do without the table.
     */
    public static void clear(Connection shard, String stateDatabase, String scope) throws SQLException {
        try (PreparedStatement ps = shard.prepareStatement(clearStatement(stateDatabase))) {
            ps.setString(1, scope);
            ps.executeUpdate();
        } catch (SQLException e) {
            if (!ServerErrors.isMissingTable(e)) {
                throw e;
            }
        }
    }

    /**
     * The copy's: whether the table exists (or this account sees it), looked up in {@code information_schema} rather
     * than read: a read of a missing table is an error the JDBC driver logs at WARN.
     */
    public static boolean exists(Connection shard, String stateDatabase) throws SQLException {
        try (PreparedStatement ps = shard.prepareStatement(existsStatement())) {
            ps.setString(1, stateDatabase);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }

    /**
     * The copy's: reads nothing of the table, to learn whether this account may read it; throws the server's error
     * when it may not (or the table is missing).
     */
    public static void checkReadable(Connection shard, String stateDatabase) throws SQLException {
        try (PreparedStatement ps = shard.prepareStatement(readableStatement(stateDatabase));
             ResultSet rs = ps.executeQuery()) {
            rs.next();
        }
    }

    /**
     * The copy's: the reason of an unexpired throttle of {@code scope}, or null: none, no table (no coordinator uses
     * it), or a table this account may not read.
     */
    public static String reason(Connection shard, String stateDatabase, String scope) throws SQLException {
        try (PreparedStatement ps = shard.prepareStatement(reasonStatement(stateDatabase))) {
            ps.setString(1, scope);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        } catch (SQLException e) {
            if (ServerErrors.isMissingTable(e) || e.getErrorCode() == ServerErrors.TABLE_ACCESS_DENIED) {
                return null;
            }
            throw e;
        }
    }

    static String createStatement(String stateDatabase) {
        return "CREATE TABLE IF NOT EXISTS " + SqlIdentifiers.qualify(stateDatabase, NAME)
                + " (scope VARCHAR(128) NOT NULL PRIMARY KEY, reason TEXT NOT NULL,"
                + " expires_at TIMESTAMP(6) NOT NULL) ENGINE=InnoDB";
    }

    static String setStatement(String stateDatabase) {
        return SqlTag.tag("coordinator", "REPLACE INTO " + SqlIdentifiers.qualify(stateDatabase, NAME)
                + " (scope, reason, expires_at) VALUES (?, ?, NOW(6) + INTERVAL ? MICROSECOND)");
    }

    static String clearStatement(String stateDatabase) {
        return "DELETE FROM " + SqlIdentifiers.qualify(stateDatabase, NAME) + " WHERE scope = ?";
    }

    static String existsStatement() {
        return SqlTag.tag("copy", "SELECT 1 FROM information_schema.TABLES WHERE TABLE_SCHEMA = ?"
                + " AND TABLE_NAME = '" + NAME + "'");
    }

    static String readableStatement(String stateDatabase) {
        return SqlTag.tag("copy", "SELECT 1 FROM " + SqlIdentifiers.qualify(stateDatabase, NAME) + " LIMIT 0");
    }

    static String reasonStatement(String stateDatabase) {
        return SqlTag.tag("copy", "SELECT reason FROM " + SqlIdentifiers.qualify(stateDatabase, NAME)
                + " WHERE scope = ? AND expires_at > NOW(6)");
    }
}
