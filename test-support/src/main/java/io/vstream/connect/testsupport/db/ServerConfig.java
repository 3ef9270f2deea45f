package io.vstream.connect.testsupport.db;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The {@code my.cnf} of one test {@code mariadbd}: a shard with binlog ROW/FULL and strict GTIDs, small
 * memory, listening on 127.0.0.1 only. Writes files; touches no server.
 *
 * @param datadir        the server's own data directory (also holds the config, the socket and the log)
 * @param socket         the Unix socket path (in the datadir unless that path is too long for a socket)
 * @param port           the TCP port on 127.0.0.1
 * @param serverId       the {@code server_id}
 * @param gtidDomainId   the {@code gtid_domain_id}
 * @param maxConnections the {@code max_connections}
 * @param extraLines     lines appended to {@code [mysqld]}, overriding the defaults above them
 */
record ServerConfig(Path datadir, Path socket, int port, long serverId, int gtidDomainId, int maxConnections,
                    List<String> extraLines) {

    static final String FILE_NAME = "my.cnf";

    /** InnoDB file layout settings: the template and every copy of it must agree on these. */
    private static final List<String> STORAGE = List.of(
            "innodb_buffer_pool_size=64M",
            "innodb_log_file_size=16M",
            "innodb_buffer_pool_dump_at_shutdown=OFF",
            "innodb_buffer_pool_load_at_startup=OFF",
            "performance_schema=OFF",
            "character_set_server=utf8mb4",
            "collation_server=utf8mb4_general_ci");

    ServerConfig {
        extraLines = List.copyOf(extraLines);
    }

    Path file() {
        return datadir.resolve(FILE_NAME);
    }

    /** Whether the server has a certificate ({@code ssl_cert} among its extra lines): clients then use TLS. */
    boolean tls() {
        return extraLines.stream().anyMatch(l -> l.replace('-', '_').startsWith("ssl_cert"));
    }

    ServerConfig withPort(int newPort) {
        return new ServerConfig(datadir, socket, newPort, serverId, gtidDomainId, maxConnections, extraLines);
    }

    String render() {
        StringBuilder out = new StringBuilder();
        out.append("# Written by vstream-connect test-support for one test mariadbd; rewritten on each start.\n");
        out.append("[mysqld]\n");
        line(out, "user=root");
        line(out, "datadir=" + datadir);
        line(out, "socket=" + socket);
        line(out, "pid_file=" + datadir.resolve("mariadbd.pid"));
        line(out, "tmpdir=" + tmpdir(datadir)); // its own: servers sharing /tmp have clashed on temporary tables
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
            out.append("# extra lines given by the test\n");
            extraLines.forEach(extra -> line(out, extra));
        }
        return out.toString();
    }

    /** A server's temporary directory: beside its datadir (inside, it would show as a database). */
    static Path tmpdir(Path datadir) {
        return datadir.resolveSibling(datadir.getFileName() + ".tmp");
    }

    void write() throws IOException {
        Files.createDirectories(tmpdir(datadir));
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
