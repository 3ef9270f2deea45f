package io.vstream.connect.testsupport.db;

import io.vstream.connect.core.sql.SqlIdentifiers;
import io.vstream.connect.local.DataDirFiles;
import io.vstream.connect.local.MariaDbConfig;
import io.vstream.connect.local.MariaDbProcess;
import io.vstream.connect.local.load.DatabaseServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One test MariaDB server: a {@code mariadbd} process with its own datadir, TCP port on 127.0.0.1 and
 * {@code server_id}, binlog ROW/FULL with strict GTIDs, user {@code root} without password. Gives JDBC
 * access, per-test databases, restart/kill for crash tests and native GTID replication from another test
 * server. Created by {@link MariaDbShards}; its process is local-runtime's {@link MariaDbProcess}; touches only its
 * own {@code mariadbd}.
 */
public final class MariaDbServer implements DatabaseServer, AutoCloseable {

    public static final String HOST = "127.0.0.1";
    public static final String USER = "root";
    public static final String PASSWORD = "";

    private static final Logger LOG = LoggerFactory.getLogger(MariaDbServer.class);
    private static final int PORT_ATTEMPTS = 3;
    private static final Set<String> KEPT_ON_CLOSE = Set.of(MariaDbConfig.LOG_FILE, MariaDbConfig.FILE_NAME);

    private final String name;
    private final MariaDbProcess process;
    private final boolean keepData;
    private volatile MariaDbConfig config;
    private boolean startedOnce;

    MariaDbServer(String name, MariaDbConfig config, MariaDbProcess process, boolean keepData) {
        this.name = name;
        this.config = config;
        this.process = process;
        this.keepData = keepData;
    }

    public String name() {
        return name;
    }

    public String host() {
        return HOST;
    }

    public int port() {
        return config.port();
    }

    public long serverId() {
        return config.serverId();
    }

    public int gtidDomainId() {
        return config.gtidDomainId();
    }

    public Path datadir() {
        return config.datadir();
    }

    /** The file that receives the server's error log (stderr); kept after {@link #close()}. */
    public Path logFile() {
        return process.logFile();
    }

    /** The last lines of {@link #logFile()}, for assertion messages. */
    public String logTail() {
        return process.logTail();
    }

    /**
     * A mariadb-java-client URL as root; {@code database} may be null or empty for none. To a server with a
     * certificate ({@link TestCertificates#serverConfig}) it connects with TLS, unverified: the harness is not what the
     * TLS tests check.
     */
    public String jdbcUrl(String database) {
        return "jdbc:mariadb://" + HOST + ":" + port() + "/" + (database == null ? "" : database) + "?user=" + USER
                + (config.tls() ? "&sslMode=trust" : "");
    }

    @Override
    public Connection connect(String database) throws SQLException {
        return DriverManager.getConnection(jdbcUrl(database));
    }

    /** Runs each statement in its own round trip, autocommit on. */
    public void execute(String database, String... sql) {
        try (Connection connection = connect(database); Statement statement = connection.createStatement()) {
            for (String each : sql) {
                statement.execute(each);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("SQL failed on " + this + ": " + e.getMessage(), e);
        }
    }

    /** The first column of the first row, as a long; fails when there is no row or it is NULL. */
    public long queryLong(String database, String sql, Object... params) {
        String value = queryString(database, sql, params);
        if (value == null) {
            throw new IllegalStateException("NULL result on " + this + " for: " + sql);
        }
        return Long.parseLong(value);
    }

    /** The first column of the first row, as text (null for SQL NULL); fails when there is no row. */
    public String queryString(String database, String sql, Object... params) {
        try (Connection connection = connect(database);
             PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                statement.setObject(i + 1, params[i]);
            }
            try (ResultSet rows = statement.executeQuery()) {
                if (!rows.next()) {
                    throw new IllegalStateException("No row on " + this + " for: " + sql);
                }
                return rows.getString(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Query failed on " + this + ": " + e.getMessage(), e);
        }
    }

    /** {@code @@gtid_binlog_pos}, e.g. {@code "0-1042-17"} (empty before the first write). */
    public String gtidBinlogPos() {
        String pos = queryString(null, "SELECT @@gtid_binlog_pos");
        return pos == null ? "" : pos;
    }

    public void createDatabase(String database) {
        execute(null, "CREATE DATABASE " + quote(database));
    }

    /** Creates and returns a database named after {@code hint} (sanitized) plus a JVM-wide counter. */
    public String freshDatabase(String hint) {
        String database = DatabaseNames.next(hint);
        createDatabase(database);
        return database;
    }

    public String freshDatabase(TestInfo test) {
        return freshDatabase(test.getTestMethod().map(m -> m.getName()).orElse(test.getDisplayName()));
    }

    public String freshDatabase(ExtensionContext context) {
        return freshDatabase(context.getTestMethod().map(m -> m.getName()).orElse(context.getDisplayName()));
    }

    /**
     * Makes this server a GTID replica of {@code primary} ({@code MASTER_USE_GTID=slave_pos}) and starts
     * replicating. This server's binlog must hold no GTIDs of the primary's domain.
     */
    public void replicateFrom(MariaDbServer primary) {
        execute(null,
                "CHANGE MASTER TO MASTER_HOST='" + primary.host() + "', MASTER_PORT=" + primary.port()
                        + ", MASTER_USER='" + USER + "', MASTER_PASSWORD='" + PASSWORD + "'"
                        + ", MASTER_CONNECT_RETRY=1, MASTER_USE_GTID=slave_pos",
                "START SLAVE");
        LOG.info("{} replicates from {}", this, primary);
    }

    /** Waits until this replica has applied {@code gtidPos}; fails with the replication status otherwise. */
    public void awaitGtid(String gtidPos, Duration timeout) {
        long result = queryLong(null, "SELECT MASTER_GTID_WAIT(?, ?)", gtidPos, timeout.toMillis() / 1000.0);
        if (result != 0) {
            throw new IllegalStateException(this + " did not reach GTID position " + gtidPos + " within " + timeout
                    + "; @@gtid_slave_pos=" + queryString(null, "SELECT @@gtid_slave_pos")
                    + ", replication status: " + replicationErrors());
        }
    }

    /** Waits until this replica has applied everything {@code primary} has binlogged so far. */
    public void awaitCaughtUpWith(MariaDbServer primary, Duration timeout) {
        awaitGtid(primary.gtidBinlogPos(), timeout);
    }

    private String replicationErrors() {
        try (Connection connection = connect(null); Statement statement = connection.createStatement();
             ResultSet status = statement.executeQuery("SHOW SLAVE STATUS")) {
            if (!status.next()) {
                return "not a replica";
            }
            return "IO=" + status.getString("Slave_IO_Running") + " " + status.getString("Last_IO_Error")
                    + "; SQL=" + status.getString("Slave_SQL_Running") + " " + status.getString("Last_SQL_Error");
        } catch (SQLException e) {
            return "unavailable (" + e.getMessage() + ")";
        }
    }

    public boolean isRunning() {
        return process.isRunning();
    }

    /** Starts the server (again), with the same datadir and port; data survives a stop or a kill. */
    public synchronized void start() {
        for (int attempt = 1; ; attempt++) {
            try {
                config.write();
                process.start(jdbcUrl(null) + "&connectTimeout=1000");
                startedOnce = true;
                return;
            } catch (IOException e) {
                throw new UncheckedIOException("Could not write " + config.file(), e);
            } catch (MariaDbProcess.MariaDbStartupException e) {
                if (startedOnce || !e.portInUse() || attempt == PORT_ATTEMPTS) {
                    throw e;
                }
                LOG.info("Port {} of {} was taken meanwhile; retrying on another port", port(), name);
                config = config.withPort(freePort());
            }
        }
    }

    /** Clean shutdown ({@code SHUTDOWN}, SIGKILL after 30 s); {@link #start()} brings it back. */
    public synchronized void stop() {
        process.requestShutdown(jdbcUrl(null));
        process.awaitExit();
    }

    /** SIGKILL: a crash. {@link #start()} brings it back through crash recovery. */
    public synchronized void kill() {
        LOG.info("Killing mariadbd {} (pid {})", name, process.pid());
        process.killNow();
    }

    void requestShutdown() {
        process.requestShutdown(jdbcUrl(null));
    }

    /** Stops the server and prunes its datadir to the log and config (unless data is kept). */
    @Override
    public synchronized void close() {
        try {
            if (isRunning()) {
                stop();
            }
        } finally {
            if (!keepData) {
                DataDirFiles.deleteAllExcept(datadir(), KEPT_ON_CLOSE);
            }
        }
    }

    static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(HOST))) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("Could not find a free TCP port on " + HOST, e);
        }
    }

    static String quote(String identifier) {
        return SqlIdentifiers.quote(identifier);
    }

    @Override
    public String toString() {
        return "mariadbd " + name + " (" + HOST + ":" + port() + ", server_id " + serverId() + ")";
    }
}
