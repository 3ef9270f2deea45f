package io.vstream.connect.source;

import io.vstream.connect.core.error.ServerErrors;
import io.vstream.connect.jdbc.TaggedConnection;
import io.vstream.connect.core.sql.TlsSettings;
import io.vstream.connect.core.topology.ShardAddress;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;

/**
 * Opens JDBC connections to a shard's server with the connector's credentials (never logged) and TLS settings; every
 * statement sent through them is tagged ({@link TaggedConnection}).
 */
final class ShardConnections {
    private ShardConnections() {
    }

    static Connection open(ShardAddress shard, String user, String password, int connectTimeoutMs, TlsSettings tls)
            throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", user);
        p.setProperty("password", password == null ? "" : password);
        p.setProperty("connectTimeout", String.valueOf(connectTimeoutMs));
        tls.applyTo(p);
        String url = "jdbc:mariadb://" + shard.host() + ":" + shard.port() + "/";
        try {
            return TaggedConnection.wrap(DriverManager.getConnection(url, p), "source");
        } catch (SQLException e) {
            if (e.getErrorCode() == ServerErrors.ACCESS_DENIED) {
                throw new SQLException("Shard " + shard.name() + " (" + shard.host() + ":" + shard.port()
                        + ") refused user '" + user + "': wrong user or password (check 'user' and 'password'"
                        + tls.accessDeniedHint("") + ")",
                        e.getSQLState(), e.getErrorCode(), e);
            }
            throw tls.explain(e, "shard " + shard.name() + " (" + shard.host() + ":" + shard.port() + ")", "");
        }
    }
}
