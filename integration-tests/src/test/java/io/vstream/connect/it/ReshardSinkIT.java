package io.vstream.connect.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.vstream.connect.core.event.TopicNames;
import io.vstream.connect.core.keyrange.KeyRange;
import io.vstream.connect.core.vindex.Vindex;
import io.vstream.connect.core.vindex.Vindexes;
import io.vstream.connect.local.load.LoadStats;
import io.vstream.connect.local.load.LoadTable;
import io.vstream.connect.local.load.Target;
import io.vstream.connect.local.load.WriteLoad;
import io.vstream.connect.testsupport.connect.ConnectCluster;
import io.vstream.connect.testsupport.db.MariaDbServer;
import io.vstream.connect.testsupport.db.MariaDbShards;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The sink in reshard mode (Vitess reshard, seed 004): the log of an unsharded source shard {@code -} (a copy phase
 * of ~20k rows, then streaming, under concurrent inserts, updates and deletes) is applied into two new, empty shards
 * {@code -80} and {@code 80-}, each row to the shard whose key range holds the hash vindex of its sharding column.
 * One table is sharded by its key ({@code orders}, by {@code reshard.column.default}), one by another column whose
 * updates move rows from one new shard to the other ({@code wallets}, by {@code reshard.columns}). Once every new
 * shard's applied position holds the source's, each new shard must hold exactly the source rows of its key range,
 * and nothing else; also when the sink is restarted through REST and a new shard's server is lost while the load
 * runs, and when two old shards are merged into one new shard.
 */
class ReshardSinkIT {
    @RegisterExtension
    static final MariaDbShards SERVERS = MariaDbShards.builder().count(3).name("ReshardSinkIT").build();

    private static final String[] NEW_SHARDS = {"-80", "80-"};
    private static final Vindex HASH = Vindexes.named("hash");
    private static final int WALLETS = 3_000;
    private static final int OWNERS = 1_000;

    static ConnectCluster connect;

    @BeforeAll
    static void startConnect() {
        connect = ConnectCluster.builder().name("reshard-it").workers(1).start();
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

    /** The server of new shard {@code i} ({@code -80}, {@code 80-}). */
    private static MariaDbServer target(int i) {
        return SERVERS.server(1 + i);
    }

    @Test
    void copyAndStreamUnderLoadEndWithEachRowOnItsNewShard() throws Exception {
        reshardUnderLoad(false);
    }

    /**
     * The sink restarted through REST during the copy and while streaming, then new shard 80- lost for a few seconds:
     * -80 may have committed records 80- could not (the commits of one source transaction on the new shards are not
     * atomic), so on its return the log is replayed from 80-'s offset and -80 skips what it holds.
     */
    @Test
    void restartingTheSinkAndLosingANewShardMidStreamStillEndsExact() throws Exception {
        reshardUnderLoad(true);
    }

    /**
     * The other way round: old shards -80 and 80- (servers 1 and 2, each holding the rows of its range) merged into
     * one new shard - (server 0). The new shard holds rows of both logs, so a copy chunk of one must leave the other's
     * rows of its key range in place.
     */
    @Test
    void twoOldShardsMergeIntoOne() throws Exception {
        String db = SERVERS.freshDatabase();
        List<MariaDbServer> olds = List.of(target(0), target(1));
        MariaDbServer merged = source();
        String sourceName = "merge-src-" + db;
        String sinkName = "merge-sink-" + db;
        List<String> topics = List.of(TopicNames.shardTopic("vs_" + db, "ks", NEW_SHARDS[0]),
                TopicNames.shardTopic("vs_" + db, "ks", NEW_SHARDS[1]));
        KeyRange low = KeyRange.parse(NEW_SHARDS[0]);
        try (WriteLoad load = WriteLoad.builder(Target.sharded(olds, db, key -> low.contains(HASH.keyspaceId(key))
                        ? 0 : 1)).table(LoadTable.standard("orders"))
                .threads(2).keySpace(30_000).statementsPerTransaction(1, 3).deleteRatio(0.15)
                .transactionsPerSecond(80).duration(Duration.ofSeconds(25)).failOnError(false).seed(3).build()) {
            load.createTables().preload(20_000);
            load.start();
            connect.deploy(sourceName, SourceConfigs.with(SourceConfigs.keyspace("ks", db, olds, 2),
                    "copy.max.rows.per.second", "3000", "copy.chunk.max.rows", "1000", "copy.rows.per.record", "100"));
            Map<String, String> sink = reshardSink(String.join(",", topics));
            sink.put("target.topology", "-=" + merged.host() + ":" + merged.port());
            sink.put("tasks.max", "2");
            connect.deploy(sinkName, sink);
            LoadStats stats = load.awaitCompletion(Duration.ofSeconds(120));
            assertThat(stats.commits()).as("load commits").isGreaterThan(500);
            for (int i = 0; i < olds.size(); i++) {
                awaitApplied(merged, olds.get(i), sinkName, topics.get(i), Duration.ofSeconds(180));
            }
            Map<Long, String> expected = new TreeMap<>();
            for (int i = 0; i < olds.size(); i++) {
                Map<Long, String> part = rows(olds.get(i), db, "orders", "id");
                KeyRange range = KeyRange.parse(NEW_SHARDS[i]);
                assertThat(part.keySet()).as("rows of old shard %s", NEW_SHARDS[i]).isNotEmpty()
                        .allMatch(id -> range.contains(HASH.keyspaceId(id)));
                expected.putAll(part);
            }
            Map<Long, String> actual = rows(merged, db, "orders", "id");
            assertThat(diff(expected, actual)).as("merged shard - (%d rows expected, %d held)", expected.size(),
                    actual.size()).isEmpty();
            System.out.printf("ReshardSinkIT: %s.orders: %d rows of -80 and 80- merged into -, exactly (%s)%n", db,
                    actual.size(), stats);
        } finally {
            connect.delete(sinkName);
            connect.delete(sourceName);
        }
    }

    private void reshardUnderLoad(boolean restartSink) throws Exception {
        String db = SERVERS.freshDatabase(); // on the source and, empty, on both new shards
        MariaDbServer src = source();
        src.execute(db, "CREATE TABLE wallets (id INT PRIMARY KEY, owner BIGINT NOT NULL, balance INT NOT NULL,"
                + " note VARCHAR(40))");
        preloadWallets(src, db);
        String sourceName = "reshard-src-" + db;
        String sinkName = "reshard-sink-" + db;
        String topic = TopicNames.shardTopic("vs_" + db, "ks", "-");
        AtomicBoolean writing = new AtomicBoolean(true);
        AtomicLong walletWrites = new AtomicLong();
        Thread walletWriter = new Thread(() -> writeWallets(src, db, writing, walletWrites), "wallet-writer");
        try (WriteLoad load = WriteLoad.builder(Target.single(src, db)).table(LoadTable.standard("orders"))
                .threads(2).keySpace(30_000).statementsPerTransaction(1, 3).deleteRatio(0.15)
                .transactionsPerSecond(80).duration(Duration.ofSeconds(restartSink ? 35 : 25)).failOnError(false)
                .seed(restartSink ? 11 : 7).build()) {
            load.createTables().preload(20_000);
            load.start();
            walletWriter.start();
            // copy rows one to a record, or (with the sink restarted) 100 to a ROWS record, which each new shard splits
            connect.deploy(sourceName, SourceConfigs.with(SourceConfigs.keyspace("ks", db, List.of(src), 1),
                    "copy.max.rows.per.second", "6000", "copy.chunk.max.rows", "2000", "copy.rows.per.record",
                    restartSink ? "100" : "1"));
            connect.deploy(sinkName, reshardSink(topic));
            connect.awaitRunning(sinkName, 1, Duration.ofSeconds(60));
            if (restartSink) {
                // each fault waits for the phase it names (23,000 rows copied at most 6,000 rows/s)
                ApplierPhase.awaitCopying(target(0), sinkName, 2_000, Duration.ofSeconds(90));
                restart(sinkName); // during the copy
                ApplierPhase.awaitStreaming(target(0), sinkName, Duration.ofSeconds(120));
                ApplierPhase.awaitStreaming(target(1), sinkName, Duration.ofSeconds(120));
                restart(sinkName); // while streaming
                target(1).stop(); // new shard 80- goes away for 3 s, possibly between the commits on -80 and on 80-
                Thread.sleep(3_000);
                target(1).start();
            }
            LoadStats stats = load.awaitCompletion(Duration.ofSeconds(120));
            writing.set(false);
            walletWriter.join();
            assertThat(stats.commits()).as("load commits").isGreaterThan(500);
            assertThat(walletWrites.get()).as("wallet writes").isGreaterThan(200);

            long started = System.nanoTime();
            for (int i = 0; i < NEW_SHARDS.length; i++) {
                awaitApplied(target(i), source(), sinkName, topic, Duration.ofSeconds(180));
            }
            System.out.printf("ReshardSinkIT: both new shards caught up %d ms after the load stopped (%s)%n",
                    (System.nanoTime() - started) / 1_000_000, stats);
            assertExactlyPartitioned(db, "orders", "id");
            assertExactlyPartitioned(db, "wallets", "owner");
        } finally {
            writing.set(false);
            walletWriter.join(10_000);
            connect.delete(sinkName);
            connect.delete(sourceName);
        }
    }

    /** {@code POST /connectors/{name}/restart?includeTasks=true}, then waits for it to run again. */
    private static void restart(String sinkName) {
        connect.embedded().restartConnectorAndTasks(sinkName, false, true, false);
        connect.awaitRunning(sinkName, 1, Duration.ofSeconds(60));
    }

    private static Map<String, String> reshardSink(String topic) {
        Map<String, String> c = new HashMap<>();
        c.put("connector.class", SinkConfigs.SINK_CLASS);
        c.put("tasks.max", "1");
        c.put("topics", topic);
        c.put("mode", "reshard");
        c.put("target.topology", NEW_SHARDS[0] + "=" + target(0).host() + ":" + target(0).port() + ","
                + NEW_SHARDS[1] + "=" + target(1).host() + ":" + target(1).port());
        c.put("target.user", MariaDbServer.USER);
        c.put("target.password", MariaDbServer.PASSWORD);
        c.put("reshard.vindex", "hash");
        c.put("reshard.columns", "wallets:owner");
        c.put("reshard.column.default", "id");
        c.put("retry.backoff.initial.ms", "200");
        c.put("retry.backoff.max.ms", "2000");
        c.put("consumer.override.max.poll.records", "2000");
        // a sink subscribed before its topic exists sees it only at the next metadata refresh (5 min by default)
        c.put("consumer.override.metadata.max.age.ms", "1000");
        return c;
    }

    /**
     * Each new shard holds exactly the source rows whose keyspace id (hash of {@code shardingColumn}) is in its key
     * range: no row missing, none different, none extra (so no row is on the wrong shard).
     */
    private static void assertExactlyPartitioned(String db, String table, String shardingColumn) throws SQLException {
        Map<Long, String> all = rows(source(), db, table, shardingColumn);
        List<Map<Long, String>> expected = new ArrayList<>();
        for (String shard : NEW_SHARDS) {
            KeyRange range = KeyRange.parse(shard);
            Map<Long, String> part = new TreeMap<>();
            for (Map.Entry<Long, String> e : all.entrySet()) {
                long sharding = Long.parseLong(e.getValue().substring(0, e.getValue().indexOf('|')));
                if (range.contains(HASH.keyspaceId(sharding))) {
                    part.put(e.getKey(), e.getValue());
                }
            }
            expected.add(part);
        }
        assertThat(expected.get(0).size() + expected.get(1).size()).isEqualTo(all.size());
        assertThat(expected.get(0)).as("rows of %s.%s in -80", db, table).isNotEmpty();
        assertThat(expected.get(1)).as("rows of %s.%s in 80-", db, table).isNotEmpty();
        for (int i = 0; i < NEW_SHARDS.length; i++) {
            Map<Long, String> actual = rows(target(i), db, table, shardingColumn);
            String diff = diff(expected.get(i), actual);
            assertThat(diff).as("new shard %s, table %s (%d rows expected, %d held)", NEW_SHARDS[i], table,
                    expected.get(i).size(), actual.size()).isEmpty();
        }
        System.out.printf("ReshardSinkIT: %s.%s: %d source rows = %d on -80 + %d on 80-, each exactly%n", db, table,
                all.size(), expected.get(0).size(), expected.get(1).size());
    }

    /** Every row of a table by its key {@code id}: the sharding column's value first, then all columns. */
    private static Map<Long, String> rows(MariaDbServer server, String db, String table, String shardingColumn)
            throws SQLException {
        Map<Long, String> out = new TreeMap<>();
        try (Connection c = server.connect(db); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT `" + shardingColumn + "`, t.* FROM `" + table + "` t")) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                StringBuilder row = new StringBuilder();
                for (int i = 1; i <= n; i++) {
                    row.append(i == 1 ? "" : "|").append(rs.getString(i));
                }
                out.put(rs.getLong("id"), row.toString());
            }
        }
        return out;
    }

    /** The first differences (missing, extra, different), empty when equal. */
    private static String diff(Map<Long, String> expected, Map<Long, String> actual) {
        StringBuilder out = new StringBuilder();
        int shown = 0;
        for (Map.Entry<Long, String> e : expected.entrySet()) {
            String a = actual.get(e.getKey());
            if (!e.getValue().equals(a) && shown++ < 20) {
                out.append(a == null ? "missing " : "different ").append(e.getKey()).append(": expected ")
                        .append(e.getValue()).append(a == null ? "" : ", held " + a).append('\n');
            }
        }
        for (Map.Entry<Long, String> e : actual.entrySet()) {
            if (!expected.containsKey(e.getKey()) && shown++ < 40) {
                out.append("extra ").append(e.getKey()).append(": ").append(e.getValue()).append('\n');
            }
        }
        return out.toString();
    }

    /** Waits until a new shard's applied position for an old shard's log holds that old shard's current position. */
    private static void awaitApplied(MariaDbServer target, MariaDbServer old, String sinkName, String topic,
                                     Duration timeout) throws Exception {
        new AppliedPosition(target, sinkName, topic).await(old, timeout, () -> "sink: " + connect.status(sinkName));
    }

    private static void preloadWallets(MariaDbServer s, String db) {
        StringBuilder sql = new StringBuilder("INSERT INTO wallets VALUES ");
        for (int id = 1; id <= WALLETS; id++) {
            sql.append(id == 1 ? "" : ",").append('(').append(id).append(',').append(id * 7L % OWNERS).append(',')
                    .append(id % 500).append(',').append(id % 4 == 0 ? "NULL" : "'w" + id + "'").append(')');
        }
        s.execute(db, sql.toString());
    }

    /**
     * Small transactions on wallets until told to stop: owner changes (which move a row from one new shard to the
     * other about half the time), balance updates, inserts and deletes.
     */
    private static void writeWallets(MariaDbServer s, String db, AtomicBoolean writing, AtomicLong count) {
        Random random = new Random(42);
        int next = WALLETS + 1;
        try (Connection c = s.connect(db)) {
            c.setAutoCommit(false);
            try (PreparedStatement move = c.prepareStatement("UPDATE wallets SET owner = ?, balance = balance + 1"
                    + " WHERE id = ?");
                 PreparedStatement pay = c.prepareStatement("UPDATE wallets SET balance = balance - 1, note = ?"
                         + " WHERE id = ?");
                 PreparedStatement add = c.prepareStatement("INSERT INTO wallets VALUES (?, ?, 0, 'new')");
                 PreparedStatement drop = c.prepareStatement("DELETE FROM wallets WHERE id = ?")) {
                while (writing.get()) {
                    int statements = 1 + random.nextInt(3);
                    for (int i = 0; i < statements; i++) {
                        int pick = random.nextInt(100);
                        if (pick < 45) {
                            move.setLong(1, random.nextInt(OWNERS));
                            move.setInt(2, 1 + random.nextInt(next));
                            move.executeUpdate();
                        } else if (pick < 70) {
                            pay.setString(1, "p" + random.nextInt(1000));
                            pay.setInt(2, 1 + random.nextInt(next));
                            pay.executeUpdate();
                        } else if (pick < 85) {
                            add.setInt(1, next++);
                            add.setLong(2, random.nextInt(OWNERS));
                            add.executeUpdate();
                        } else {
                            drop.setInt(1, 1 + random.nextInt(next));
                            drop.executeUpdate();
                        }
                    }
                    c.commit();
                    count.incrementAndGet();
                    Thread.sleep(15);
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("wallet writes failed: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
