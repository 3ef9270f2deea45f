package io.vstream.connect.coordinator;

import io.vstream.connect.core.error.ServerErrors;
import io.vstream.connect.core.protocol.ControlTable;
import io.vstream.connect.core.sql.SqlTag;
import io.vstream.connect.jdbc.AppliedTable;
import io.vstream.connect.jdbc.StateTables;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * The coordinator's side of the applier's state on the target: what the applier has applied (its {@code applied}
 * rows, {@link AppliedTable}) and the control row through which the coordinator pauses it, stops it at an exact
 * position, or retires it, reading back the applier's acknowledgement (the sink's {@code ControlStore} is the other
 * side).
 */
final class ApplierChannel {
    /** The applier's acknowledgement of a command. */
    record Ack(String command, String position) {
    }

    /** The sink's acknowledgement of a {@code STOP_AT} it had already gone past (sink {@code ControlStore}). */
    static final String PASSED_STOP = ControlTable.PASSED_STOP;
    /** How often an awaited acknowledgement is read: each read is one primary-key lookup, and a hold waits on it. */
    private static final long ACK_POLL_MS = 10;
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(ApplierChannel.class);

    private final String stateDb;
    private final String stream;

    ApplierChannel(String stateDb, String stream) {
        this.stateDb = stateDb;
        this.stream = stream;
    }

    /** The stream's applied rows; empty when the applier has not written any yet (or its state does not exist). */
    List<AppliedTable.Row> applied(Connection target) throws SQLException {
        return AppliedTable.read(target, stateDb, stream);
    }

    /**
     * Writes a command (RUN, PAUSE, STOP_AT with a position, HANDED_OFF) and clears the previous acknowledgement. The
     * control table is created only when it is missing: a {@code CREATE ... IF NOT EXISTS} per command would put a
     * statement into the shard's binlog for each, some of them while the cut-over holds the application's writes.
     */
    void command(Connection target, String command, String stopAt) throws SQLException {
        try {
            writeCommand(target, command, stopAt);
        } catch (SQLException e) {
            if (!ServerErrors.isMissingTable(e)) {
                throw e;
            }
            StateTables.create(target, stateDb, SqlTag.tag("coordinator", ControlTable.createStatement(stateDb)));
            writeCommand(target, command, stopAt);
        }
    }

    private void writeCommand(Connection target, String command, String stopAt) throws SQLException {
        try (PreparedStatement ps = target.prepareStatement(SqlTag.tag("coordinator",
                ControlTable.writeCommandStatement(stateDb)))) {
            ps.setString(1, stream);
            ps.setString(2, command);
            ps.setString(3, stopAt);
            ps.executeUpdate();
        }
    }

    /** The command the control row holds for the applier now, or {@code null} when there is none. */
    String currentCommand(Connection target) throws SQLException {
        return controlColumn(target, "command");
    }

    /** Why the applier stopped for good (it reports it in the control row), or {@code null}. */
    String failure(Connection target) throws SQLException {
        return controlColumn(target, "failure");
    }

    /** One column of the stream's control row; {@code null} without a row, a table or (older sinks) the column. */
    private String controlColumn(Connection target, String column) throws SQLException {
        try (PreparedStatement ps = target.prepareStatement(ControlTable.readColumnStatement(stateDb, column))) {
            ps.setString(1, stream);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        } catch (SQLException e) {
            if (ServerErrors.isMissingTable(e) || e.getErrorCode() == ServerErrors.NO_SUCH_COLUMN) {
                return null;
            }
            throw e;
        }
    }

    /**
     * Waits until the applier acknowledges {@code command} (and, with a position, holds at least it); {@code null}
     * when it does not within {@code timeout}, or at once when it acknowledges a {@code STOP_AT} as passed (it had
     * applied a transaction beyond the position before it read it: the target cannot be held at that position).
     */
    Ack awaitAck(Connection target, String command, String position, java.time.Duration timeout)
            throws SQLException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            Ack ack = ack(target);
            if (ack != null && ack.command().equals(PASSED_STOP) && command.equals("STOP_AT")) {
                // the applier had applied past the position before it read the command: the target does not hold
                // exactly that position, so this attempt cannot use it; the caller's next attempt takes a new one
                LOG.warn("Stream {}: the applier was already past the stop position {} when it read it (it holds {});"
                        + " this attempt is abandoned", stream, position, ack.position());
                return null;
            }
            if (ack != null && ack.command().equals(command) && (position == null || ack.position() != null
                    && io.vstream.connect.core.position.GtidPosition.parse(ack.position())
                    .contains(io.vstream.connect.core.position.GtidPosition.parse(position)))) {
                return ack;
            }
            Thread.sleep(ACK_POLL_MS);
        }
        return null;
    }

    /**
     * Waits until the stream's applier has applied every transaction the server had committed when this was called
     * ({@code @@GLOBAL.gtid_binlog_pos} of {@code target}, which for an online DDL is also the source); false when it
     * has not within {@code timeout}. Nothing is held meanwhile: it lets a cut-over take its locks once the applier
     * has caught up, so that the barrier under the locks waits only for the last few transactions.
     */
    boolean awaitCaughtUp(Connection target, java.time.Duration timeout) throws SQLException, InterruptedException {
        io.vstream.connect.core.position.GtidPosition goal;
        try (Statement st = target.createStatement();
             ResultSet rs = st.executeQuery("SELECT @@GLOBAL.gtid_binlog_pos")) {
            rs.next();
            goal = io.vstream.connect.core.position.GtidPosition.parse("MariaDB/" + rs.getString(1));
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            List<AppliedTable.Row> rows = applied(target);
            if (rows.size() == 1 && rows.get(0).position() != null
                    && io.vstream.connect.core.position.GtidPosition.parse(rows.get(0).position()).contains(goal)) {
                return true;
            }
            if (System.nanoTime() >= deadline) {
                return false;
            }
            Thread.sleep(ACK_POLL_MS);
        }
    }

    /** The applier's acknowledgement, or {@code null} when it has not acknowledged the current command. */
    Ack ack(Connection target) throws SQLException {
        try (PreparedStatement ps = target.prepareStatement(ControlTable.readAcknowledgementStatement(stateDb))) {
            ps.setString(1, stream);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next() || rs.getString(1) == null) {
                    return null;
                }
                return new Ack(rs.getString(1), rs.getString(2));
            }
        }
    }
}
