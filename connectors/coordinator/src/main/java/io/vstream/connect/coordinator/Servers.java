package io.vstream.connect.coordinator;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;

/** Opens the coordinator's connections (credentials never logged) and runs its one-value queries. */
final class Servers {
    private Servers() {
    }

    static Connection open(VStreamCoordinatorConnectorConfig.Endpoint e) throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", e.user());
        p.setProperty("password", e.password() == null ? "" : e.password().value());
        p.setProperty("connectTimeout", "10000");
        p.setProperty("sslMode", "disable");
        Connection c = DriverManager.getConnection("jdbc:mariadb://" + e.host() + ":" + e.port() + "/", p);
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
