package io.vstream.connect.local;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The {@code my.cnf} of one local {@code mariadbd}: a shard with binlog ROW/FULL and strict GTIDs, small memory,
 * listening on 127.0.0.1 only. Writes files; touches no server.
 *
 * @param home           where the config, its log ({@code mariadbd.log}) and its pid file go
 * @param datadir        the server's own data directory
 * @param tmpdir         its own temporary directory (servers sharing /tmp have clashed on temporary tables)
 * @param socket         the Unix socket path
 * @param port           the TCP port on 127.0.0.1
 * @param serverId       the {@code server_id}
 * @param gtidDomainId   the {@code gtid_domain_id}
 * @param maxConnections the {@code max_connections}
 * @param extraLines     lines appended to {@code [mysqld]}, overriding the defaults above them
 */
public record MariaDbConfig(Path home, Path datadir, Path tmpdir, Path socket, int port, long serverId,
                            int gtidDomainId, int maxConnections, List<String> extraLines) {

    public static final String FILE_NAME = "my.cnf";
    public static final String LOG_FILE = "mariadbd.log";
    private static final boolean RUNNING_AS_ROOT = "root".equals(System.getProperty("user.name"));

    /** InnoDB file layout settings: the template and every copy of it must agree on these. */
    private static final List<String> STORAGE = List.of(
            "innodb_buffer_pool_size=64M",
            "innodb_log_file_size=16M",
            "innodb_buffer_pool_dump_at_shutdown=OFF",
            "innodb_buffer_pool_load_at_startup=OFF",
            "performance_schema=OFF",
            "character_set_server=utf8mb4",
            "collation_server=utf8mb4_general_ci");

    public MariaDbConfig {
        extraLines = List.copyOf(extraLines);
    }

    /** A server whose config and log are in its datadir, and its temporary directory beside it (the tests'). */
    public static MariaDbConfig inDatadir(Path datadir, Path socket, int port, long serverId, int gtidDomainId,
                                          int maxConnections, List<String> extraLines) {
        return new MariaDbConfig(datadir, datadir, tmpdir(datadir), socket, port, serverId, gtidDomainId,
                maxConnections, extraLines);
    }

    public Path file() {
        return home.resolve(FILE_NAME);
    }

    public Path logFile() {
        return home.resolve(LOG_FILE);
    }

    /** Whether the server has a certificate ({@code ssl_cert} among its extra lines): clients then use TLS. */
    public boolean tls() {
        return extraLines.stream().anyMatch(l -> l.replace('-', '_').startsWith("ssl_cert"));
    }

    public MariaDbConfig withPort(int newPort) {
        return new MariaDbConfig(home, datadir, tmpdir, socket, newPort, serverId, gtidDomainId, maxConnections,
                extraLines);
    }

    String render() {
        StringBuilder out = new StringBuilder();
        out.append("# Written by vstream-connect for one local mariadbd; rewritten on each start.\n");
        out.append("[mysqld]\n");
        // mariadbd refuses to run as root unless told to; as another user, it runs as that user
        line(out, RUNNING_AS_ROOT ? "user=root" : "# not root: runs as " + System.getProperty("user.name"));
        line(out, "datadir=" + datadir);
        line(out, "socket=" + socket);
        line(out, "pid_file=" + home.resolve("mariadbd.pid"));
        line(out, "tmpdir=" + tmpdir);
        line(out, "port=" + port);
        line(out, "bind_address=127.0.0.1");
        line(out, "skip_name_resolve");
        line(out, "max_connections=" + maxConnections);
        line(out, "server_id=" + serverId);
        line(out, "gtid_domain_id=" + gtidDomainId);
        line(out, "log_bin=mysql-bin");
        line(out, "relay_log=relay-bin");
        line(out, "binlog_format=ROW");
        line(out, "binlog_row_image=FULL");
        line(out, "binlog_row_metadata=FULL");
        line(out, "gtid_strict_mode=ON");
        line(out, "log_slave_updates=ON");
        STORAGE.forEach(setting -> line(out, setting));
        if (!extraLines.isEmpty()) {
            out.append("# extra lines given by the caller\n");
            extraLines.forEach(extra -> line(out, extra));
        }
        return out.toString();
    }

    /** A server's temporary directory beside its datadir (inside, it would show as a database). */
    static Path tmpdir(Path datadir) {
        return datadir.resolveSibling(datadir.getFileName() + ".tmp");
    }

    /** Writes the config (and makes the datadir's and the temporary directory's folders). */
    public void write() throws IOException {
        Files.createDirectories(home);
        Files.createDirectories(datadir);
        Files.createDirectories(tmpdir);
        Files.writeString(file(), render(), StandardCharsets.UTF_8);
    }

    /** The config {@code mariadb-install-db} bootstraps the template datadir with. */
    static String templateConfig(Path templateDir) {
        StringBuilder out = new StringBuilder("[mysqld]\n");
        line(out, "user=root");
        line(out, "datadir=" + templateDir);
        line(out, "tmpdir=" + tmpdir(templateDir));
        line(out, "skip_networking");
        STORAGE.forEach(setting -> line(out, setting));
        return out.toString();
    }

    private static void line(StringBuilder out, String line) {
        out.append(line).append('\n');
    }
}
