package io.vstream.connect.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.vstream.connect.local.compare.ComparisonResult;
import io.vstream.connect.local.load.LoadStats;
import io.vstream.connect.local.load.LoadTable;
import io.vstream.connect.local.load.Target;
import io.vstream.connect.local.load.WriteLoad;
import io.vstream.connect.testsupport.connect.ConnectCluster;
import io.vstream.connect.testsupport.db.MariaDbServer;
import io.vstream.connect.testsupport.db.MariaDbShards;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.connect.data.Struct;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Reverting an online ALTER (issue #21) on two shards: with a revert window (ddl.revert.window.ms) the workflow's
 * source and sink run on after the cut-over as the reverse stream, so the kept original ({@code <t>_old}) holds every
 * write made to the new table, through the inverse mapping (the added column left out, the widened one narrowed
 * back); `vsc revert` swaps it back under a write load losing nothing; releasing the window ends it; and a value the
 * original's narrower type cannot hold ends the window at once, the status naming the key. Deployed with the
 * documented accounts and configs.
 */
class OnlineDdlRevertIT {
    @RegisterExtension
    static final MariaDbShards SHARDS = MariaDbShards.builder().count(2).name("OnlineDdlRevertIT").build();

    private static final Duration WINDOW = Duration.ofMinutes(30);
    private static final int LOAD_KEYS = 4_000;
    private static final Duration LOCK_TIMEOUT = Duration.ofSeconds(3);

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
     * The test: writers and readers (on both shards and on a native replica of one) run before, through and
     * after the cut-over and the swaps of the revert window; once the workflow is REVERTIBLE the writers go on, then
     * `vsc revert` swaps the originals back in while they still write, a second one the ALTERed tables, a third one
     * the originals again, the writers going on after each; then `vsc release` ends the window. Every shard's table has the
     * old shape again and holds exactly the writers' model: every acknowledged write, including those made to the
     * ALTERed tables while they served.
     * No write failed, no reader saw an error, no write waited longer than the cut-over's lock timeout.
     */
    @Test
    void aRevertUnderLoadBringsTheOldShapeBackHoldingEveryWrite() throws Exception {
        String db = SHARDS.freshDatabase();
        MariaDbServer replica = SHARDS.startReplica(0);
        Migration m = new Migration(db, "orders");
        AtomicBoolean reading = new AtomicBoolean(true);
        Map<String, AtomicLong> readErrors = new ConcurrentHashMap<>();
        List<Thread> readers = new ArrayList<>();
        try (WriteLoad load = WriteLoad.builder(Target.byModulo(SHARDS.servers(), db))
                .table(LoadTable.standard("orders")).threads(2).keySpace(LOAD_KEYS).statementsPerTransaction(1, 3)
                .deleteRatio(0.05).transactionsPerSecond(80).duration(Duration.ofMinutes(8)).failOnError(false)
                .seed(21).build()) {
            load.createTables();
            load.preload(LOAD_KEYS);
            load.start();
            readers.add(OnlineDdlIT.reader("shard0", SHARDS.server(0), db, reading, readErrors));
            readers.add(OnlineDdlIT.reader("shard1", SHARDS.server(1), db, reading, readErrors));
            // the replica's reader starts once the replica holds the table (a lagging replica has no table yet)
            replica.awaitCaughtUpWith(SHARDS.server(0), Duration.ofMinutes(2));
            readers.add(OnlineDdlIT.reader("replica", replica, db, reading, readErrors));
            m.deploy("MODIFY amount DECIMAL(14,2) NOT NULL, ADD COLUMN note VARCHAR(32) NOT NULL DEFAULT 'n',"
                    + " ADD INDEX k_amount (k, amount)", Map.of());
            Struct revertible = m.awaitRevertible("revertible until");
            assertThat(revertible.getString("reason")).contains("orders_old").contains("vsc release");
            long blockMs = CoordinatorJmx.awaitLastWriteBlockMs(m.coordinator, Duration.ofSeconds(60));
            assertThat(load.isRunning()).as("the cut-over happened under load").isTrue();
            load.awaitCommits(load.stats().commits() + 300, Duration.ofMinutes(3)); // writes to the new table
            // `vsc revert` flips ddl.revert: the originals back in; again: the ALTERed tables; again: the originals
            for (boolean toOriginal : new boolean[] {true, false, true}) {
                CliIT.Run revert = vsc("revert", m.coordinator);
                assertThat(revert.code()).as(revert.err()).isZero();
                assertThat(revert.out()).contains("ddl.revert=" + toOriginal);
                String side = toOriginal ? "reverted:" : "revertible until";
                m.awaitRevertible(side);
                blockMs = Math.max(blockMs, CoordinatorJmx.awaitLastWriteBlockMs(m.coordinator,
                        Duration.ofSeconds(60)));
                assertThat(load.isRunning()).as("the swap happened under load").isTrue();
                load.awaitCommits(load.stats().commits() + 200, Duration.ofMinutes(3)); // writes after the swap
            }
            assertThat(vsc("release", m.coordinator).code()).isZero();
            Struct reverted = m.awaitState("REVERTED");
            assertThat(reverted.getString("reason")).contains("released");
            LoadStats stats = load.stop();
            reading.set(false);
            for (Thread t : readers) {
                t.join();
            }
            m.delete();
            assertThat(readErrors).as("errors seen by readers").isEmpty();
            assertThat(stats.errors()).as("failed writes: %s", stats).isZero();
            // each swap's write block as the coordinator measured it (not a client's write time, which also counts
            // how a loaded machine schedules the client)
            assertThat(blockMs).as("the swaps blocked writes at most their lock timeout (%s)", LOCK_TIMEOUT)
                    .isBetween(0L, LOCK_TIMEOUT.toMillis());
            for (int i = 0; i < 2; i++) {
                MariaDbServer s = SHARDS.server(i);
                assertThat(s.queryString(db, "SELECT COLUMN_TYPE FROM information_schema.COLUMNS WHERE"
                        + " TABLE_SCHEMA = ? AND TABLE_NAME = 'orders' AND COLUMN_NAME = 'amount'", db))
                        .as("shard %d: the old shape is back", i).isEqualTo("decimal(12,2)");
                assertThat(s.queryLong(db, "SELECT COUNT(*) FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ?"
                        + " AND TABLE_NAME = 'orders' AND COLUMN_NAME = 'note'", db)).isZero();
                ComparisonResult r = load.verifyShard(i, "orders");
                assertThat(r.isEqual()).as("shard %d holds every acknowledged write: %s", i, r).isTrue();
            }
        } finally {
            reading.set(false);
            m.delete();
        }
    }

    /**
     * While the window is open the original follows the new table (an update made after the swap reaches it through
     * the reverse mapping), also after the sink's tasks restart (an insert and a delete made after that); `vsc
     * release --drop` completes the workflow, stops the reverse stream and drops the original on every shard.
     */
    @Test
    void theOriginalFollowsTheNewTableUntilTheWindowIsReleased() throws Exception {
        String db = SHARDS.freshDatabase();
        createItems(db);
        Migration m = new Migration(db, "items");
        try {
            m.deploy("ADD COLUMN note VARCHAR(10) NULL, MODIFY qty BIGINT NULL", Map.of());
            m.awaitRevertible("revertible until");
            MariaDbServer shard = SHARDS.server(1);
            shard.execute(db, "UPDATE items SET qty = 42, note = 'new' WHERE id = 2");
            awaitValue(shard, db, "SELECT qty FROM items_old WHERE id = 2", "42");
            // the sink's tasks restart (a config change): they go on in the direction they had recorded
            connect.deploy(m.sink, with(OnlineDdlConfigs.ghostSink(SHARDS.servers(), db), "batch.max.rows", "50"));
            shard.execute(db, "INSERT INTO items (id, name, qty, note) VALUES (9, 'nine \uD83D\uDE00', NULL, 'n')",
                    "DELETE FROM items WHERE id = 1");
            awaitValue(shard, db, "SELECT GROUP_CONCAT(id, ':', name, ':', IFNULL(qty, '-') ORDER BY id) FROM"
                    + " items_old", "0:zero:-,2:two:42,3:three:3,9:nine \uD83D\uDE00:-");
            CliIT.Run release = vsc("release", m.coordinator, "--drop");
            assertThat(release.code()).as(release.err()).isZero();
            Struct complete = m.awaitState("COMPLETE");
            assertThat(complete.getString("reason")).contains("released the revert window")
                    .contains("dropped (ddl.revert.drop.on.release): -80: items_old, 80-: items_old");
            for (MariaDbServer s : SHARDS.servers()) {
                assertThat(s.queryLong(db, "SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = ?"
                        + " AND TABLE_NAME IN ('items', 'items_old')", db)).as("the original is dropped").isOne();
            }
        } finally {
            m.delete();
        }
    }

    /**
     * A column widened by the ALTER: a value the original's type cannot hold, written after the cut-over, stops the
     * reverse stream; the workflow (whose watch sees the sink's task fail) ends the window at once, naming the table,
     * the key and the reason, and is COMPLETE: the ALTER itself stands, and `vsc revert` is refused naming the key.
     * Writes before it reached the original, 4-byte UTF-8 and the zero key among them.
     */
    @Test
    void aValueTheOriginalCannotHoldEndsTheWindowNamingItsKey() throws Exception {
        String db = SHARDS.freshDatabase();
        createItems(db);
        Migration m = new Migration(db, "items");
        m.watched = true;
        try {
            m.deploy("MODIFY name VARCHAR(64) NOT NULL", Map.of());
            m.awaitRevertible("revertible until");
            MariaDbServer shard = SHARDS.server(0);
            shard.execute(db, "UPDATE items SET name = 'zero \uD83D\uDE80 fits', qty = 7 WHERE id = 0");
            awaitValue(shard, db, "SELECT CONCAT(name, '/', qty) FROM items_old WHERE id = 0",
                    "zero \uD83D\uDE80 fits/7");
            shard.execute(db, "UPDATE items SET name = REPEAT('w', 40) WHERE id = 3");
            Struct complete = m.awaitState("COMPLETE");
            assertThat(complete.getString("reason")).contains("revert is no longer possible").contains("items_old")
                    .contains("id=3");
            CliIT.Run refused = vsc("revert", m.coordinator);
            assertThat(refused.code()).isEqualTo(io.vstream.connect.cli.ExitCodes.FAILURE);
            assertThat(refused.err()).contains("the workflow is COMPLETE").contains("id=3")
                    .contains("nothing changed");
            assertThat(shard.queryString(db, "SELECT name FROM items_old WHERE id = 3")).as("the original as it was")
                    .isEqualTo("three");
            assertThat(shard.queryString(db, "SELECT name FROM items WHERE id = 3")).isEqualTo("w".repeat(40));
        } finally {
            m.delete();
        }
    }

    private static Map<String, String> with(Map<String, String> config, String key, String value) {
        config.put(key, value);
        return config;
    }

    private static CliIT.Run vsc(String... args) {
        return CliIT.vsc(connect, args);
    }

    /** The same small table on both shards: the zero key, 4-byte UTF-8, a NULL. */
    private static void createItems(String db) {
        for (int i = 0; i < 2; i++) {
            SHARDS.server(i).execute(db, "CREATE TABLE items (id INT NOT NULL PRIMARY KEY, name VARCHAR(20) NOT NULL,"
                    + " qty INT NULL) DEFAULT CHARSET=utf8mb4", "INSERT INTO items VALUES (0, 'zero', NULL), (1,"
                    + " 'one \uD83D\uDE00', 1), (2, 'two', 2), (3, 'three', 3)");
        }
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

    /** The three connectors of one revertible migration, with the documented accounts and configs. */
    private static final class Migration {
        final OnlineDdlMigration m;
        final String coordinator;
        final String sink;
        boolean watched;

        Migration(String db, String table) {
            this.m = new OnlineDdlMigration(connect, SHARDS.servers(), "rv", db, table).withDocumentedAccounts();
            this.coordinator = m.coordinator;
            this.sink = m.sink;
        }

        /** The migration with a revert window of {@link #WINDOW} and the cut-over's lock timeout, plus {@code extra}. */
        void deploy(String alter, Map<String, String> extra) {
            m.watched = watched;
            Map<String, String> c = new HashMap<>();
            c.put("ddl.revert.window.ms", String.valueOf(WINDOW.toMillis()));
            c.put("cutover.lock.timeout.ms", String.valueOf(LOCK_TIMEOUT.toMillis()));
            c.putAll(extra);
            m.deploy(alter, c);
        }

        /** The next status of REVERTIBLE with a reason that starts with {@code reasonStart}. */
        Struct awaitRevertible(String reasonStart) throws InterruptedException {
            return m.awaitNextStatus("REVERTIBLE, " + reasonStart, s -> "REVERTIBLE".equals(s.getString("state"))
                    && s.getString("reason") != null && s.getString("reason").startsWith(reasonStart));
        }

        /** The next status of {@code state}. */
        Struct awaitState(String state) throws InterruptedException {
            return m.awaitNextState(state);
        }

        void delete() {
            m.delete();
        }
    }
}
