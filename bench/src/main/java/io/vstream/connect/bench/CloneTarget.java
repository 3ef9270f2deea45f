package io.vstream.connect.bench;

import io.vstream.connect.testsupport.db.MariaDbServer;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

/**
 * The clone scenario's target server (a second {@code mariadbd} the benchmark started) and what both sides do with
 * it: check the cloned table against the source's checksum, wait until no client is connected any more, and empty it
 * between runs. Also waits for the source server to have no client left, so that a stopping connector does not run
 * into the next timed run. Touches only the two servers the benchmark started.
 */
final class CloneTarget {
    private final MariaDbServer source;
    private final MariaDbServer target;
    private final String database;
    private final String table;
    private final BenchTable.Checksum expected;

    CloneTarget(MariaDbServer source, MariaDbServer target, String database, String table,
                BenchTable.Checksum expected) {
        this.source = source;
        this.target = target;
        this.database = database;
        this.table = table;
        this.expected = expected;
    }

    MariaDbServer server() {
        return target;
    }

    String database() {
        return database;
    }

    String table() {
        return table;
    }

    BenchTable.Checksum expected() {
        return expected;
    }

    /** Null when the target's table has the source's rows (count and checksum), else what differs. */
    String verify() {
        BenchTable.Checksum got;
        try {
            got = BenchTable.checksum(target, database, table);
        } catch (IllegalStateException e) {
            return "the target's table cannot be read: " + e.getMessage();
        }
        return got.equals(expected) ? null : "the target holds " + got + "; the source " + expected;
    }

    /**
     * Empties the target for the next run: waits until both servers have no client connected (the connectors'
     * tasks have stopped, the peer's client has exited), then drops the cloned database and the sink's state
     * database ({@code _vstream}: its applied positions and control rows), so every run starts from an empty server.
     */
    void reset(String stateDatabase) {
        awaitIdle(target, Duration.ofSeconds(60));
        awaitIdle(source, Duration.ofSeconds(60));
        target.execute(null, "SET SESSION sql_log_bin = 0", "DROP DATABASE IF EXISTS `" + database + "`",
                "DROP DATABASE IF EXISTS `" + stateDatabase + "`");
    }

    /** Drops and creates the database on the target (the peer restores into it; not timed). */
    void freshDatabase() {
        target.execute(null, "SET SESSION sql_log_bin = 0", "DROP DATABASE IF EXISTS `" + database + "`",
                "CREATE DATABASE `" + database + "`");
    }

    /** Waits until no client but this one is connected to {@code server}; says so when one stays. */
    static void awaitIdle(MariaDbServer server, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        String others = null;
        while (System.nanoTime() < deadline) {
            others = otherClients(server);
            if (others == null) {
                return;
            }
            sleep(200);
        }
        Bench.say("  (" + server.name() + " still has clients after " + timeout.toSeconds() + " s: " + others + ")");
    }

    /** The other clients connected to {@code server}, or null when there are none. */
    private static String otherClients(MariaDbServer server) {
        try (Connection c = server.connect(null); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT GROUP_CONCAT(CONCAT(ID, ' ', COMMAND, ' ', COALESCE(DB, '-'))"
                     + " SEPARATOR '; ') FROM information_schema.PROCESSLIST WHERE ID <> CONNECTION_ID()"
                     + " AND COMMAND NOT IN ('Daemon') AND USER NOT IN ('system user', 'event_scheduler')")) {
            rs.next();
            return rs.getString(1);
        } catch (SQLException e) {
            return "unknown (" + e.getMessage() + ")";
        }
    }

    static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
