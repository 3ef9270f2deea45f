package io.vstream.connect.quickstart;

import io.vstream.connect.local.MariaDbBinaries;
import io.vstream.connect.local.MariaDbConfig;
import io.vstream.connect.local.MariaDbProcess;
import io.vstream.connect.local.ManagedProcess;
import io.vstream.connect.local.load.DatabaseServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * One local shard: a {@code mariadbd} of Debian's {@code mariadb-server} with its own datadir under the run directory,
 * listening on 127.0.0.1 only, with what the source connector needs (binlog ROW, FULL row image and metadata, strict
 * GTIDs, a distinct {@code server_id}), launched by local-runtime as the tests' servers are. Initializes the datadir,
 * starts and stops the server; touches no other server.
 */
public final class MariaDbShard implements DatabaseServer {
    /** MariaDB's default {@code max_connections}. */
    private static final int MAX_CONNECTIONS = 151;
    /** The quickstart's memory and durability, over local-runtime's defaults. */
    private static final List<String> SETTINGS = List.of(
            "innodb_buffer_pool_size=128M",
            "innodb_log_file_size=64M",
            "innodb_flush_log_at_trx_commit=2",
            "sync_binlog=0");

    private final String shard;
    private final Path dir;
    private final MariaDbConfig config;
    private final MariaDbBinaries binaries = MariaDbBinaries.find();
    private final MariaDbProcess process;

    public MariaDbShard(String shard, Path dir, int port, int serverId, Path pidDir, boolean dieWithThisJvm) {
        this.shard = shard;
        this.dir = dir;
        this.config = new MariaDbConfig(dir, dir.resolve("data"), dir.resolve("tmp"), dir.resolve("mariadbd.sock"),
                port, serverId, 0, MAX_CONNECTIONS, SETTINGS);
        this.process = new MariaDbProcess("mariadbd_" + shard, binaries.mariadbd(), config, pidDir, dieWithThisJvm);
    }

    public String shard() {
        return shard;
    }

    public int port() {
        return config.port();
    }

    public String hostPort() {
        return "127.0.0.1:" + port();
    }

    public Path logFile() {
        return process.logFile();
    }

    /** Runs {@code mariadb-install-db} into a fresh datadir (1-3 s); may run for several shards at once. */
    public ManagedProcess initialize() {
        try {
            config.write();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return binaries.startInstall(config.file(), dir.resolve("install.log"));
    }

    /** Starts {@code mariadbd} and waits until it takes connections. */
    public void start() {
        process.start(jdbcUrl(""));
    }

    public String jdbcUrl(String database) {
        return "jdbc:mariadb://127.0.0.1:" + port() + "/" + database + "?user=root&connectTimeout=2000";
    }

    /** A connection as root (no password, local only). */
    @Override
    public Connection connect(String database) throws SQLException {
        return DriverManager.getConnection(jdbcUrl(database));
    }

    public void execute(String database, String... sql) throws SQLException {
        try (Connection c = connect(database); Statement st = c.createStatement()) {
            for (String each : sql) {
                st.execute(each);
            }
        }
    }

    /** {@code SHUTDOWN}, then SIGKILL if it is still there 30 s later. */
    public void stop() {
        process.requestShutdown(jdbcUrl(""));
        process.awaitExit();
    }

    @Override
    public String toString() {
        return "shard " + shard + " (" + hostPort() + ")";
    }
}
