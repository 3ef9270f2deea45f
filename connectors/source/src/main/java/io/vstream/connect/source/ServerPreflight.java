package io.vstream.connect.source;

import io.vstream.connect.core.position.Flavor;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.kafka.connect.errors.ConnectException;

/**
 * Checks, before streaming a shard, that its server writes the binlog we can stream: binary logging on, ROW format,
 * FULL row images, FULL row metadata and GTIDs. Each failure names the exact setting that fixes it.
 */
final class ServerPreflight {
    /** What the checks learnt of the server. */
    record ServerInfo(Flavor flavor, String version) {
    }

    private ServerPreflight() {
    }

    static ServerInfo check(Connection conn, ShardSpec shard) throws SQLException {
        String version = queryString(conn, "SELECT VERSION()");
        Flavor flavor = version.toLowerCase(Locale.ROOT).contains("mariadb") ? Flavor.MARIADB : Flavor.MYSQL56;
        List<String> problems = new ArrayList<>();
        if (!"1".equals(queryString(conn, "SELECT @@log_bin")) && !"ON".equalsIgnoreCase(
                queryString(conn, "SELECT @@log_bin"))) {
            problems.add("binary logging is off: start the server with log_bin=ON (in its config file; it cannot be"
                    + " changed at run time)");
        }
        expect(conn, "binlog_format", "ROW", problems);
        expect(conn, "binlog_row_image", "FULL", problems);
        expectIfPresent(conn, "binlog_row_metadata", "FULL", problems);
        if (flavor == Flavor.MYSQL56) {
            expect(conn, "gtid_mode", "ON", problems);
            expectIfPresent(conn, "binlog_transaction_compression", "OFF", problems);
            expectIfPresent(conn, "binlog_row_value_options", "", problems);
        } else {
            expectIfPresent(conn, "log_bin_compress", "OFF", problems);
        }
        if (!problems.isEmpty()) {
            throw new ConnectException("Shard " + shard.name() + " (" + shard.host() + ":" + shard.port() + ", "
                    + version + ") cannot be streamed: " + String.join("; ", problems));
        }
        return new ServerInfo(flavor, version);
    }

    private static void expect(Connection conn, String variable, String value, List<String> problems)
            throws SQLException {
        String actual = queryString(conn, "SELECT @@GLOBAL." + variable);
        if ("0".equals(actual) && value.equals("OFF")) {
            actual = "OFF";
        }
        if (!value.equalsIgnoreCase(actual == null ? "" : actual)) {
            problems.add(variable + " is " + actual + ", it must be " + value + ": run SET GLOBAL " + variable + "="
                    + value + " and set " + variable + "=" + value + " in the server's config file");
        }
    }

    private static void expectIfPresent(Connection conn, String variable, String value, List<String> problems)
            throws SQLException {
        try {
            expect(conn, variable, value, problems);
        } catch (SQLException e) {
            if (e.getErrorCode() == 1193 && !variable.equals("binlog_row_metadata")) {
                return; // the server has no such setting, so it cannot be on
            }
            if (e.getErrorCode() == 1193) { // unknown system variable: server too old
                problems.add(variable + " does not exist on this server: use MariaDB 10.5+ or MySQL 8.0.1+, which"
                        + " write column names into the binlog");
                return;
            }
            throw e;
        }
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
