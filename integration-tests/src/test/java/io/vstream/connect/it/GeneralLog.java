package io.vstream.connect.it;

import io.vstream.connect.testsupport.db.MariaDbServer;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The servers' general query log, as a table, while a test runs: which statements the connectors' accounts sent.
 * Used to check that every statement our code writes carries its {@code /* vstream-connect:<role> *&#47;} tag (what
 * the JDBC driver and the binlog client send by themselves cannot: their session setup, {@code COMMIT}, the binlog
 * dump's handshake).
 */
final class GeneralLog implements AutoCloseable {
    /** Sent by the MariaDB JDBC driver or the binlog client on their own, never by our code. */
    private static final Pattern NOT_OURS = Pattern.compile("(?is)\\s*("
            + "set autocommit=\\d.*|commit|rollback|set session transaction isolation level .*"
            + "|set (session )?transaction (read only|read write)|set names .*|select @@.*"
            + "|show master status|show global variables like .*|show variables like .*"
            + "|set @master_binlog_checksum.*|set @mariadb_slave_capability.*|set @slave_connect_state.*"
            + "|set @slave_gtid_strict_mode.*|set @slave_gtid_ignore_duplicates.*|set @master_heartbeat_period.*"
            + "|set (session )?sql_mode\\s*=\\s*concat\\(@@sql_mode.*|kill query \\d+|xa .*)");

    private final List<MariaDbServer> servers;

    private GeneralLog(List<MariaDbServer> servers) {
        this.servers = List.copyOf(servers);
    }

    /** Starts logging every statement on {@code servers} into {@code mysql.general_log} (emptied first). */
    static GeneralLog start(List<MariaDbServer> servers) {
        for (MariaDbServer s : servers) {
            // outside the binlog: a replica's own GTID would break its replication in gtid_strict_mode
            s.execute("mysql", "SET SESSION sql_log_bin = 0", "SET GLOBAL general_log = OFF",
                    "SET GLOBAL log_output = 'TABLE'", "TRUNCATE TABLE mysql.general_log", "SET GLOBAL general_log = ON");
        }
        return new GeneralLog(servers);
    }

    /**
     * The distinct statements (server: text) that accounts whose name starts with {@code userPrefix} sent without a
     * vstream-connect tag, leaving out what the driver or the binlog client send by themselves.
     */
    List<String> untagged(String userPrefix) throws SQLException {
        Set<String> seen = new HashSet<>();
        List<String> out = new ArrayList<>();
        for (MariaDbServer s : servers) {
            try (Connection c = s.connect("mysql"); PreparedStatement ps = c.prepareStatement("SELECT"
                    + " CONVERT(argument USING utf8mb4) FROM mysql.general_log WHERE command_type IN ('Query',"
                    + " 'Prepare') AND user_host LIKE ?")) {
                ps.setString(1, userPrefix + "%");
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        String sql = rs.getString(1);
                        if (sql == null || sql.stripLeading().startsWith("/* vstream-connect:")
                                || NOT_OURS.matcher(sql).matches()) {
                            continue;
                        }
                        String shown = sql.length() > 200 ? sql.substring(0, 200) + "..." : sql;
                        if (seen.add(shown)) {
                            out.add(s + ": " + shown);
                        }
                    }
                }
            }
        }
        return out;
    }

    @Override
    public void close() {
        for (MariaDbServer s : servers) {
            if (s.isRunning()) {
                s.execute("mysql", "SET SESSION sql_log_bin = 0", "SET GLOBAL general_log = OFF",
                        "TRUNCATE TABLE mysql.general_log");
            }
        }
    }
}
