package io.vstream.connect.sink;

import io.vstream.connect.core.error.ServerErrors;
import io.vstream.connect.core.sql.WriterSession;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;

/**
 * Opens connections to the target with the session the applier needs ({@link WriterSession}): READ COMMITTED (no gap
 * locks, which would hold up the server copy's inserts into a ghost), UTC time zone (temporal values are bound as
 * UTC), a strict SQL mode that still accepts zero dates (a value the column cannot hold is an error, never silently
 * cut), no foreign-key checks (rows arrive in source order, tables in copy order) and, with {@code target.binlog=off},
 * no binlogging of our writes. Credentials are never logged.
 */
final class TargetConnections {
    private final SinkSettings settings;

    TargetConnections(SinkSettings settings) {
        this.settings = settings;
    }

    Connection open() throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", settings.user());
        p.setProperty("password", settings.password());
        p.setProperty("connectTimeout", String.valueOf(settings.connectTimeout().toMillis()));
        settings.tls().applyTo(p);
        p.setProperty("useBulkStmts", "true");
        String url = "jdbc:mariadb://" + settings.host() + ":" + settings.port() + "/";
        Connection c;
        try {
            c = DriverManager.getConnection(url, p);
        } catch (SQLException e) {
            if (e.getErrorCode() == ServerErrors.ACCESS_DENIED) {
                throw new SQLException("The target " + settings.host() + ":" + settings.port() + " refused user '"
                        + settings.user() + "': wrong user or password (check target.user and target.password"
                        + settings.tls().accessDeniedHint("target.") + ")",
                        e.getSQLState(), e.getErrorCode(), e);
            }
            throw settings.tls().explain(e, "the target " + settings.host() + ":" + settings.port(), "target.");
        }
        c = io.vstream.connect.jdbc.TaggedConnection.wrap(c, "sink"); // every statement names its sender
        try (Statement st = c.createStatement()) {
            st.execute(WriterSession.SET_READ_COMMITTED);
            st.execute(WriterSession.SET_UTC);
            st.execute(WriterSession.SET_SQL_MODE);
            st.execute("SET SESSION foreign_key_checks = 0");
            if (!settings.binlog()) {
                try {
                    st.execute("SET SESSION sql_log_bin = 0");
                } catch (SQLException e) {
                    c.close();
                    throw new SQLException("The target user '" + settings.user() + "' may not turn off binary"
                            + " logging for its session (target.binlog=off): grant it BINLOG ADMIN (MariaDB) or"
                            + " SYSTEM_VARIABLES_ADMIN (MySQL), or set target.binlog=on (" + e.getMessage() + ")",
                            e.getSQLState(), e.getErrorCode(), e);
                }
            }
        }
        c.setAutoCommit(false);
        return c;
    }
}
