package io.vstream.connect.coordinator;

import io.vstream.connect.core.position.Flavor;
import io.vstream.connect.core.position.GtidPosition;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

/**
 * Holds a MariaDB replica (a clone after its hand-off) at a source position: {@code STOP SLAVE}, then
 * {@code START SLAVE UNTIL master_gtid_pos = S} and wait until its SQL thread has stopped holding S, then
 * {@code START SLAVE}. Replication that is not running (stopped by an operator, or by an error) is not touched: the
 * diff says why it cannot hold it.
 */
final class ReplicaHold implements TargetHold {
    private final Duration timeout;

    ReplicaHold(Duration timeout) {
        this.timeout = timeout;
    }

    @Override
    public String describe() {
        return "native replication";
    }

    @Override
    public String hold(Connection target) throws SQLException {
        try (Statement st = target.createStatement(); ResultSet rs = st.executeQuery("SHOW SLAVE STATUS")) {
            if (!rs.next() || rs.getString("Master_Host") == null || rs.getString("Master_Host").isEmpty()) {
                return "the target is not a replica (SHOW SLAVE STATUS is empty)";
            }
            String io = rs.getString("Slave_IO_Running");
            String sql = rs.getString("Slave_SQL_Running");
            if (!"Yes".equals(sql) || !"Yes".equals(io)) {
                String err = rs.getString("Last_Error");
                String ioErr = rs.getString("Last_IO_Error");
                return "native replication is not running on the target (IO " + io + ", SQL " + sql
                        + (err == null || err.isEmpty() ? "" : ", error: " + err)
                        + (ioErr == null || ioErr.isEmpty() ? "" : ", IO error: " + ioErr) + "); the diff holds"
                        + " running replication at a position and leaves stopped replication alone: START SLAVE first";
            }
        }
        try (Statement st = target.createStatement()) {
            st.execute("STOP SLAVE");
        }
        return null;
    }

    @Override
    public String reach(Connection target, GtidPosition s) throws SQLException, InterruptedException {
        if (slavePos(target).contains(s)) {
            return null; // stopped after the last transaction before S: it holds S already
        }
        try (Statement st = target.createStatement()) {
            st.execute("START SLAVE UNTIL master_gtid_pos = '" + s.serverFormat().replace("'", "") + "'");
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        String last = "";
        while (System.nanoTime() < deadline) {
            String sqlRunning;
            try (Statement st = target.createStatement(); ResultSet rs = st.executeQuery("SHOW SLAVE STATUS")) {
                if (!rs.next()) {
                    return "the target stopped being a replica";
                }
                sqlRunning = rs.getString("Slave_SQL_Running");
                String err = rs.getString("Last_Error");
                if (err != null && !err.isEmpty()) {
                    return "native replication stopped with an error: " + err;
                }
                last = "SQL thread " + sqlRunning;
            }
            if ("No".equals(sqlRunning) && slavePos(target).contains(s)) {
                return null;
            }
            Thread.sleep(50);
        }
        return "replication did not stop at " + s.format() + " within " + timeout.toMillis() + " ms (" + last + ")";
    }

    /** Restarts replication without a stop condition (STOP first: a START while an UNTIL still runs is a no-op). */
    @Override
    public void release(Connection target) throws SQLException {
        try (Statement st = target.createStatement()) {
            st.execute("STOP SLAVE");
            st.execute("START SLAVE");
        }
    }

    private static GtidPosition slavePos(Connection target) throws SQLException {
        String pos = Servers.string(target, "SELECT @@GLOBAL.gtid_slave_pos");
        return GtidPosition.parse(Flavor.MARIADB, pos == null ? "" : pos);
    }
}
