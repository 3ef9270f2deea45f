package io.vstream.connect.coordinator;

import io.vstream.connect.core.error.ServerErrors;
import io.vstream.connect.jdbc.TaggedConnection;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;

/**
 * Opens the coordinator's connections (credentials never logged, TLS as configured, every statement tagged: {@link
 * TaggedConnection}) and runs its one-value queries.
 */
final class Servers {
    private Servers() {
    }

    static Connection open(VStreamCoordinatorConnectorConfig.Endpoint e) throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", e.user());
        p.setProperty("password", e.password() == null ? "" : e.password().value());
        p.setProperty("connectTimeout", "10000");
        e.tls().applyTo(p);
        Connection c;
        try {
            c = DriverManager.getConnection("jdbc:mariadb://" + e.host() + ":" + e.port() + "/", p);
        } catch (SQLException failed) {
            // MariaDB's answer to a plain connection, too
            if (failed.getErrorCode() == ServerErrors.ACCESS_DENIED && !e.tls().enabled()) {
                throw new SQLException(failed.getMessage() + " (a wrong user or password" + e.tls()
                        .accessDeniedHint("source./target.") + ")", failed.getSQLState(), failed.getErrorCode(),
                        failed);
            }
            throw e.tls().explain(failed, e.host() + ":" + e.port(), "source./target.");
        }
        c = TaggedConnection.wrap(c, "coordinator"); // every statement names its sender (finer tags kept)
        try (Statement st = c.createStatement()) {
            st.execute("SET SESSION time_zone = '+00:00'");
        }
        return c;
    }

    static String string(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            return rs.next() ? rs.getString(1) : null;
        }
    }
}
