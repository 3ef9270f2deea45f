package io.vstream.connect.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.vstream.connect.core.event.TopicNames;
import io.vstream.connect.core.position.GtidPosition;
import io.vstream.connect.local.compare.ComparisonResult;
import io.vstream.connect.local.load.LoadStats;
import io.vstream.connect.local.load.LoadTable;
import io.vstream.connect.local.load.Target;
import io.vstream.connect.local.load.WriteLoad;
import io.vstream.connect.testsupport.compare.TableComparator;
import io.vstream.connect.testsupport.connect.ConnectCluster;
import io.vstream.connect.testsupport.db.MariaDbServer;
import io.vstream.connect.testsupport.db.MariaDbShards;
import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The sink applying a shard's log into an empty server (a clone): tables created there on another storage engine,
 * under a write load on the source, while the worker running the sink is lost twice and the target server restarts
 * during the copy; the target ends equal to the source by checksum and holds every acknowledged write. A record the
 * target cannot hold stops the task with the reason, or goes to the dead letter queue.
 */
class CloneSinkIT {
    @RegisterExtension
    static final MariaDbShards SERVERS = MariaDbShards.builder().count(2).name("CloneSinkIT").build();

    static ConnectCluster connect;

    @BeforeAll
    static void startConnect() {
        connect = ConnectCluster.builder().name("clone-it").workers(2).start();
    }

    @AfterAll
    static void stopConnect() {
        if (connect != null) {
            connect.close();
        }
    }

    private static MariaDbServer source() {
        return SERVERS.server(0);
    }

    private static MariaDbServer target() {
        return SERVERS.server(1);
    }

    @Test
    void cloneUnderLoadSurvivesWorkerLossAndTargetRestart() throws Exception {
        String db = SERVERS.freshDatabase();
        target().execute("mysql", "DROP DATABASE `" + db + "`"); // the clone target starts empty
        String targetGtids = target().gtidBinlogPos();
        MariaDbServer src = source();
        src.execute(db,
                // generated columns: the target computes them, the applier never writes them
                "CREATE TABLE accounts (id INT PRIMARY KEY, owner VARCHAR(64) NOT NULL, balance DECIMAL(14,2),"
                        + " opened DATE, doubled DECIMAL(15,2) AS (balance * 2) VIRTUAL,"
                        // members outside the BMP, which the server's metadata shows as '?'
                        + " mood ENUM('a','😀','?') CHARACTER SET utf8mb4, tags SET('ß','😀','x') CHARACTER SET utf8mb4,"
                        // an ENUM whose invalid-value entry (index 0) and '' member (index 1) both read as ''
                        + " grade ENUM('','a','b') NOT NULL DEFAULT 'a',"
                        + " label VARCHAR(80) AS (CONCAT(owner, '!')) STORED) ENGINE=Aria",
                "CREATE TABLE events (account_id INT NOT NULL, seq INT NOT NULL, kind ENUM('in','out') NOT NULL,"
                        + " at DATETIME(3) NOT NULL, PRIMARY KEY (account_id, seq)) ENGINE=MyISAM");
        for (int from = 0; from < 40_000; from += 2000) {
            StringBuilder a = new StringBuilder("INSERT INTO accounts (id, owner, balance, opened, mood, tags,"
                    + " grade) VALUES ");
            StringBuilder e = new StringBuilder("INSERT INTO events VALUES ");
            for (int i = from; i < from + 2000; i++) {
                a.append(i == from ? "" : ",").append('(').append(i).append(",'owner ").append(i).append("',")
                        .append(i % 5000).append(".25,").append(i % 3 == 0 ? "NULL" : i % 97 == 1 ? "'0000-00-00'"
                                : i % 97 == 2 ? "'2020-00-15'" : "'2020-02-0" + (1 + i % 9) + "'")
                        .append(i % 4 == 0 ? ",'😀','ß,😀'" : i % 4 == 1 ? ",'?','x'" : ",NULL,''")
                        .append(i % 7 == 0 ? ",0" : i % 7 == 1 ? ",''" : ",'b'").append(')');
                if (i < from + 750) {
                    e.append(i == from ? "" : ",").append('(').append(i).append(',').append(i % 7).append(",'")
                            .append(i % 2 == 0 ? "in" : "out").append(i % 50 == 0 ? "','0000-01-01 00:00:0"
                                    : "','2021-01-01 00:00:0").append(i % 10).append(".123')"); // the year 0000 too
                }
            }
            src.execute(db, "SET SESSION sql_mode = ''", a.toString(), e.toString()); // permissive: index 0
        }
        String sourceName = "clone-src-" + db;
        String sinkName = "clone-sink-" + db;
        String topic = TopicNames.shardTopic("vs_" + db, "ks", "-");
        try (WriteLoad load = WriteLoad.builder(Target.single(src, db)).table(LoadTable.standard("orders"))
                .threads(2).keySpace(5_000).statementsPerTransaction(1, 3).deleteRatio(0.1)
                .transactionsPerSecond(100).duration(Duration.ofSeconds(40)).failOnError(false).seed(5).build()) {
            load.createTables().preload(20_000);
            load.start();
            // the compact record format, as the workflow configs deploy a clone: a task that resumes past a table's
            // FIELD record (the worker lost, the target restarted) types its rows by the row schemas it stored
            connect.deploy(sourceName, CompactFormat.onSource(SourceConfigs.with(SourceConfigs.keyspace("ks", db,
                    List.of(src), 1), "copy.max.rows.per.second", "6000", "copy.chunk.max.rows", "3000")));
            connect.deploy(sinkName, CompactFormat.on(SourceConfigs.with(SinkConfigs.clone(topic, target()),
                    "table.engine", "InnoDB")));
            connect.awaitRunning(sinkName, 1, Duration.ofSeconds(60));
            // each fault waits for the phase it names (75,000 rows copied at most 6,000 rows/s: >= 12 s of copy)
            ApplierPhase.State copying = ApplierPhase.awaitCopying(target(), sinkName, 9_000, Duration.ofSeconds(90));
            connect.removeWorkerRunning(sinkName, 0); // during the copy
            connect.addWorker();
            ApplierPhase.awaitCopying(target(), sinkName, copying.rowsCopied() + 9_000, Duration.ofSeconds(90));
            target().stop(); // the target goes away during the copy, for two seconds
            Thread.sleep(2_000);
            target().start();
            ApplierPhase.awaitStreaming(target(), sinkName, Duration.ofSeconds(120));
            connect.removeWorkerRunning(sinkName, 0); // while streaming
            connect.addWorker();
            LoadStats stats = load.awaitCompletion(Duration.ofSeconds(90));
            assertThat(stats.commits()).isGreaterThan(1000);
            src.execute(db, "UPDATE accounts SET balance = balance + 1 WHERE id < 100"); // a non-transactional change
            // dates no calendar has, in a NULL-able column: copied above (i % 97 = 1, 2), and here through the stream
            src.execute(db, "UPDATE accounts SET opened = '2019-07-00' WHERE id BETWEEN 200 AND 204");
            src.execute(db, "UPDATE accounts SET mood = '😀', tags = '😀,x' WHERE id BETWEEN 301 AND 311");
            src.execute(db, "SET SESSION sql_mode = ''",
                    "UPDATE accounts SET grade = 0 WHERE id BETWEEN 500 AND 520"); // index 0 through the stream
            src.execute(db, "UPDATE events SET at = '0000-01-01 00:00:00.001' WHERE account_id BETWEEN 401 AND 405");

            awaitApplied(db, sinkName, topic, Duration.ofSeconds(120));
            try (Connection s = src.connect(db); Connection t = target().connect(db)) {
                for (String table : List.of("accounts", "events", "orders")) {
                    ComparisonResult r = TableComparator.builder().source(s, db, table).target(t, db, table).build()
                            .compare();
                    assertThat(r.isEqual()).as("%s: %s", table, r).isTrue();
                }
                assertThat(load.verifyAgainst(t, "orders").isEqual()).isTrue();
            }
            assertThat(target().queryLong(db, "SELECT COUNT(*) FROM accounts WHERE CAST(opened AS CHAR) IN"
                    + " ('0000-00-00', '2020-00-15', '2019-07-00')")).as("zero and partial dates kept")
                    .isEqualTo(source().queryLong(db, "SELECT COUNT(*) FROM accounts WHERE CAST(opened AS CHAR) IN"
                            + " ('0000-00-00', '2020-00-15', '2019-07-00')")).isGreaterThan(5L);
            for (int index = 0; index <= 1; index++) { // '' as the invalid-value entry and as the member
                String count = "SELECT COUNT(*) FROM accounts WHERE grade + 0 = " + index;
                assertThat(target().queryLong(db, count)).as(count).isEqualTo(source().queryLong(db, count))
                        .isGreaterThan(5000L);
            }
            assertThat(target().queryLong(db, "SELECT COUNT(*) FROM events WHERE YEAR(at) = 0"))
                    .as("date-times of the year 0000 kept").isEqualTo(source().queryLong(db,
                            "SELECT COUNT(*) FROM events WHERE YEAR(at) = 0")).isGreaterThan(300L);
            assertThat(target().queryLong(db, "SELECT COUNT(*) FROM accounts WHERE HEX(mood) = 'F09F9880'"
                    + " AND FIND_IN_SET('😀', tags) > 0")).as("ENUM and SET members outside the BMP kept")
                    .isEqualTo(source().queryLong(db, "SELECT COUNT(*) FROM accounts WHERE HEX(mood) = 'F09F9880'"
                            + " AND FIND_IN_SET('😀', tags) > 0")).isGreaterThan(10_000L);
            assertThat(target().queryString(db, "SELECT ENGINE FROM information_schema.TABLES WHERE TABLE_SCHEMA = ?"
                    + " AND TABLE_NAME = 'accounts'", db)).isEqualTo("InnoDB");
            assertThat(target().queryLong("_vstream", "SELECT COUNT(DISTINCT source_table) FROM row_schemas"
                    + " WHERE stream = ? AND topic = ?", sinkName, topic)).as("the row schemas the sink stored")
                    .isEqualTo(3L);
            // nothing the applier wrote reached the target's own binlog
            assertThat(target().gtidBinlogPos()).isEqualTo(targetGtids);
            // the applier's metrics over JMX (the embedded workers run in this JVM)
            var mbeans = java.lang.management.ManagementFactory.getPlatformMBeanServer();
            var names = mbeans.queryNames(new javax.management.ObjectName("io.vstream.connect:type=sink,connector="
                    + javax.management.ObjectName.quote(sinkName) + ",*"), null);
            assertThat(names).hasSize(1);
            var name = names.iterator().next();
            assertThat((Long) mbeans.getAttribute(name, "RowsApplied")).isPositive();
            assertThat((String) mbeans.getAttribute(name, "AppliedPosition")).startsWith("MariaDB/");
            // and the source's (its last position was never set before: it always read "")
            var sources = mbeans.queryNames(new javax.management.ObjectName("io.vstream.connect:type=source,connector="
                    + javax.management.ObjectName.quote(sourceName) + ",*"), null);
            assertThat(sources).hasSize(1);
            var shardStream = sources.iterator().next();
            assertThat((Long) mbeans.getAttribute(shardStream, "CopyRows")).isPositive();
            assertThat((String) mbeans.getAttribute(shardStream, "LastPosition")).startsWith("MariaDB/");
        } finally {
            connect.delete(sinkName);
            connect.delete(sourceName);
        }
    }

    @Test
    void aRecordTheTargetCannotHoldStopsTheTaskOrGoesToTheDeadLetterQueue() throws Exception {
        String db = SERVERS.freshDatabase();
        source().execute(db, "CREATE TABLE notes (id INT PRIMARY KEY, body VARCHAR(40) NOT NULL)");
        target().execute(db, "CREATE TABLE notes (id INT PRIMARY KEY, body VARCHAR(8) NOT NULL)"); // narrower
        String sourceName = "poison-src-" + db;
        String topic = TopicNames.shardTopic("vs_" + db, "ks", "-");
        // rows 1-3 exist before the stream starts (they are copied), rows 4-5 come later (they are streamed)
        source().execute(db, "INSERT INTO notes VALUES (1, 'short')", "INSERT INTO notes VALUES (2, 'far too long for it')",
                "INSERT INTO notes VALUES (3, 'fine')");
        connect.deploy(sourceName, SourceConfigs.keyspace("ks", db, List.of(source()), 1));
        connect.awaitRunning(sourceName, 1, Duration.ofSeconds(60));
        ShardLog.awaitCopyCompleted(connect, topic, Duration.ofSeconds(90));
        source().execute(db, "INSERT INTO notes VALUES (4, 'this one is too long as well')",
                "INSERT INTO notes VALUES (5, 'ok')");

        String failing = "poison-sink-" + db;
        connect.deploy(failing, SinkConfigs.clone(topic, target()));
        String trace = connect.awaitTaskFailure(failing, Duration.ofSeconds(60));
        assertThat(trace).contains("table notes").contains("Data too long").contains("key Struct{id=2}");
        assertThat(target().queryLong(db, "SELECT COUNT(*) FROM notes")).isZero(); // the chunk is all or nothing
        connect.delete(failing);

        String tolerant = "dlq-sink-" + db;
        String dlq = "dlq-" + db;
        connect.deploy(tolerant, SourceConfigs.with(SinkConfigs.clone(topic, target()),
                "stream.name", "tolerant", "errors.tolerance", "all", "errors.deadletterqueue.topic.name", dlq,
                "errors.deadletterqueue.topic.replication.factor", "1",
                "errors.deadletterqueue.context.headers.enable", "true"));
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < deadline && target().queryLong(db, "SELECT COUNT(*) FROM notes") < 3) {
            Thread.sleep(300);
        }
        assertThat(target().queryLong(db, "SELECT COUNT(*) FROM notes WHERE id IN (1, 3, 5)")).isEqualTo(3L);
        assertThat(target().queryLong(db, "SELECT COUNT(*) FROM notes")).isEqualTo(3L);
        ConsumerRecords<byte[], byte[]> dead = connect.embedded().kafka().consume(2, 30_000, dlq);
        assertThat(dead.count()).as("the copied and the streamed poison rows").isEqualTo(2);
        connect.delete(tolerant);
        connect.delete(sourceName);
    }

    /**
     * The coordinator's second line of defense against a target beyond its snapshot: a STOP_AT whose position lacks
     * transactions the applier already wrote is acknowledged as passed (with the position the target holds), never as
     * held; back on RUN, the applier goes on.
     */
    @Test
    void aStopPositionTheApplierIsAlreadyPastIsAcknowledgedAsPassed() throws Exception {
        String db = SERVERS.freshDatabase();
        target().execute("mysql", "DROP DATABASE `" + db + "`");
        source().execute(db, "CREATE TABLE t (id INT PRIMARY KEY, v INT)", "INSERT INTO t VALUES (0, 0)");
        String sourceName = "passed-src-" + db;
        String sinkName = "passed-sink-" + db;
        String topic = TopicNames.shardTopic("vs_" + db, "ks", "-");
        try {
            connect.deploy(sourceName, CompactFormat.onSource(SourceConfigs.keyspace("ks", db, List.of(source()),
                    1)));
            connect.deploy(sinkName, CompactFormat.on(SinkConfigs.clone(topic, target())));
            awaitApplied(db, sinkName, topic, Duration.ofSeconds(120));
            String before = "MariaDB/" + source().gtidBinlogPos();
            source().execute(db, "INSERT INTO t VALUES (1, 1)", "UPDATE t SET v = 2 WHERE id = 1");
            awaitApplied(db, sinkName, topic, Duration.ofSeconds(120));
            String held = target().queryString("_vstream", "SELECT position FROM applied WHERE stream = ?", sinkName);

            // what the coordinator writes (ApplierChannel.command); the sink created the table when it started
            target().execute("_vstream", "INSERT INTO control (stream, command, stop_at) VALUES ('" + sinkName
                    + "', 'STOP_AT', '" + before + "') ON DUPLICATE KEY UPDATE command = VALUES(command),"
                    + " stop_at = VALUES(stop_at), acked_command = NULL, acked_position = NULL");
            String ack = awaitAck(sinkName);
            assertThat(ack).as("the acknowledgement of a stop position the applier is past").isEqualTo("PASSED_STOP");
            String acked = target().queryString("_vstream", "SELECT acked_position FROM control WHERE stream = ?",
                    sinkName);
            assertThat(GtidPosition.parse(acked).contains(GtidPosition.parse(held)))
                    .as("the acknowledged position %s is the one the target holds (%s)", acked, held).isTrue();

            target().execute("_vstream", "UPDATE control SET command = 'RUN', stop_at = NULL, acked_command = NULL,"
                    + " acked_position = NULL WHERE stream = '" + sinkName + "'");
            source().execute(db, "INSERT INTO t VALUES (3, 3)");
            awaitApplied(db, sinkName, topic, Duration.ofSeconds(120));
            assertThat(target().queryLong(db, "SELECT COUNT(*) FROM t")).isEqualTo(3L);
        } finally {
            connect.delete(sinkName);
            connect.delete(sourceName);
        }
    }

    private static String awaitAck(String stream) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < deadline) {
            String ack = target().queryString("_vstream", "SELECT IFNULL(MAX(acked_command), '') FROM control"
                    + " WHERE stream = ?", stream);
            if (!ack.isEmpty()) {
                return ack;
            }
            Thread.sleep(200);
        }
        throw new AssertionError("the applier did not acknowledge the command in 60 s: " + connect.status(stream));
    }

    /** Waits until the target's applied position holds the source's current position. */
    private static void awaitApplied(String db, String sinkName, String topic, Duration timeout) throws Exception {
        new AppliedPosition(target(), sinkName, topic).await(source(), timeout,
                () -> "sink: " + connect.status(sinkName));
    }

}
