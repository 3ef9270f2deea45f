package io.vstream.connect.jdbc;

import io.vstream.connect.core.position.Flavor;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The server settings every workflow needs of a shard whose binlog it streams: binary logging on, ROW format, FULL
 * row images, FULL row metadata, GTIDs, no compressed binlog. One check for the source connector (before it streams
 * a shard) and the coordinator (before it creates anything on a shard); each problem names the setting that fixes
 * it. Touches the server (reads its variables). The MySQL checks are unit-tested only: no MySQL server runs here.
 */
public final class BinlogSettings {
    private BinlogSettings() {
    }

    /** The server's flavor, from {@code SELECT VERSION()}. */
    public static Flavor flavor(String version) {
        return version.toLowerCase(Locale.ROOT).contains("mariadb") ? Flavor.MARIADB : Flavor.MYSQL56;
    }

    /** The problems of the server's settings; empty when its binlog can be streamed. */
    public static List<String> problems(Connection conn) throws SQLException {
        Flavor flavor = flavor(queryString(conn, "SELECT VERSION()"));
        List<String> problems = new ArrayList<>();
        String logBin = queryString(conn, "SELECT @@log_bin");
        if (!"1".equals(logBin) && !"ON".equalsIgnoreCase(logBin)) {
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
        return problems;
    }

    /** The problem of {@code variable} having {@code actual} where {@code value} is needed, or null. No I/O. */
    static String problem(String variable, String actual, String value) {
        if ("0".equals(actual) && value.equals("OFF")) {
            actual = "OFF";
        }
        if (value.equalsIgnoreCase(actual == null ? "" : actual)) {
            return null;
        }
        return variable + " is " + actual + ", it must be " + value + ": run SET GLOBAL " + variable + "=" + value
                + " and set " + variable + "=" + value + " in the server's config file";
    }

    private static void expect(Connection conn, String variable, String value, List<String> problems)
            throws SQLException {
        String p = problem(variable, queryString(conn, "SELECT @@GLOBAL." + variable), value);
        if (p != null) {
            problems.add(p);
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

    private static String queryString(Connection conn, String sql) throws SQLException {
        try (Statement st = conn.createStatement();
             ResultSet rs = st.executeQuery("/* vstream-connect:preflight */ " + sql)) {
            return rs.next() ? rs.getString(1) : null;
        }
    }
}
