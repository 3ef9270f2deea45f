package io.vstream.connect.jdbc;

import io.vstream.connect.core.position.Flavor;
import io.vstream.connect.core.position.GtidPosition;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.apache.kafka.connect.errors.ConnectException;

/**
 * Opens a consistent-snapshot transaction on a shard's server and learns the exact GTID position it sees, so that
 * rows copied from it and binlog events up to that position fit together with no gap and no overlap.
 *
 * <p>MariaDB: {@code START TRANSACTION WITH CONSISTENT SNAPSHOT}, then the snapshot's own binlog coordinates
 * ({@code binlog_snapshot_file}/{@code binlog_snapshot_position}) turned into a GTID position with
 * {@code BINLOG_GTID_POS()}; no lock is taken. (Reading {@code @@gtid_binlog_pos} inside the snapshot would not be
 * frozen and would lose rows.) MySQL: a brief {@code LOCK TABLES ... READ} around reading {@code @@gtid_executed} and
 * starting the snapshot, as Vitess does.
 */
public final class ConsistentSnapshot implements AutoCloseable {
    private final Connection conn;
    private final GtidPosition position;

    private ConsistentSnapshot(Connection conn, GtidPosition position) {
        this.conn = conn;
        this.position = position;
    }

    /**
     * Starts the snapshot on {@code conn} (which it then owns until {@link #close()}).
     *
     * @param lockTable for MySQL, the qualified, quoted table to lock briefly; ignored on MariaDB
     */
    public static ConsistentSnapshot open(Connection conn, Flavor flavor, String lockTable) throws SQLException {
        try (Statement st = conn.createStatement()) {
            st.execute("SET SESSION TRANSACTION ISOLATION LEVEL REPEATABLE READ");
            st.execute("SET SESSION time_zone = '+00:00'");
            conn.setAutoCommit(false);
            if (flavor == Flavor.MARIADB) {
                st.execute("/* vstream-connect:copy */ START TRANSACTION WITH CONSISTENT SNAPSHOT");
                String file = status(st, "binlog_snapshot_file");
                String pos = status(st, "binlog_snapshot_position");
                if (file == null || file.isEmpty() || pos == null) {
                    throw new ConnectException("The server did not report the snapshot's binlog coordinates"
                            + " (binlog_snapshot_file/position): is binary logging on?");
                }
                String gtid;
                try (PreparedStatement ps = conn.prepareStatement("SELECT BINLOG_GTID_POS(?, ?)")) {
                    ps.setString(1, file);
                    ps.setLong(2, Long.parseLong(pos));
                    try (ResultSet rs = ps.executeQuery()) {
                        rs.next();
                        gtid = rs.getString(1);
                    }
                }
                if (gtid == null) {
                    throw new ConnectException("The copy snapshot cannot be tied to an exact GTID position:"
                            + " BINLOG_GTID_POS('" + file + "', " + pos + ") returned NULL (the binlog file may have"
                            + " been purged just now); the copy will not start from an inexact position");
                }
                return new ConsistentSnapshot(conn, GtidPosition.parse(Flavor.MARIADB, gtid));
            }
            st.execute("/* vstream-connect:copy */ LOCK TABLES " + lockTable + " READ");
            String executed;
            try {
                try (ResultSet rs = st.executeQuery("SELECT @@GLOBAL.gtid_executed")) {
                    rs.next();
                    executed = rs.getString(1);
                }
                st.execute("/* vstream-connect:copy */ START TRANSACTION WITH CONSISTENT SNAPSHOT");
            } finally {
                st.execute("UNLOCK TABLES");
            }
            return new ConsistentSnapshot(conn, GtidPosition.parse(Flavor.MYSQL56, executed));
        }
    }

    private static String status(Statement st, String name) throws SQLException {
        try (ResultSet rs = st.executeQuery("SHOW STATUS LIKE '" + name + "'")) {
            return rs.next() ? rs.getString(2) : null;
        }
    }

    /** The GTID position the snapshot sees: every transaction in it, none after it. */
    public GtidPosition position() {
        return position;
    }

    public Connection connection() {
        return conn;
    }

    @Override
    public void close() {
        try {
            conn.rollback();
        } catch (SQLException e) {
            // the connection may be gone; the snapshot ends with it
        }
    }
}
