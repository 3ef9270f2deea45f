package io.vstream.connect.sink;

import io.vstream.connect.core.position.GtidPosition;
import io.vstream.connect.core.protocol.ControlTable;
import io.vstream.connect.core.sql.SqlTag;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Locale;

/**
 * The control channel between a workflow's coordinator and the applier, in {@code <state.database>.control} on the
 * target: the coordinator writes a command for a stream (run, pause, stop at an exact position, handed off), the
 * applier obeys at its next transaction boundary and writes back where it stopped. The coordinator never guesses
 * where the applier is: it reads the acknowledgement.
 */
final class ControlStore {
    /** What the coordinator asks of the applier. */
    enum Command {
        /** Apply everything (the default when no row exists). */
        RUN,
        /** Apply nothing more; acknowledge the position reached. */
        PAUSE,
        /** Apply up to exactly {@code stop_at} and no further; acknowledge when there. */
        STOP_AT,
        /** The target has become a native replica: never apply again. */
        HANDED_OFF
    }

    /** The command in force. */
    record Control(Command command, String stopAt) {
        static final Control RUN = new Control(Command.RUN, null);
    }

    private final String stateDatabase;
    private final String stream;
    private final String lane; // this lane's own row (ControlTable.laneKey), or null: the stream's row only

    /**
     * The command in force when several targets each hold one (reshard: every new shard has its control table): the
     * most restrictive wins, handed off, then pause, then the earliest stop position, then run. Stop positions that
     * do not contain one another (one target's is not before the other's) give a pause, the safe reading.
     */
    static Control mostRestrictive(List<Control> controls) {
        Control out = Control.RUN;
        for (Control c : controls) {
            if (rank(c.command()) > rank(out.command())) {
                out = c;
            } else if (c.command() == Command.STOP_AT && out.command() == Command.STOP_AT
                    && !c.stopAt().equals(out.stopAt())) {
                if (contains(c.stopAt(), out.stopAt())) {
                    continue; // out is the earlier one
                }
                out = contains(out.stopAt(), c.stopAt()) ? c : new Control(Command.PAUSE, null);
            }
        }
        return out;
    }

    private static int rank(Command c) {
        return switch (c) {
            case RUN -> 0;
            case STOP_AT -> 1;
            case PAUSE -> 2;
            case HANDED_OFF -> 3;
        };
    }

    private static boolean contains(String a, String b) {
        try {
            return GtidPosition.parse(a).contains(GtidPosition.parse(b));
        } catch (IllegalArgumentException | NullPointerException e) {
            return false;
        }
    }

    ControlStore(String stateDatabase, String stream) {
        this(stateDatabase, stream, null);
    }

    /**
     * The control of one lane of {@code stream}: the lane reads the stream's row and its own ({@code lane}, a
     * {@link ControlTable#laneKey}), obeys the more restrictive of the two, and acknowledges in both.
     */
    ControlStore(String stateDatabase, String stream, String lane) {
        this.stateDatabase = stateDatabase;
        this.stream = stream;
        this.lane = lane;
    }

    static void ensure(Connection ddl, String stateDatabase) throws SQLException {
        try (Statement st = ddl.createStatement()) {
            st.execute(SqlTag.tag("sink", ControlTable.createStatement(stateDatabase)));
        }
    }

    /** The command in force: the stream's row (RUN without one), or the more restrictive of it and the lane's. */
    Control read(Connection conn) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement(SqlTag.tag("sink",
                ControlTable.readCommandsStatement(stateDatabase)))) {
            ps.setString(1, stream);
            ps.setString(2, lane == null ? stream : lane);
            try (ResultSet rs = ps.executeQuery()) {
                List<Control> rows = new java.util.ArrayList<>(2);
                while (rs.next()) {
                    rows.add(new Control(Command.valueOf(rs.getString(1).toUpperCase(Locale.ROOT)), rs.getString(2)));
                }
                return mostRestrictive(rows);
            }
        }
    }

    /** Records why the applier cannot go on (the coordinator fails the workflow with it). */
    void fail(Connection conn, String reason) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement(SqlTag.tag("sink",
                ControlTable.recordFailureStatement(stateDatabase)))) {
            ps.setString(1, stream);
            ps.setString(2, reason);
            ps.executeUpdate();
        }
    }

    /**
     * The acknowledgement of a {@code STOP_AT} the applier had already gone past when it read it (it had applied a
     * transaction the stop position does not contain): the coordinator abandons that attempt and takes a new position.
     */
    static final String PASSED_STOP = ControlTable.PASSED_STOP;

    /** Records that the applier obeys {@code command} and holds exactly {@code position}. */
    void acknowledge(Connection conn, Command command, String position) throws SQLException {
        acknowledge(conn, command.name(), position);
    }

    /** Records that the applier went past the stop position in force before it read it, and holds {@code position}. */
    void acknowledgePassedStop(Connection conn, String position) throws SQLException {
        acknowledge(conn, PASSED_STOP, position);
    }

    private void acknowledge(Connection conn, String ack, String position) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement(SqlTag.tag("sink",
                ControlTable.acknowledgeStatement(stateDatabase)))) {
            ps.setString(1, ack);
            ps.setString(2, position);
            ps.setString(3, stream);
            ps.setString(4, lane == null ? stream : lane);
            ps.executeUpdate();
        }
    }
}
