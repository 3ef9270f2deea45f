package io.vstream.connect.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vstream.connect.testsupport.connect.ConnectCluster;
import io.vstream.connect.testsupport.db.MariaDbServer;
import io.vstream.connect.testsupport.db.MariaDbShards;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.runtime.rest.entities.ConfigInfo;
import org.apache.kafka.connect.runtime.rest.entities.ConfigInfos;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The online DDL's coordinator refuses what cannot work before it creates anything (no ghost table, no plan, no
 * {@code _vstream} on a server that cannot be streamed): a topology with a gap, an overlap, a duplicate shard or an
 * address without a port (in {@code validate()}, so the REST API rejects the config); a shard whose binlog is off or
 * STATEMENT; an ALTER that asks for a non-transactional engine. A ghost the server refuses, and an account it
 * refuses, fail the workflow at once with the server's message; an unreachable server fails it after the retry
 * limit, having said "waiting for a server" until then.
 */
class OnlineDdlPreflightIT {
    @RegisterExtension
    static final MariaDbShards SHARDS = MariaDbShards.builder().count(2).name("DdlPreflightIT").build();

    @RegisterExtension
    static final MariaDbShards NO_BINLOG = MariaDbShards.builder().count(1).name("DdlNoBinlogIT")
            .extraConfig("skip-log-bin").build();

    static final String COORDINATOR_CLASS = "io.vstream.connect.coordinator.VStreamCoordinatorConnector";
    static ConnectCluster connect;

    @BeforeAll
    static void startConnect() {
        connect = ConnectCluster.builder().name("ddl-preflight").workers(1).start();
    }

    @AfterAll
    static void stopConnect() {
        if (connect != null) {
            connect.close();
        }
    }

    @Test
    void aTopologyWithAGapAnOverlapADuplicateOrNoPortIsRejectedByValidate() {
        String a = address(SHARDS.server(0));
        String b = address(SHARDS.server(1));
        Map<String, String> cases = Map.of(
                "-40=" + a + ",80-=" + b, "gap between",
                "-80=" + a + ",40-=" + b, "overlap between",
                "-80=" + a + ",-80=" + b + ",80-=" + b, "listed twice",
                "-80=127.0.0.1,80-=" + b, "must be <host>:<port>");
        String db = SHARDS.freshDatabase();
        createTable(db);
        for (var c : cases.entrySet()) {
            Map<String, String> config = coordinator(db, "w", c.getKey(), "ADD COLUMN note INT NULL");
            assertThat(shardErrors(connect.validate(COORDINATOR_CLASS, config))).as(c.getKey()).anySatisfy(
                    m -> assertThat(m).contains(c.getValue()));
            assertThatThrownBy(() -> connect.deploy("bad-topology", config)).as("the REST API refuses %s",
                    c.getKey()).hasMessageContaining(c.getValue());
        }
        assertNothingCreated(db);
    }

    @Test
    void aShardWithStatementBinlogOrNoBinlogIsRefusedBeforeAnythingIsCreated() throws Exception {
        String db = SHARDS.freshDatabase();
        createTable(db);
        MariaDbServer shard1 = SHARDS.server(1);
        shard1.execute(null, "SET GLOBAL binlog_format = 'STATEMENT'");
        try {
            String reason = deployAndAwaitFailure(db, "statement", topology(), "ADD COLUMN note INT NULL", Map.of());
            assertThat(reason).contains("preflight").contains("shard 80-").contains("binlog_format is STATEMENT")
                    .contains("SET GLOBAL binlog_format=ROW");
        } finally {
            shard1.execute(null, "SET GLOBAL binlog_format = 'ROW'");
        }
        assertNothingCreated(db);

        MariaDbServer plain = NO_BINLOG.server(0);
        String db2 = NO_BINLOG.freshDatabase();
        plain.execute(db2, "CREATE TABLE items (id INT PRIMARY KEY, sku VARCHAR(20))");
        String reason = deployAndAwaitFailure(db2, "nobinlog", "-=" + address(plain), "ADD COLUMN note INT NULL",
                Map.of());
        assertThat(reason).contains("binary logging is off").contains("log_bin=ON");
        assertThat(plain.queryLong(null, "SELECT COUNT(*) FROM information_schema.SCHEMATA WHERE SCHEMA_NAME ="
                + " '_vstream'")).as("no _vstream on a server that cannot be streamed").isZero();
        assertThat(plain.queryLong(db2, "SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = ?",
                db2)).isEqualTo(1L);
    }

    @Test
    void anAlterToANonTransactionalEngineIsRefused() throws Exception {
        String db = SHARDS.freshDatabase();
        createTable(db);
        String reason = deployAndAwaitFailure(db, "myisam", topology(), "ADD COLUMN note INT NULL, ENGINE=MyISAM",
                Map.of());
        assertThat(reason).contains("ENGINE=MyISAM").contains("not transactional");
        assertNothingCreated(db);
    }

    @Test
    void aGhostTheServerRefusesFailsAtOnceWithTheServersMessage() throws Exception {
        String db = SHARDS.freshDatabase();
        createTable(db);
        String reason = deployAndAwaitFailure(db, "refused", topology(),
                "ADD COLUMN amount INT NOT NULL DEFAULT 'many'", Map.of());
        assertThat(reason).contains("Invalid default value for 'amount'").contains("1067");
        assertNothingCreated(db);

        // the case: a table holding zero dates, on a server whose sql_mode refuses them in a new table
        String db2 = SHARDS.freshDatabase("zero");
        for (MariaDbServer s : SHARDS.servers()) {
            s.execute(db2, "SET SESSION sql_mode = ''", "CREATE TABLE items (id INT PRIMARY KEY,"
                    + " dt DATETIME NOT NULL DEFAULT '0000-00-00 00:00:00')", "INSERT INTO items VALUES (0, DEFAULT),"
                    + " (1, '2024-01-01 00:00:00')");
        }
        MariaDbServer shard0 = SHARDS.server(0);
        String mode = shard0.queryString(null, "SELECT @@GLOBAL.sql_mode");
        shard0.execute(null, "SET GLOBAL sql_mode = '" + mode + (mode.isEmpty() ? "" : ",") + "NO_ZERO_DATE'");
        try {
            String zero = deployAndAwaitFailure(db2, "zero", topology(), "ADD COLUMN note INT NULL", Map.of());
            assertThat(zero).contains("shard -80").contains("Invalid default value for 'dt'").contains("1067");
        } finally {
            shard0.execute(null, "SET GLOBAL sql_mode = '" + mode + "'");
        }
        for (MariaDbServer s : SHARDS.servers()) {
            assertThat(s.queryLong(db2, "SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = ?",
                    db2)).as("no ghost left on %s", s.name()).isEqualTo(1L);
        }
    }

    @Test
    void aRefusedAccountFailsAtOnceAndAnUnreachableServerAfterTheRetryLimit() throws Exception {
        String db = SHARDS.freshDatabase();
        createTable(db);
        String reason = deployAndAwaitFailure(db, "password", topology(), "ADD COLUMN note INT NULL",
                Map.of("source.password", "not-the-password"));
        assertThat(reason).contains("refused the coordinator's account").contains("Access denied").contains("1045");

        int closed;
        try (ServerSocket s = new ServerSocket(0)) {
            closed = s.getLocalPort(); // nothing listens there once closed
        }
        String unreachable = "-80=" + address(SHARDS.server(0)) + ",80-=127.0.0.1:" + closed;
        List<String> reasons = new ArrayList<>();
        String failed = deployAndAwaitFailure(db, "unreachable", unreachable, "ADD COLUMN note INT NULL",
                Map.of("server.retry.max.ms", "4000"), reasons);
        assertThat(reasons).as("it said it was waiting before it gave up")
                .anySatisfy(r -> assertThat(r).startsWith("waiting for a server (attempt"));
        assertThat(failed).contains("a server failed for").contains("server.retry.max.ms=4000");
        assertNothingCreated(db);
    }

    private static String address(MariaDbServer s) {
        return s.host() + ":" + s.port();
    }

    private static String topology() {
        return "-80=" + address(SHARDS.server(0)) + ",80-=" + address(SHARDS.server(1));
    }

    private static void createTable(String db) {
        for (MariaDbServer s : SHARDS.servers()) {
            s.execute(db, "CREATE TABLE items (id INT PRIMARY KEY, sku VARCHAR(20) NOT NULL, qty INT)",
                    "INSERT INTO items VALUES (0, 'zero', NULL), (1, 'one', 1)");
        }
    }

    /** No ghost table beside the original, and no plan stored for the migration, on any shard. */
    private static void assertNothingCreated(String db) {
        for (MariaDbServer s : SHARDS.servers()) {
            assertThat(s.queryLong(db, "SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = ?", db))
                    .as("only the original table in %s on %s", db, s.name()).isEqualTo(1L);
            boolean plans = s.queryLong(null, "SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA ="
                    + " '_vstream' AND TABLE_NAME = 'migrations'") > 0;
            if (plans) {
                assertThat(s.queryLong(null, "SELECT COUNT(*) FROM _vstream.migrations WHERE migration = ?", db))
                        .as("no plan stored").isZero();
            }
        }
    }

    private static Map<String, String> coordinator(String db, String suffix, String topology, String alter) {
        Map<String, String> c = new HashMap<>();
        c.put("connector.class", COORDINATOR_CLASS);
        c.put("tasks.max", "1");
        c.put("workflow", "online-ddl");
        c.put("applier.stream", "sink-" + db);
        c.put("status.topic", "status-" + db + "-" + suffix);
        c.put("shards", topology);
        c.put("source.user", MariaDbServer.USER);
        c.put("source.password", MariaDbServer.PASSWORD);
        c.put("ddl.database", db);
        c.put("ddl.table", "items");
        c.put("ddl.alter", alter);
        c.put("ddl.migration", db);
        c.put("poll.interval.ms", "300");
        c.put("topic.creation.default.partitions", "1");
        c.put("topic.creation.default.replication.factor", "1");
        return c;
    }

    private static List<String> shardErrors(ConfigInfos infos) {
        for (ConfigInfo i : infos.configs()) {
            if (i.configValue().name().equals("shards")) {
                return i.configValue().errors();
            }
        }
        return List.of();
    }

    private static String deployAndAwaitFailure(String db, String suffix, String topology, String alter,
                                                Map<String, String> extra) throws InterruptedException {
        return deployAndAwaitFailure(db, suffix, topology, alter, extra, new ArrayList<>());
    }

    /** Deploys the coordinator alone, waits (up to 2 minutes) for FAILED and returns its reason; deletes it. */
    private static String deployAndAwaitFailure(String db, String suffix, String topology, String alter,
                                                Map<String, String> extra, List<String> reasons)
            throws InterruptedException {
        Map<String, String> config = coordinator(db, suffix, topology, alter);
        config.putAll(extra);
        String name = "coord-" + db + "-" + suffix;
        String topic = config.get("status.topic");
        connect.deploy(name, config);
        try {
            long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
            while (System.nanoTime() < deadline) {
                try {
                    reasons.clear();
                    for (var d : connect.topics().readAll(topic, false)) {
                        Struct s = (Struct) d.value().value();
                        if (s.getString("reason") != null) {
                            reasons.add(s.getString("reason"));
                        }
                        if ("FAILED".equals(s.getString("state"))) {
                            return s.getString("reason");
                        }
                        assertThat(s.getString("state")).as("nothing goes on past the preflight")
                                .isIn("CREATED");
                    }
                } catch (RuntimeException e) {
                    // no status topic yet
                }
                Thread.sleep(300);
            }
            throw new AssertionError("the workflow never failed; reasons seen: " + reasons);
        } finally {
            connect.delete(name);
        }
    }
}
