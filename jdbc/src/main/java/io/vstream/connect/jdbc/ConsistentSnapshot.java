package io.vstream.connect.jdbc;

import io.vstream.connect.core.error.ErrorClassifier;
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
 * frozen and would lose rows.) {@code BINLOG_GTID_POS()} reads the binlog file from its start up to the position
 * (about 0.3 ms per MB on an idle server, so a good part of a second late in a 1 GB file); with a second connection
 * (a probe, outside any snapshot) and an account that may read the binlog's end ({@code BINLOG MONITOR}), the
 * position is had without that read whenever no transaction was binlogged since the snapshot began
 * ({@link #atEnd}). MySQL: a brief {@code LOCK TABLES ... READ} around reading {@code @@gtid_executed} and
 * starting the snapshot, as Vitess does.
 */
public final class ConsistentSnapshot implements AutoCloseable {
    private final Connection conn;
    private final GtidPosition position;
    private final boolean readBinlog;
    private final boolean probeDenied;

    private ConsistentSnapshot(Connection conn, GtidPosition position) {
        this(conn, position, false, false);
    }

    private ConsistentSnapshot(Connection conn, GtidPosition position, boolean readBinlog, boolean probeDenied) {
        this.conn = conn;
        this.position = position;
        this.readBinlog = readBinlog;
        this.probeDenied = probeDenied;
    }

    /** Whether the position was found by reading the binlog file ({@code BINLOG_GTID_POS()}, MariaDB). */
    public boolean readBinlog() {
        return readBinlog;
    }

    /**
     * Whether the probe's account may not read the binlog's end ({@code SHOW MASTER STATUS} refused: it lacks
     * {@code BINLOG MONITOR}); a caller then stops passing a probe.
     */
    public boolean probeDenied() {
        return probeDenied;
    }

    /**
     * Starts the snapshot on {@code conn} (which it then owns until {@link #close()}).
     *
     * @param lockTable for MySQL, the qualified, quoted table to lock briefly; ignored on MariaDB
     */
    public static ConsistentSnapshot open(Connection conn, Flavor flavor, String lockTable) throws SQLException {
        return open(conn, flavor, lockTable, null);
    }

    /**
     * Starts the snapshot on {@code conn} (which it then owns until {@link #close()}); on MariaDB, {@code probe} (another
     * connection to the same server, not in a snapshot, or null) may spare reading the binlog file ({@link #atEnd}).
     *
     * @param lockTable for MySQL, the qualified, quoted table to lock briefly; ignored on MariaDB
     */
    public static ConsistentSnapshot open(Connection conn, Flavor flavor, String lockTable, Connection probe)
            throws SQLException {
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
                Probe probed = probe == null ? Probe.NONE : gtidAtEnd(probe, file, Long.parseLong(pos));
                if (probed.gtid() != null) {
                    return new ConsistentSnapshot(conn, GtidPosition.parse(Flavor.MARIADB, probed.gtid()));
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
                return new ConsistentSnapshot(conn, GtidPosition.parse(Flavor.MARIADB, gtid), true, probed.denied());
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

    /** What a probe found: the snapshot's GTID position (null: none), and whether its account was refused. */
    record Probe(String gtid, boolean denied) {
        static final Probe NONE = new Probe(null, false);
    }

    /**
     * The GTID position of the snapshot at {@code (file, pos)} when the binlog still ends there, read on {@code probe}:
     * {@code @@gtid_binlog_pos}, the binlog's end ({@code SHOW MASTER STATUS}), {@code @@gtid_binlog_pos} again; none
     * when they do not agree ({@link #atEnd}) or the account may not read the binlog's end (then denied).
     */
    static Probe gtidAtEnd(Connection probe, String file, long pos) {
        try (Statement st = probe.createStatement()) {
            String before = gtidBinlogPos(st);
            String endFile;
            long endPos;
            try (ResultSet rs = st.executeQuery("SHOW MASTER STATUS")) {
                if (!rs.next()) {
                    return Probe.NONE;
                }
                endFile = rs.getString(1);
                endPos = rs.getLong(2);
            }
            return new Probe(atEnd(file, pos, before, endFile, endPos, gtidBinlogPos(st)), false);
        } catch (SQLException e) {
            // no BINLOG MONITOR (or the probe failed): the snapshot's position is read from the file
            return new Probe(null, ErrorClassifier.isAccessDenied(e));
        }
    }

    /**
     * The snapshot's GTID position from a probe made after it began, or null. A snapshot at {@code (file, pos)} sees
     * exactly the transactions binlogged before that position. When the binlog, read after the snapshot began, still
     * ends there, nothing was binlogged in between, and nothing before it was still to be committed (the end only
     * grows, and the snapshot's position is never past it); when {@code @@gtid_binlog_pos} read just before and just
     * after that end is the same, it is the state of exactly the binlog up to that end (a transaction being binlogged
     * meanwhile would have moved the end or the state), i.e. the snapshot's position.
     */
    static String atEnd(String file, long pos, String gtidBefore, String endFile, long endPos, String gtidAfter) {
        return gtidBefore != null && !gtidBefore.isEmpty() && gtidBefore.equals(gtidAfter) && file.equals(endFile)
                && pos == endPos ? gtidBefore : null;
    }

    private static String gtidBinlogPos(Statement st) throws SQLException {
        try (ResultSet rs = st.executeQuery("SELECT @@GLOBAL.gtid_binlog_pos")) {
            return rs.next() ? rs.getString(1) : null;
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
