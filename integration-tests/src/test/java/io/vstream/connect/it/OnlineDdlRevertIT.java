package io.vstream.connect.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.vstream.connect.testsupport.compare.ComparisonResult;
import io.vstream.connect.testsupport.connect.ConnectCluster;
import io.vstream.connect.testsupport.db.MariaDbServer;
import io.vstream.connect.testsupport.db.MariaDbShards;
import io.vstream.connect.testsupport.load.LoadStats;
import io.vstream.connect.testsupport.load.LoadTable;
import io.vstream.connect.testsupport.load.Target;
import io.vstream.connect.testsupport.load.WriteLoad;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.apache.kafka.connect.data.Struct;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The revert window of an online ALTER (issue #21, ddl.revert.window.ms) on two shards: after the cut-over the
 * workflow's source and sink run on as the reverse stream, so the kept original ({@code <t>_old}) holds every write
 * made to the new table, through the inverse mapping (the added column left out, the widened one narrowed back),
 * under a write load, until the operator releases the window; and a value the original's narrower type cannot hold
 * ends the window at once, the status naming the key. Deployed with the documented accounts and configs.
 */
class OnlineDdlRevertIT {
    @RegisterExtension
    static final MariaDbShards SHARDS = MariaDbShards.builder().count(2).name("OnlineDdlRevertIT").build();

    private static final Duration WINDOW = Duration.ofMinutes(30);
    private static final int LOAD_KEYS = 4_000;

    static ConnectCluster connect;

    @BeforeAll
    static void startConnect() {
        connect = ConnectCluster.builder().name("revert").workers(1).start();
    }

    @AfterAll
    static void stopConnect() {
        if (connect != null) {
            connect.close();
        }
    }

    /**
     * Writers run before, through and after the cut-over; once the workflow is REVERTIBLE they go on, then stop: on
     * every shard the original holds exactly the writers' model (the new table too), and the two tables agree on
     * every column the original has. Releasing the window completes the workflow.
     */
    @Test
    void theOriginalHoldsEveryWriteMadeAfterTheCutOverUntilTheWindowIsReleased() throws Exception {
        String db = SHARDS.freshDatabase();
        Migration m = new Migration(db, "orders");
        try (WriteLoad load = WriteLoad.builder(Target.byModulo(SHARDS.servers(), db))
                .table(LoadTable.standard("orders")).threads(2).keySpace(LOAD_KEYS).statementsPerTransaction(1, 3)
                .deleteRatio(0.05).transactionsPerSecond(80).duration(Duration.ofMinutes(8)).failOnError(false)
                .seed(21).build()) {
            load.createTables();
            load.preload(LOAD_KEYS);
            load.start();
            m.deploy("MODIFY amount DECIMAL(14,2) NOT NULL, ADD COLUMN note VARCHAR(32) NOT NULL DEFAULT 'n',"
                    + " ADD INDEX k_amount (k, amount)", Map.of());
            Struct revertible = m.awaitStatus("REVERTIBLE with its window",
                    s -> "REVERTIBLE".equals(s.getString("state")) && s.getString("reason") != null
                            && s.getString("reason").startsWith("revertible until"));
            assertThat(revertible.getString("reason")).contains("orders_old").contains("vsc release");
            assertThat(load.isRunning()).as("the cut-over happened under load").isTrue();
            long atWindow = load.stats().commits();
            load.awaitCommits(atWindow + 300, Duration.ofMinutes(3)); // writes to the new table, streamed back
            LoadStats stats = load.stop();
            assertThat(stats.errors()).as("failed writes: %s", stats).isZero();
            for (int i = 0; i < 2; i++) {
                MariaDbServer s = SHARDS.server(i);
                assertThat(s.queryLong(db, "SELECT COUNT(*) FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ?"
                        + " AND TABLE_NAME = 'orders' AND COLUMN_NAME = 'note'", db)).as("the new table").isOne();
                assertThat(load.verifyShard(i, "orders").isEqual()).as("shard %d: the new table holds every write",
                        i).isTrue();
                awaitEqual(load, i, "orders_old");
                String columns = "id, k, v, amount, updated";
                assertThat(checksum(s, db, "orders_old", columns)).as("shard %d: original and new table agree", i)
                        .isEqualTo(checksum(s, db, "orders", columns));
                assertThat(s.queryString(db, "SELECT COLUMN_TYPE FROM information_schema.COLUMNS WHERE"
                        + " TABLE_SCHEMA = ? AND TABLE_NAME = 'orders_old' AND COLUMN_NAME = 'amount'", db))
                        .as("the original keeps its shape").isEqualTo("decimal(12,2)");
            }
            m.reconfigure(Map.of("ddl.revert.release", "true"));
            Struct complete = m.awaitStatus("COMPLETE", s -> "COMPLETE".equals(s.getString("state")));
            assertThat(complete.getString("reason")).contains("released the revert window");
        } finally {
            m.delete();
        }
    }

    /**
     * A column widened by the ALTER: a value the original's type cannot hold, written after the cut-over, stops the
     * reverse stream; the workflow (whose watch sees the sink's task fail) ends the window at once, naming the table,
     * the key and the reason, and is COMPLETE: the ALTER itself stands. Writes before it reached the original,
     * 4-byte UTF-8 and the zero key among them.
     */
    @Test
    void aValueTheOriginalCannotHoldEndsTheWindowNamingItsKey() throws Exception {
        String db = SHARDS.freshDatabase();
        for (int i = 0; i < 2; i++) {
            SHARDS.server(i).execute(db, "CREATE TABLE items (id INT NOT NULL PRIMARY KEY, name VARCHAR(20) NOT NULL,"
                    + " qty INT NULL) DEFAULT CHARSET=utf8mb4", "INSERT INTO items VALUES (0, 'zero', NULL), (1,"
                    + " 'one \uD83D\uDE00', 1), (2, 'two', 2), (3, 'three', 3)");
        }
        Migration m = new Migration(db, "items");
        m.watched = true;
        try {
            m.deploy("MODIFY name VARCHAR(64) NOT NULL", Map.of());
            m.awaitStatus("REVERTIBLE with its window", s -> "REVERTIBLE".equals(s.getString("state"))
                    && s.getString("reason") != null && s.getString("reason").startsWith("revertible until"));
            MariaDbServer shard = SHARDS.server(0);
            shard.execute(db, "UPDATE items SET name = 'zero \uD83D\uDE80 fits', qty = 7 WHERE id = 0");
            awaitValue(shard, db, "SELECT CONCAT(name, '/', qty) FROM items_old WHERE id = 0",
                    "zero \uD83D\uDE80 fits/7");
            shard.execute(db, "UPDATE items SET name = REPEAT('w', 40) WHERE id = 3");
            Struct complete = m.awaitStatus("COMPLETE", s -> "COMPLETE".equals(s.getString("state")));
            assertThat(complete.getString("reason")).contains("revert is no longer possible").contains("items_old")
                    .contains("id=3");
            assertThat(shard.queryString(db, "SELECT name FROM items_old WHERE id = 3")).as("the original as it was")
                    .isEqualTo("three");
            assertThat(shard.queryString(db, "SELECT name FROM items WHERE id = 3")).isEqualTo("w".repeat(40));
        } finally {
            m.delete();
        }
    }

    /** Waits until {@code table} on shard {@code shard} holds exactly the load's model. */
    private static void awaitEqual(WriteLoad load, int shard, String table) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        ComparisonResult r = load.verifyShard(shard, table);
        while (!r.isEqual() && System.nanoTime() < deadline) {
            Thread.sleep(500);
            r = load.verifyShard(shard, table);
        }
        assertThat(r.isEqual()).as("shard %d: %s holds every acknowledged write: %s", shard, table, r).isTrue();
    }

    private static void awaitValue(MariaDbServer s, String db, String sql, String expected)
            throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        String last = s.queryString(db, sql);
        while (!expected.equals(last) && System.nanoTime() < deadline) {
            Thread.sleep(300);
            last = s.queryString(db, sql);
        }
        assertThat(last).as(sql).isEqualTo(expected);
    }

    private static String checksum(MariaDbServer s, String db, String table, String columns) {
        return s.queryString(db, "SELECT CONCAT(COUNT(*), '/', COALESCE(BIT_XOR(CRC32(CONCAT_WS('|', " + columns
                + "))), 0)) FROM " + table);
    }

    /** The three connectors of one revertible migration, with the documented accounts and configs. */
    private static final class Migration {
        final String db;
        final String table;
        final String source;
        final String sink;
        final String coordinator;
        final String statusTopic;
        boolean watched;
        Map<String, String> coordinatorConfig;

        Migration(String db, String table) {
            this.db = db;
            this.table = table;
            this.source = "rv-src-" + db;
            this.sink = "rv-sink-" + db;
            this.coordinator = "rv-coord-" + db;
            this.statusTopic = "rv-status-" + db;
            for (MariaDbServer s : SHARDS.servers()) {
                s.execute("mysql", DocumentedGrants.statements("cdc source", db).toArray(String[]::new));
                s.execute("mysql", DocumentedGrants.statements("online-ddl shard", db).toArray(String[]::new));
            }
        }

        void deploy(String alter, Map<String, String> extra) {
            coordinatorConfig = OnlineDdlConfigs.coordinator(SHARDS.servers(), db, table, alter, sink, statusTopic);
            coordinatorConfig.put("ddl.revert.window.ms", String.valueOf(WINDOW.toMillis()));
            if (watched) {
                coordinatorConfig.put("watch.connect.url", connect.restUrl());
                coordinatorConfig.put("watch.connectors", source + "," + sink);
            }
            coordinatorConfig.putAll(extra);
            connect.deploy(coordinator, coordinatorConfig);
            connect.deploy(source, OnlineDdlConfigs.source(SHARDS.servers(), db, table, false));
            connect.deploy(sink, OnlineDdlConfigs.ghostSink(SHARDS.servers(), db));
        }

        /** The coordinator's config with {@code changes}, PUT again (as `vsc release` does). */
        void reconfigure(Map<String, String> changes) {
            Map<String, String> c = new HashMap<>(coordinatorConfig);
            c.putAll(changes);
            connect.deploy(coordinator, c);
        }

        /** Waits for a status record that {@code wanted} accepts, failing on FAILED or after 5 minutes. */
        Struct awaitStatus(String what, Predicate<Struct> wanted) throws InterruptedException {
            long deadline = System.nanoTime() + Duration.ofMinutes(5).toNanos();
            String last = null;
            while (System.nanoTime() < deadline) {
                List<Struct> all = new ArrayList<>();
                try {
                    connect.topics().readAll(statusTopic, false).forEach(d -> all.add((Struct) d.value().value()));
                } catch (RuntimeException e) {
                    // the topic does not exist yet
                }
                for (Struct s : all) {
                    if (wanted.test(s)) {
                        return s;
                    }
                }
                if (!all.isEmpty()) {
                    Struct s = all.get(all.size() - 1);
                    last = s.toString();
                    assertThat(s.getString("state")).as("the workflow failed: %s", s).isNotEqualTo("FAILED");
                }
                Thread.sleep(500);
            }
            throw new AssertionError("the workflow never reached " + what + "; last status " + last);
        }

        void delete() {
            for (String n : List.of(sink, source, coordinator)) {
                try {
                    connect.delete(n);
                } catch (RuntimeException e) {
                    // already gone
                }
            }
        }
    }
}
