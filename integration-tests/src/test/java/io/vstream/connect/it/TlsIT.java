package io.vstream.connect.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.vstream.connect.core.event.TopicNames;
import io.vstream.connect.local.compare.ComparisonResult;
import io.vstream.connect.testsupport.compare.TableComparator;
import io.vstream.connect.testsupport.connect.ConnectCluster;
import io.vstream.connect.testsupport.db.MariaDbServer;
import io.vstream.connect.testsupport.db.MariaDbShards;
import io.vstream.connect.testsupport.db.TestCertificates;
import java.sql.Connection;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Every connection over TLS to servers that refuse any other ({@code require_secure_transport=ON}, certificates made
 * by the test): CDC and a clone (the source's JDBC and binlog connections, the sink's) with {@code verify-full}, an
 * online ALTER on two shards (the coordinator's connections, the source, the ghost sink) with {@code verify-ca}; a CA
 * that did not sign the servers' certificate, and a plain connection, each stop the task with a message that names
 * the keys to fix.
 */
class TlsIT {
    static final TestCertificates CERTS = TestCertificates.create();

    @RegisterExtension
    static final MariaDbShards SERVERS = MariaDbShards.builder().count(2).name("TlsIT")
            .extraConfig(CERTS.serverConfig()).build();

    static ConnectCluster connect;

    @BeforeAll
    static void startConnect() {
        connect = ConnectCluster.builder().name("tls-it").workers(1).start();
    }

    @AfterAll
    static void stopConnect() {
        if (connect != null) {
            connect.close();
        }
    }

    private static Map<String, String> tls(String prefix, String mode, String ca) {
        Map<String, String> c = new HashMap<>();
        c.put(prefix + "ssl.mode", mode);
        c.put(prefix + "ssl.ca", ca);
        return c;
    }

    @Test
    void cdcAndACloneRunOverVerifiedTls() throws Exception {
        String db = SERVERS.freshDatabase();
        MariaDbServer source = SERVERS.server(0);
        MariaDbServer target = SERVERS.server(1);
        target.execute("mysql", "DROP DATABASE `" + db + "`"); // the clone creates it
        source.execute(db, "CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(40) CHARACTER SET utf8mb4)",
                "INSERT INTO t SELECT seq, CONCAT('row ', seq, ' 😀') FROM seq_1_to_500");
        String src = "tls-src-" + db;
        String sink = "tls-sink-" + db;
        Map<String, String> sourceConfig = SourceConfigs.keyspace("ks", db, List.of(source), 1);
        sourceConfig.putAll(tls("", "verify-full", CERTS.ca().toString()));
        Map<String, String> sinkConfig = SinkConfigs.clone(TopicNames.shardTopic("vs_" + db, "ks", "-"), target);
        sinkConfig.putAll(tls("target.", "verify-full", CERTS.ca().toString()));
        try {
            connect.deploy(src, sourceConfig);
            connect.deploy(sink, sinkConfig);
            connect.awaitRunning(src, 1, Duration.ofSeconds(60));
            connect.awaitRunning(sink, 1, Duration.ofSeconds(60));
            // changes after the copy began: through the binlog client's TLS connection
            source.execute(db, "INSERT INTO t VALUES (501, 'late')", "UPDATE t SET v = 'changed' WHERE id <= 50",
                    "DELETE FROM t WHERE id BETWEEN 100 AND 110");
            awaitEqual(source, target, db, "t", Duration.ofSeconds(120));
            assertThat(target.queryLong(db, "SELECT COUNT(*) FROM t")).isEqualTo(490L);
        } finally {
            connect.delete(sink);
            connect.delete(src);
        }
    }

    @Test
    void anOnlineAlterRunsOverTlsOnEveryShard() throws Exception {
        String db = SERVERS.freshDatabase();
        List<MariaDbServer> shards = SERVERS.servers();
        for (int i = 0; i < 2; i++) {
            MariaDbServer s = shards.get(i);
            s.execute("mysql", DocumentedGrants.statements("cdc source", db).toArray(String[]::new));
            s.execute("mysql", DocumentedGrants.statements("online-ddl shard", db).toArray(String[]::new));
            s.execute(db, "CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(40))",
                    "INSERT INTO t SELECT seq * 2 + " + i + ", MD5(seq) FROM seq_1_to_300");
        }
        String coordinator = "tls-ddl-" + db;
        String src = "tls-ddl-src-" + db;
        String sink = "tls-ddl-sink-" + db;
        String status = "tls-ddl-status-" + db;
        Map<String, String> c = OnlineDdlConfigs.coordinator(shards, db, "t",
                "ADD COLUMN note VARCHAR(20) NULL, MODIFY v VARCHAR(64)", sink, status);
        c.putAll(tls("source.", "verify-ca", CERTS.ca().toString()));
        Map<String, String> sourceConfig = OnlineDdlConfigs.source(shards, db, "t", false);
        sourceConfig.putAll(tls("", "verify-ca", CERTS.ca().toString()));
        Map<String, String> sinkConfig = OnlineDdlConfigs.ghostSink(shards, db);
        sinkConfig.putAll(tls("target.", "verify-ca", CERTS.ca().toString()));
        try {
            connect.deploy(coordinator, c);
            connect.deploy(src, sourceConfig);
            connect.deploy(sink, sinkConfig);
            for (int i = 0; i < 2; i++) { // changes during the migration reach the ghost through the TLS stream
                shards.get(i).execute(db, "UPDATE t SET v = 'during' WHERE id < 40",
                        "INSERT INTO t (id, v) VALUES (" + (10_000 + i) + ", 'new')");
            }
            CloneHandoffIT.awaitState(connect, status, "COMPLETE", Duration.ofSeconds(180));
            for (MariaDbServer s : shards) {
                assertThat(s.queryString(db, "SELECT COLUMN_TYPE FROM information_schema.COLUMNS WHERE TABLE_SCHEMA"
                        + " = ? AND TABLE_NAME = 't' AND COLUMN_NAME = 'v'", db)).isEqualTo("varchar(64)");
                assertThat(s.queryLong(db, "SELECT COUNT(*) FROM t")).isEqualTo(301L);
                assertThat(s.queryLong(db, "SELECT COUNT(*) FROM t WHERE v = 'during'")).isPositive();
            }
        } finally {
            for (String n : List.of(sink, src, coordinator)) {
                connect.delete(n);
            }
        }
    }

    @Test
    void aCaThatDidNotSignTheServersCertificateStopsTheTaskSayingSo() {
        String db = SERVERS.freshDatabase();
        String name = "tls-wrong-ca-" + db;
        Map<String, String> config = SourceConfigs.keyspace("ks", db, List.of(SERVERS.server(0)), 1);
        config.putAll(tls("", "verify-ca", CERTS.otherCa().toString()));
        connect.deploy(name, config);
        try {
            String trace = connect.awaitTaskFailure(name, Duration.ofSeconds(90));
            assertThat(trace).contains("TLS handshake failed").contains("ssl.ca").contains(CERTS.otherCa().toString());
        } finally {
            connect.delete(name);
        }
    }

    @Test
    void aPlainConnectionToAServerThatRequiresTlsStopsTheTaskNamingSslMode() {
        String db = SERVERS.freshDatabase();
        String name = "tls-plain-" + db;
        connect.deploy(name, SourceConfigs.keyspace("ks", db, List.of(SERVERS.server(0)), 1)); // ssl.mode disable
        try {
            String trace = connect.awaitTaskFailure(name, Duration.ofSeconds(90));
            assertThat(trace).contains("require_secure_transport=ON").contains("ssl.mode is disable");
        } finally {
            connect.delete(name);
        }
    }

    private static void awaitEqual(MariaDbServer source, MariaDbServer target, String db, String table,
                                   Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        ComparisonResult last = null;
        while (System.nanoTime() < deadline) {
            try (Connection s = source.connect(db); Connection t = target.connect(db)) {
                last = TableComparator.builder().source(s, db, table).target(t, db, table).build().compare();
                if (last.isEqual()) {
                    return;
                }
            } catch (RuntimeException | java.sql.SQLException notYet) {
                last = null; // the table is not created yet
            }
            Thread.sleep(500);
        }
        throw new AssertionError(db + "." + table + " never became equal on the target: " + last);
    }
}
