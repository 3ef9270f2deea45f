package io.vstream.connect.quickstart;

import io.vstream.connect.local.ManagedProcess;
import io.vstream.connect.local.Sleeper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;

/**
 * One local shard: a {@code mariadbd} of Debian's {@code mariadb-server} with its own datadir under the run directory,
 * listening on 127.0.0.1 only, with what the source connector needs (binlog ROW, FULL row image and metadata, strict
 * GTIDs, a distinct {@code server_id}). Initializes the datadir, starts and stops the server; touches no other server.
 */
public final class MariaDbShard {
    private static final boolean RUNNING_AS_ROOT = "root".equals(System.getProperty("user.name"));

    private final String shard;
    private final Path dir;
    private final int port;
    private final int serverId;
    private final Path pidDir;
    private final boolean dieWithThisJvm;
    private ManagedProcess process;

    public MariaDbShard(String shard, Path dir, int port, int serverId, Path pidDir, boolean dieWithThisJvm) {
        this.shard = shard;
        this.dir = dir;
        this.port = port;
        this.serverId = serverId;
        this.pidDir = pidDir;
        this.dieWithThisJvm = dieWithThisJvm;
    }

    public String shard() {
        return shard;
    }

    public int port() {
        return port;
    }

    public String hostPort() {
        return "127.0.0.1:" + port;
    }

    public Path logFile() {
        return dir.resolve("mariadbd.log");
    }

    /** Runs {@code mariadb-install-db} into a fresh datadir (1-3 s); may run for several shards at once. */
    public ManagedProcess initialize() {
        try {
            Files.createDirectories(dir.resolve("data"));
            Files.createDirectories(dir.resolve("tmp"));
            Files.writeString(configFile(), config());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return ManagedProcess.start("mariadb-install-db " + shard, List.of(binary("mariadb-install-db"),
                "--defaults-file=" + configFile(), "--auth-root-authentication-method=normal", "--skip-test-db"),
                dir.resolve("install.log"), null);
    }

    /** Starts {@code mariadbd} and waits until it takes connections. */
    public void start(Duration timeout) {
        process = ManagedProcess.start("mariadbd_" + shard,
                List.of(binary("mariadbd"), "--defaults-file=" + configFile()), logFile(), pidDir, dieWithThisJvm);
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            try {
                connect("").close();
                return;
            } catch (SQLException e) {
                process.checkAlive();
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("mariadbd of shard " + shard + " did not take connections within "
                            + timeout.toSeconds() + " s; log " + logFile() + ":\n" + process.logTail(20));
                }
                Sleeper.sleep(100);
            }
        }
    }

    public String jdbcUrl(String database) {
        return "jdbc:mariadb://127.0.0.1:" + port + "/" + database + "?user=root&connectTimeout=2000";
    }

    /** A connection as root (no password, local only). */
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

    /** {@code SHUTDOWN}, then SIGTERM/SIGKILL if it is still there. */
    public void stop() {
        if (process == null || !process.isAlive()) {
            return;
        }
        try (Connection c = connect(""); Statement st = c.createStatement()) {
            st.execute("SHUTDOWN");
        } catch (SQLException e) {
            // it may have gone already; stop() below makes sure
        }
        process.stop(Duration.ofSeconds(30));
    }

    private Path configFile() {
        return dir.resolve("my.cnf");
    }

    private String config() {
        return String.join("\n", List.of(
                "# shard " + shard + " of the quickstart keyspace; what the vstream source needs is under 'binlog'",
                "[mysqld]",
                // mariadbd refuses to run as root unless told to; as another user, it runs as that user
                RUNNING_AS_ROOT ? "user=root" : "# not root: runs as " + System.getProperty("user.name"),
                "datadir=" + dir.resolve("data"),
                "socket=" + dir.resolve("mariadbd.sock"),
                "pid_file=" + dir.resolve("mariadbd.pid"),
                "tmpdir=" + dir.resolve("tmp"),
                "port=" + port,
                "bind_address=127.0.0.1",
                "skip_name_resolve",
                "server_id=" + serverId,
                "# binlog",
                "log_bin=mysql-bin",
                "binlog_format=ROW",
                "binlog_row_image=FULL",
                "binlog_row_metadata=FULL",
                "gtid_strict_mode=ON",
                "log_slave_updates=ON",
                "# small",
                "innodb_buffer_pool_size=128M",
                "innodb_log_file_size=64M",
                "innodb_flush_log_at_trx_commit=2",
                "sync_binlog=0",
                "performance_schema=OFF",
                "character_set_server=utf8mb4",
                "collation_server=utf8mb4_general_ci",
                ""));
    }

    static String binary(String name) {
        for (String dir : List.of("/usr/sbin", "/usr/bin", "/usr/local/sbin", "/usr/local/bin")) {
            Path p = Path.of(dir, name);
            if (Files.isExecutable(p)) {
                return p.toString();
            }
        }
        throw new IllegalStateException(name + " not found: install Debian's MariaDB server"
                + " (apt-get install -y mariadb-server mariadb-client)");
    }

    @Override
    public String toString() {
        return "shard " + shard + " (" + hostPort() + ")";
    }
}
