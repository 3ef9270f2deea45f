package io.vstream.connect.source;

import io.vstream.connect.core.position.Flavor;
import io.vstream.connect.jdbc.BinlogSettings;
import io.vstream.connect.core.topology.ShardAddress;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.apache.kafka.connect.errors.ConnectException;

/**
 * Checks, before streaming a shard, that its server writes the binlog we can stream ({@link BinlogSettings}, the
 * check the coordinator makes too), and reads its position. Each failure names the exact setting that fixes it.
 */
final class ServerPreflight {
    /** What the checks learnt of the server. */
    record ServerInfo(Flavor flavor, String version) {
    }

    private ServerPreflight() {
    }

    static ServerInfo check(Connection conn, ShardAddress shard) throws SQLException {
        String version = queryString(conn, "SELECT VERSION()");
        List<String> problems = BinlogSettings.problems(conn);
        if (!problems.isEmpty()) {
            throw new ConnectException("Shard " + shard.name() + " (" + shard.host() + ":" + shard.port() + ", "
                    + version + ") cannot be streamed: " + String.join("; ", problems));
        }
        return new ServerInfo(BinlogSettings.flavor(version), version);
    }

    /** The shard's current GTID position in server format (what @@gtid_binlog_pos / @@gtid_executed hold). */
    static String currentPosition(Connection conn, Flavor flavor) throws SQLException {
        String sql = flavor == Flavor.MARIADB ? "SELECT @@GLOBAL.gtid_binlog_pos" : "SELECT @@GLOBAL.gtid_executed";
        String v = queryString(conn, sql);
        return v == null ? "" : v;
    }

    static String queryString(Connection conn, String sql) throws SQLException {
        try (Statement st = conn.createStatement();
             ResultSet rs = st.executeQuery("/* vstream-connect:source */ " + sql)) {
            return rs.next() ? rs.getString(1) : null;
        }
    }
}
