package io.vstream.connect.coordinator;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Whether a server has room for the connections a workflow is about to open on it: {@code max_connections} less the
 * connections open now ({@code Threads_connected}), and the global {@code max_user_connections} (when set) for the
 * connections one account opens. A workflow that starts without that room fails midway (a copy thread, the checksum
 * or the cut-over cannot connect), so the preflight refuses it first with the numbers and the setting to raise.
 * A per-account limit ({@code MAX_USER_CONNECTIONS} in a GRANT) is not visible without reading {@code mysql.user}
 * and is not checked. Touches the server it is given (reads two variables and one status counter).
 */
final class ConnectionHeadroom {
    private ConnectionHeadroom() {
    }

    /** What the server allows and has in use. */
    record Limits(long maxConnections, long connected, long maxUserConnections) {
    }

    static Limits read(Connection c) throws SQLException {
        long max = Long.parseLong(Servers.string(c, "SELECT @@GLOBAL.max_connections"));
        long perUser = Long.parseLong(Servers.string(c, "SELECT @@GLOBAL.max_user_connections"));
        long connected = 0;
        try (Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SHOW GLOBAL STATUS LIKE 'Threads_connected'")) {
            if (rs.next()) {
                connected = rs.getLong(2);
            }
        }
        return new Limits(max, connected, perUser);
    }

    /**
     * The problem, or null: {@code server} names the server in the message, {@code total} is what every component
     * of the workflow opens there at its peak, {@code ownAccount} what the coordinator's account alone opens, and
     * {@code what} says where the numbers come from and which setting lowers them.
     */
    static String problem(String server, Limits limits, int total, int ownAccount, String what) {
        long free = limits.maxConnections() - limits.connected();
        if (free < total) {
            return server + " has " + Math.max(0, free) + " free connection(s) (max_connections " + limits
                    .maxConnections() + ", " + limits.connected() + " open) but the workflow opens up to " + total
                    + " there (" + what + "): raise max_connections (SET GLOBAL max_connections=...; and in the config"
                    + " file)";
        }
        if (limits.maxUserConnections() > 0 && limits.maxUserConnections() < ownAccount) {
            return server + " allows " + limits.maxUserConnections() + " connection(s) per account"
                    + " (max_user_connections) but the coordinator's account opens up to " + ownAccount + " there ("
                    + what + "): raise max_user_connections";
        }
        return null;
    }
}
