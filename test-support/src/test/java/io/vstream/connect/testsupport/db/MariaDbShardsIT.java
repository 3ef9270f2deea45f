package io.vstream.connect.testsupport.db;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Self-test of the shard harness against real mariadbd processes. */
class MariaDbShardsIT {

    @RegisterExtension
    static final MariaDbShards SHARDS = MariaDbShards.builder().count(2).build();

    @Test
    void serversHaveDistinctIdsPortsAndDatadirs() {
        MariaDbServer a = SHARDS.server(0);
        MariaDbServer b = SHARDS.server(1);
        assertThat(a.serverId()).isNotEqualTo(b.serverId());
        assertThat(a.port()).isNotEqualTo(b.port());
        assertThat(a.datadir()).isNotEqualTo(b.datadir());
        assertThat(a.datadir().getFileName().toString()).startsWith("MariaDbShardsIT-0-");
        assertThat(a.queryLong(null, "SELECT @@server_id")).isEqualTo(a.serverId());
        assertThat(b.queryLong(null, "SELECT @@port")).isEqualTo(b.port());
        assertThat(a.logFile()).exists();
    }

    @Test
    void shardSettingsAreInPlace() {
        for (MariaDbServer server : SHARDS.servers()) {
            assertThat(server.queryString(null, "SELECT @@binlog_format")).isEqualTo("ROW");
            assertThat(server.queryString(null, "SELECT @@binlog_row_image")).isEqualTo("FULL");
            assertThat(server.queryString(null, "SELECT @@binlog_row_metadata")).isEqualTo("FULL");
            assertThat(server.queryLong(null, "SELECT @@log_bin")).isEqualTo(1);
            assertThat(server.queryLong(null, "SELECT @@gtid_strict_mode")).isEqualTo(1);
            assertThat(server.queryLong(null, "SELECT @@log_slave_updates")).isEqualTo(1);
            assertThat(server.queryLong(null, "SELECT @@gtid_domain_id")).isZero();
            assertThat(server.queryLong(null, "SELECT @@performance_schema")).isZero();
            assertThat(server.queryLong(null, "SELECT @@innodb_buffer_pool_size")).isEqualTo(64L << 20);
            assertThat(server.queryLong(null, "SELECT @@skip_name_resolve")).isEqualTo(1);
            assertThat(server.queryString(null, "SELECT @@bind_address")).isEqualTo("127.0.0.1");
        }
    }

    @Test
    void freshDatabasesAreDistinctAndExistOnEveryShard(TestInfo test) {
        String first = SHARDS.freshDatabase();
        String second = SHARDS.freshDatabase();
        String odd = SHARDS.server(0).freshDatabase("Weird name-with `quotes` and UPPER (1)");
        String fromTest = SHARDS.server(1).freshDatabase(test);

        assertThat(first).startsWith("fresh_databases_are_distinct").isNotEqualTo(second);
        assertThat(odd).matches("[a-z0-9_]{1,64}");
        assertThat(fromTest).startsWith("fresh_databases_are_distinct");
        for (MariaDbServer server : SHARDS.servers()) {
            assertThat(server.queryLong(null, "SELECT COUNT(*) FROM information_schema.SCHEMATA "
                    + "WHERE SCHEMA_NAME IN (?, ?)", first, second)).isEqualTo(2);
        }
    }

    @Test
    void replicaReceivesRowsWithGtids() {
        MariaDbServer primary = SHARDS.server(0);
        MariaDbServer replica = SHARDS.startReplica(0);
        String db = SHARDS.freshDatabase();
        primary.execute(db, "CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(10))",
                "INSERT INTO t VALUES (1, 'a'), (2, 'b')");

        replica.awaitCaughtUpWith(primary, Duration.ofSeconds(30));

        assertThat(replica.serverId()).isNotIn(primary.serverId(), SHARDS.server(1).serverId());
        assertThat(replica.queryLong(db, "SELECT COUNT(*) FROM t")).isEqualTo(2);
        assertThat(replica.queryString(null, "SELECT @@gtid_slave_pos")).isEqualTo(primary.gtidBinlogPos());
    }

    @Test
    void restartAndCrashKeepCommittedData() {
        MariaDbServer server = SHARDS.server(1);
        String db = SHARDS.freshDatabase();
        int port = server.port();
        server.execute(db, "CREATE TABLE t (id INT PRIMARY KEY)", "INSERT INTO t VALUES (1)");

        server.stop();
        assertThat(server.isRunning()).isFalse();
        server.start();
        server.execute(db, "INSERT INTO t VALUES (2)");
        server.kill();
        assertThat(server.isRunning()).isFalse();
        server.start();

        assertThat(server.port()).isEqualTo(port);
        assertThat(server.queryLong(db, "SELECT COUNT(*) FROM t")).isEqualTo(2);
    }

    @Test
    void closeLeavesNoProcessAndKeepsTheLog() throws Exception {
        MariaDbShards extra = MariaDbShards.builder().name("MariaDbShardsIT-close")
                .extraConfig("performance_schema=ON").gtidDomainId(7).build().start();
        MariaDbServer server = extra.server(0);
        assertThat(server.queryLong(null, "SELECT @@performance_schema")).isEqualTo(1);
        assertThat(server.queryLong(null, "SELECT @@gtid_domain_id")).isEqualTo(7);
        assertThat(mariadbdRunningIn(server)).isTrue();

        extra.close();

        assertThat(mariadbdRunningIn(server)).isFalse();
        assertThat(server.isRunning()).isFalse();
        assertThat(server.logFile()).exists();
        assertThat(Files.exists(server.datadir().resolve("mysql"))).isFalse();
    }

    @Test
    void aFailedStartShowsTheLogTail() {
        MariaDbShards broken = MariaDbShards.builder().name("MariaDbShardsIT-broken")
                .extraConfig("no_such_setting=1").build();

        assertThatThrownBy(broken::start)
                .hasMessageContaining("exited with code")
                .hasMessageContaining("unknown variable 'no_such_setting=1'");
    }

    private static boolean mariadbdRunningIn(MariaDbServer server) throws Exception {
        Process pgrep = new ProcessBuilder("pgrep", "-f", "mariadbd --defaults-file=" + server.datadir())
                .redirectErrorStream(true).start();
        assertThat(pgrep.waitFor(10, TimeUnit.SECONDS)).isTrue();
        return pgrep.exitValue() == 0;
    }
}
