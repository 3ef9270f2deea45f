package io.vstream.connect.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.vstream.connect.core.event.EventType;
import io.vstream.connect.core.event.TopicNames;
import io.vstream.connect.testsupport.connect.ConnectCluster;
import io.vstream.connect.testsupport.connect.TopicReader.Decoded;
import io.vstream.connect.testsupport.db.MariaDbServer;
import io.vstream.connect.testsupport.db.MariaDbShards;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.runtime.rest.entities.ConnectorStateInfo;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Schema changes in the middle of a stream (rows before and after a DDL decoded with their own columns), and the
 * failures an operator must be told about: a dropped shard with a stored position, a purged position, wrong
 * credentials, a missing grant and a server that does not write row-based binlogs.
 */
class SourceSchemaAndFailuresIT {
    @RegisterExtension
    static final MariaDbShards SHARDS = MariaDbShards.builder().count(2).name("SourceSchemaIT").build();

    static ConnectCluster connect;

    @BeforeAll
    static void startConnect() {
        // a broker that takes records up to 8 MB (its message.max.bytes, the topics' default), for the large row
        connect = ConnectCluster.builder().name("schema-it").workers(1).brokerProp("message.max.bytes", "8388608")
                .start();
    }

    @AfterAll
    static void stopConnect() {
        if (connect != null) {
            connect.close();
        }
    }

    private static Map<String, String> unsharded(String db) {
        return SourceConfigs.keyspace("ks", db, List.of(SHARDS.server(0)), 1);
    }

    private static String topic(String db) {
        return TopicNames.shardTopic("vs_" + db, "ks", "-");
    }

    @Test
    void rowsAroundEachDdlAreDecodedWithTheirOwnColumns() throws Exception {
        String db = SHARDS.freshDatabase();
        MariaDbServer s = SHARDS.server(0);
        s.execute(db, "CREATE TABLE t (id INT PRIMARY KEY, a INT, b VARCHAR(10))");
        String name = "ddl-" + db;
        connect.deploy(name, unsharded(db));
        connect.awaitRunning(name, 1, Duration.ofSeconds(60));
        awaitRecords(db, 1);
        s.execute(db, "INSERT INTO t VALUES (1, 10, '11')");
        s.execute(db, "ALTER TABLE t ADD COLUMN c DATETIME(6) NULL");
        s.execute(db, "INSERT INTO t VALUES (2, 20, '22', '2024-01-02 03:04:05.000006')");
        s.execute(db, "ALTER TABLE t DROP COLUMN a");
        s.execute(db, "INSERT INTO t VALUES (3, '33', NULL)");
        s.execute(db, "ALTER TABLE t CHANGE COLUMN b b2 BIGINT");
        s.execute(db, "INSERT INTO t VALUES (4, 44, NULL)");
        s.execute(db, "UPDATE t SET b2 = 45 WHERE id = 4");

        List<Decoded> records = awaitRows(db, 5);
        List<List<String>> columns = new ArrayList<>();
        for (Decoded d : records) {
            if (EventType.ROW.headerValue().equals(d.header("vstream.event"))) {
                Struct after = ((Struct) d.value().value()).getStruct("after");
                columns.add(after.schema().fields().stream().map(Field::name).toList());
            }
        }
        assertThat(columns).containsExactly(
                List.of("id", "a", "b"),
                List.of("id", "a", "b", "c"),
                List.of("id", "b", "c"),
                List.of("id", "b2", "c"),
                List.of("id", "b2", "c"));
        ShardLog log = new ShardLog(records);
        assertThat(log.ofType(EventType.DDL)).hasSize(3);
        assertThat(log.ofType(EventType.FIELD)).hasSize(4);
        Struct last = log.transactions.get(log.transactions.size() - 1).rows().get(0);
        assertThat(last.getStruct("before").getInt64("b2")).isEqualTo(44L);
        assertThat(last.getStruct("after").getInt64("b2")).isEqualTo(45L);

        // after a restart, a FIELD comes again before the next row of the table: the task stopped (the connector
        // STOPPED, no task left: the old one can stream nothing more), then a new one from the stored offset
        connect.embedded().stopConnector(name);
        awaitStopped(name, Duration.ofSeconds(60));
        connect.embedded().resumeConnector(name);
        connect.awaitRunning(name, 1, Duration.ofSeconds(60));
        s.execute(db, "INSERT INTO t VALUES (5, 55, NULL)");
        List<Decoded> after = awaitRows(db, 6);
        int fieldsBeforeLastRow = 0;
        for (Decoded d : after.subList(records.size(), after.size())) {
            if (EventType.FIELD.headerValue().equals(d.header("vstream.event"))) {
                fieldsBeforeLastRow++;
            }
        }
        assertThat(fieldsBeforeLastRow).isEqualTo(1);

        // a primary-key change is a delete of the old key and a create of the new one
        s.execute(db, "UPDATE t SET id = 50 WHERE id = 5");
        List<Decoded> moved = awaitRows(db, 8);
        List<Struct> lastTwo = new ArrayList<>();
        for (Decoded d : moved) {
            if (EventType.ROW.headerValue().equals(d.header("vstream.event"))) {
                lastTwo.add((Struct) d.value().value());
            }
        }
        lastTwo = lastTwo.subList(lastTwo.size() - 2, lastTwo.size());
        assertThat(lastTwo.get(0).getString("op")).isEqualTo("d");
        assertThat(lastTwo.get(0).getStruct("before").getInt32("id")).isEqualTo(5);
        assertThat(lastTwo.get(1).getString("op")).isEqualTo("c");
        assertThat(lastTwo.get(1).getStruct("after").getInt32("id")).isEqualTo(50);
        connect.delete(name);
    }

    @Test
    void aTableWithoutAUsableKeyIsRefusedBeforeTheCopyOrStreamedWhenSkipped() throws Exception {
        String db = SHARDS.freshDatabase();
        MariaDbServer s = SHARDS.server(0);
        s.execute(db, "CREATE TABLE keyed (id INT PRIMARY KEY)", "CREATE TABLE nokey (a INT, b VARCHAR(10))",
                "CREATE TABLE floaty (f DOUBLE PRIMARY KEY)", "INSERT INTO keyed VALUES (1)",
                "INSERT INTO nokey VALUES (1, 'x')");
        String refused = "nokey-" + db;
        connect.deploy(refused, SourceConfigs.with(unsharded(db), "table.exclude.list", "floaty"));
        assertThat(connect.awaitTaskFailure(refused, Duration.ofSeconds(60)))
                .contains("`" + db + "`.`nokey` cannot be copied").contains("copy.keyless.tables=skip");
        connect.delete(refused);

        String floaty = "floaty-" + db;
        connect.deploy(floaty, SourceConfigs.with(unsharded(db), "table.exclude.list", "nokey",
                "topic.prefix", "vsf_" + db));
        assertThat(connect.awaitTaskFailure(floaty, Duration.ofSeconds(60))).contains("`floaty` cannot be copied")
                .contains("of type double");
        connect.delete(floaty);

        String skipping = "skip-" + db;
        connect.deploy(skipping, SourceConfigs.with(unsharded(db), "copy.keyless.tables", "skip",
                "topic.prefix", "vss_" + db));
        connect.awaitRunning(skipping, 1, Duration.ofSeconds(60));
        String topic = TopicNames.shardTopic("vss_" + db, "ks", "-");
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        List<Decoded> records = List.of();
        while (System.nanoTime() < deadline) {
            try {
                records = connect.topics().readAll(topic, false);
            } catch (RuntimeException e) {
                records = List.of();
            }
            if (records.stream().anyMatch(d -> EventType.COPY_COMPLETED.headerValue().equals(d.header("vstream.event")))) {
                break;
            }
            Thread.sleep(300);
        }
        s.execute(db, "INSERT INTO nokey VALUES (2, 'y')");
        deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        long copyRowsOfNokey = -1;
        long streamedRowsOfNokey = 0;
        while (System.nanoTime() < deadline && streamedRowsOfNokey == 0) {
            records = connect.topics().readAll(topic, false);
            copyRowsOfNokey = records.stream().filter(d -> "nokey".equals(d.header("vstream.table"))
                    && EventType.ROW.headerValue().equals(d.header("vstream.event"))
                    && "r".equals(((Struct) d.value().value()).getString("op"))).count();
            streamedRowsOfNokey = records.stream().filter(d -> "nokey".equals(d.header("vstream.table"))
                    && EventType.ROW.headerValue().equals(d.header("vstream.event"))
                    && "c".equals(((Struct) d.value().value()).getString("op"))).count();
            Thread.sleep(300);
        }
        assertThat(copyRowsOfNokey).as("the keyless table is not copied").isZero();
        assertThat(streamedRowsOfNokey).as("but its changes stream").isEqualTo(1);
        assertThat(records.stream().filter(d -> "keyed".equals(d.header("vstream.table"))
                && EventType.ROW.headerValue().equals(d.header("vstream.event"))).count()).isEqualTo(1);
        connect.delete(skipping);
    }

    @Test
    void droppingAShardWithAStoredPositionIsRefused() throws Exception {
        String db = SHARDS.freshDatabase();
        String name = "guard-" + db;
        Map<String, String> twoShards = SourceConfigs.keyspace("ks", db, SHARDS.servers(), 1);
        connect.deploy(name, twoShards);
        connect.awaitRunning(name, 1, Duration.ofSeconds(60));
        awaitStoredOffsets(name, 2, Duration.ofSeconds(60));
        connect.deploy(name, SourceConfigs.with(twoShards, "topology",
                "-=" + SHARDS.server(0).host() + ":" + SHARDS.server(0).port()));
        String trace = connect.awaitTaskFailure(name, Duration.ofSeconds(60));
        assertThat(trace).contains("no longer lists shard(s) [-80, 80-]").contains("PATCH /connectors/" + name);
        connect.delete(name);
    }

    @Test
    void aPurgedPositionFailsTheTaskWithTheRecovery() throws Exception {
        String db = SHARDS.freshDatabase();
        MariaDbServer s = SHARDS.server(1);
        s.execute(db, "CREATE TABLE t (id INT PRIMARY KEY)");
        String old = s.gtidBinlogPos();
        for (int i = 0; i < 5; i++) {
            s.execute(db, "INSERT INTO t VALUES (" + i + ")");
        }
        String current = s.gtidBinlogPos();
        purgeAllButTheActiveBinlog(s, db);
        assertThat(current).isNotEqualTo(old);
        String name = "purged-" + db;
        connect.deploy(name, SourceConfigs.with(SourceConfigs.keyspace("ks", db, List.of(s), 1),
                "start.mode", "position",
                "start.position", "{\"shard_gtids\":[{\"keyspace\":\"ks\",\"shard\":\"-\",\"gtid\":\"MariaDB/"
                        + old + "\"}]}"));
        String trace = connect.awaitTaskFailure(name, Duration.ofSeconds(60));
        assertThat(trace).contains("no longer has the binlog needed to resume from MariaDB/" + old)
                .contains("re-copying");
        connect.delete(name);
    }

    @Test
    void wrongPasswordAndMissingGrantAreNamed() throws Exception {
        String db = SHARDS.freshDatabase();
        MariaDbServer s = SHARDS.server(0);
        String user = "ro_" + Math.abs(db.hashCode() % 100000);
        s.execute(db, "CREATE USER '" + user + "'@'%' IDENTIFIED BY 'secret'",
                "GRANT SELECT ON `" + db + "`.* TO '" + user + "'@'%'");
        String wrong = "pw-" + db;
        connect.deploy(wrong, SourceConfigs.with(unsharded(db), "user", user, "password", "not-the-password"));
        assertThat(connect.awaitTaskFailure(wrong, Duration.ofSeconds(60)))
                .contains("refused user '" + user + "'").doesNotContain("not-the-password");
        connect.delete(wrong);

        String grant = "grant-" + db;
        connect.deploy(grant, SourceConfigs.with(unsharded(db), "user", user, "password", "secret"));
        assertThat(connect.awaitTaskFailure(grant, Duration.ofSeconds(60)))
                .contains("may not read the binlog").contains("GRANT REPLICATION SLAVE");
        connect.delete(grant);
    }

    @Test
    void aServerWithoutRowBinlogsIsRefusedWithTheFix() throws Exception {
        String db = SHARDS.freshDatabase();
        MariaDbServer s = SHARDS.server(1);
        s.execute(db, "SET GLOBAL binlog_row_image = 'MINIMAL'");
        try {
            String name = "minimal-" + db;
            connect.deploy(name, SourceConfigs.keyspace("ks", db, List.of(s), 1));
            assertThat(connect.awaitTaskFailure(name, Duration.ofSeconds(60)))
                    .contains("binlog_row_image is MINIMAL").contains("SET GLOBAL binlog_row_image=FULL");
            connect.delete(name);
        } finally {
            s.execute(db, "SET GLOBAL binlog_row_image = 'FULL'");
        }
    }

    /**
     * A 2 MB row is over the producer's default 1 MiB max.request.size: the task stops before it, naming the settings
     * that lift the limit; with the producer's limit raised (and a broker that takes 8 MB) the same row streams, from
     * the stored position, with nothing lost.
     */
    @Test
    void aRowOverTheProducersLimitStopsTheTaskNamingTheSettingsAndStreamsOnceRaised() throws Exception {
        String db = SHARDS.freshDatabase();
        MariaDbServer s = SHARDS.server(0);
        s.execute(db, "CREATE TABLE docs (id INT PRIMARY KEY, body LONGTEXT)");
        String name = "large-" + db;
        Map<String, String> config = unsharded(db);
        connect.deploy(name, config);
        s.execute(db, "INSERT INTO docs VALUES (1, 'small')");
        awaitRows(db, 1);
        s.execute(db, "INSERT INTO docs VALUES (2, REPEAT('x', 2 * 1024 * 1024))", "INSERT INTO docs VALUES (3, 'after')");
        assertThat(connect.awaitTaskFailure(name, Duration.ofSeconds(60)))
                .contains("a row of table docs in transaction").contains("holds at least 2097152 bytes")
                .contains("producer.override.max.request.size").contains("max.message.bytes");

        config.put("producer.override.max.request.size", "8388608");
        connect.deploy(name, config); // restarts the task with the raised limit
        List<Decoded> records = awaitRows(db, 3);
        List<Struct> rows = records.stream().filter(d -> EventType.ROW.headerValue().equals(d.header("vstream.event")))
                .map(d -> ((Struct) d.value().value()).getStruct("after")).toList();
        assertThat(rows).extracting(r -> r.getInt32("id")).containsExactly(1, 2, 3);
        assertThat(rows.get(1).getString("body")).hasSize(2 * 1024 * 1024);
        connect.delete(name);
    }

    /** MariaDB keeps a binlog until its InnoDB checkpoint moves on, so flush and purge until only one is left. */
    private static void purgeAllButTheActiveBinlog(MariaDbServer s, String db) throws Exception {
        for (int attempt = 0; attempt < 20; attempt++) {
            try (var c = s.connect(db); var st = c.createStatement()) {
                st.execute("FLUSH BINARY LOGS");
                st.execute("PURGE BINARY LOGS BEFORE NOW() + INTERVAL 1 DAY");
                int files = 0;
                try (var rs = st.executeQuery("SHOW BINARY LOGS")) {
                    while (rs.next()) {
                        files++;
                    }
                }
                if (files == 1) {
                    return;
                }
            }
            Thread.sleep(200);
        }
        throw new AssertionError("could not purge the binlogs of " + s);
    }

    private static void awaitRecords(String db, int atLeast) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < deadline) {
            try {
                if (connect.topics().readAll(topic(db), false).size() >= atLeast) {
                    return;
                }
            } catch (RuntimeException e) {
                // not created yet
            }
            Thread.sleep(200);
        }
        throw new AssertionError("no records on " + topic(db));
    }

    private static List<Decoded> awaitRows(String db, int rows) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        List<Decoded> records = List.of();
        while (System.nanoTime() < deadline) {
            records = connect.topics().readAll(topic(db), false);
            long n = records.stream().filter(d -> EventType.ROW.headerValue().equals(d.header("vstream.event")))
                    .count();
            if (n >= rows) {
                return records;
            }
            Thread.sleep(200);
        }
        throw new AssertionError("expected " + rows + " rows on " + topic(db) + ", have " + records.size()
                + " records");
    }

    /** Waits until the connector is STOPPED with no task left ({@code PUT /connectors/{name}/stop}). */
    private static void awaitStopped(String name, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        ConnectorStateInfo s = null;
        while (System.nanoTime() < deadline) {
            s = connect.status(name);
            if ("STOPPED".equals(s.connector().state()) && s.tasks().isEmpty()) {
                return;
            }
            Thread.sleep(200);
        }
        throw new AssertionError(name + " did not stop within " + timeout + "; last status " + s);
    }

    /** Waits until Connect has stored an offset for {@code partitions} of the source's partitions (its shards). */
    private static void awaitStoredOffsets(String name, int partitions, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        int stored = 0;
        while (System.nanoTime() < deadline) {
            stored = connect.embedded().connectorOffsets(name).offsets().size();
            if (stored >= partitions) {
                return;
            }
            Thread.sleep(200);
        }
        throw new AssertionError(name + " stored offsets for " + stored + " of " + partitions + " shards in " + timeout);
    }
}
