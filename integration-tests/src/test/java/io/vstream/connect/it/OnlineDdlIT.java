package io.vstream.connect.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.vstream.connect.cli.ExitCodes;
import io.vstream.connect.local.compare.ComparisonResult;
import io.vstream.connect.local.load.LoadStats;
import io.vstream.connect.local.load.LoadTable;
import io.vstream.connect.local.load.LoadTransaction;
import io.vstream.connect.local.load.Target;
import io.vstream.connect.local.load.WriteLoad;
import io.vstream.connect.testsupport.compare.TableComparator;
import io.vstream.connect.testsupport.connect.ConnectCluster;
import io.vstream.connect.testsupport.db.MariaDbServer;
import io.vstream.connect.testsupport.db.MariaDbShards;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.connect.data.Struct;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * An online ALTER on a table of two shards (200k rows each) through our stream, under writers and readers that run
 * through the whole migration including the cut-over (and a reader on a native replica of one shard): nobody ever gets
 * "table doesn't exist", writes wait at most the lock timeout, every acknowledged write is in the new table, the old
 * table equals the new one at the cut-over position, the status carries the copy's progress, and the new table has
 * the new schema on every shard. Also postpone/release, cancel, a throttled copy, a ghost that differs (the checksum
 * fails naming the keys), a coordinator that dies at each cut-over step, and a new unique key that the data violates.
 */
class OnlineDdlIT {
    @RegisterExtension
    static final MariaDbShards SHARDS = MariaDbShards.builder().count(2).name("OnlineDdlIT").build();

    static ConnectCluster connect;

    @BeforeAll
    static void startConnect() {
        connect = ConnectCluster.builder().name("ddl").workers(2).start();
    }

    @AfterAll
    static void stopConnect() {
        if (connect != null) {
            connect.close();
        }
    }

    private static final String ALTER = "MODIFY amount DECIMAL(14,2) NOT NULL, ADD INDEX k_amount (k, amount),"
            + " CHANGE COLUMN extra extra2 VARCHAR(40) NULL, DROP COLUMN legacy,"
            + " ADD COLUMN created TIMESTAMP NULL DEFAULT NULL";

    private static final int BULK_ROWS_PER_SHARD = 200_000;
    private static final long BULK_FIRST_ID = 1_000_000;
    private static final int LOAD_KEYS = 20_000;
    private static final Duration LOCK_TIMEOUT = Duration.ofSeconds(3);

    /**
     * The scale: 200k rows per shard (plus the write load's 10k), an ALTER that needs a full copy, writers and
     * readers through the whole migration and its cut-over. Checks the progress in the status, that nobody saw an
     * error, that writes blocked at most the lock timeout, that every acknowledged write is in the new table, and
     * that the old table equals the new one through the mapping at the cut-over position (the RENAME's GTID: rows
     * that no acknowledged write touched after it must be the same in both).
     */
    @Test
    void alterUnderLoadSwapsAtomicallyOnEveryShard() throws Exception {
        long begin = System.nanoTime();
        MariaDbServer replica = SHARDS.startReplica(0);
        String db = SHARDS.freshDatabase();
        OnlineDdlMigration w = migration(db, "orders");
        AtomicBoolean reading = new AtomicBoolean(true);
        Map<String, AtomicLong> readErrors = new ConcurrentHashMap<>();
        List<Thread> readers = new ArrayList<>();
        try (WriteLoad load = WriteLoad.builder(Target.byModulo(SHARDS.servers(), db))
                .table(LoadTable.standard("orders")).threads(2).keySpace(LOAD_KEYS).statementsPerTransaction(1, 3)
                .deleteRatio(0.05).transactionsPerSecond(120).duration(Duration.ofMinutes(8)).failOnError(false)
                .seed(3).build()) {
            load.createTables();
            for (int i = 0; i < 2; i++) {
                MariaDbServer s = SHARDS.server(i);
                s.execute(db, "ALTER TABLE orders ADD COLUMN legacy VARCHAR(10) DEFAULT 'x',"
                        + " ADD COLUMN extra VARCHAR(20) DEFAULT 'e'");
                // rows no load writer touches (ids beyond its keys, owned by this shard), in one statement
                s.execute(db, "INSERT INTO orders (id, k, v, amount, updated, legacy, extra) SELECT "
                        + (BULK_FIRST_ID + i) + " + 2 * seq, seq % 1000, IF(seq % 9 = 0, NULL, MD5(seq)),"
                        + " (seq % 100000) / 100, '2024-01-01' + INTERVAL seq SECOND, 'l', IF(seq % 4 = 0, NULL,"
                        + " CONCAT('x', seq)) FROM seq_0_to_" + (BULK_ROWS_PER_SHARD - 1));
                s.execute(db, "ANALYZE TABLE orders");
            }
            load.preload(LOAD_KEYS);
            load.start();
            readers.add(reader("shard0", SHARDS.server(0), db, reading, readErrors));
            readers.add(reader("shard1", SHARDS.server(1), db, reading, readErrors));
            // the replica's reader starts once the replica holds the table (a lagging replica has no table yet)
            replica.awaitCaughtUpWith(SHARDS.server(0), Duration.ofMinutes(2));
            readers.add(reader("replica", replica, db, reading, readErrors));
            long deployed = System.nanoTime();
            w.deploy(ALTER, Map.of("cutover.lock.timeout.ms", String.valueOf(LOCK_TIMEOUT.toMillis())));
            List<Struct> statuses = CloneHandoffIT.awaitState(connect, w.statusTopic, "COMPLETE",
                    Duration.ofSeconds(300));
            long migrated = System.nanoTime();
            assertThat(load.isRunning()).as("the cut-over happened under load").isTrue();
            List<String> states = new ArrayList<>();
            statuses.forEach(s -> {
                if (states.isEmpty() || !states.get(states.size() - 1).equals(s.getString("state"))) {
                    states.add(s.getString("state"));
                }
            });
            assertThat(states).containsSubsequence("CREATED", "COPYING", "READY", "CUTTING_OVER", "COMPLETE");
            assertProgress(statuses);
            long blockMs = CoordinatorJmx.awaitLastWriteBlockMs(w.coordinator, Duration.ofSeconds(60));
            load.awaitCommits(load.stats().commits() + 100, Duration.ofMinutes(3)); // writes to the new table
            LoadStats stats = load.stop();
            reading.set(false);
            for (Thread t : readers) {
                t.join();
            }
            w.delete(); // the checks below create views: no stream should see them
            assertThat(readErrors).as("errors seen by readers").isEmpty();
            assertThat(stats.errors()).as("failed writes: %s", stats).isZero();
            // the cut-over's write block as the coordinator measured it (a client's slowest write, printed below,
            // also counts how a loaded machine schedules the client)
            assertThat(blockMs).as("the cut-over blocked writes at most its lock timeout (%s)", LOCK_TIMEOUT)
                    .isBetween(0L, LOCK_TIMEOUT.toMillis());
            Duration slowest = Duration.ofNanos(load.committedTransactions().stream().filter(t -> t.thread() >= 0)
                    .mapToLong(LoadTransaction::durationNanos).max().orElse(0));
            for (MariaDbServer s : SHARDS.servers()) {
                String create = s.queryString(db, "SELECT CONCAT(COLUMN_NAME, ':', COLUMN_TYPE) FROM"
                        + " information_schema.COLUMNS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = 'orders' AND"
                        + " COLUMN_NAME = 'amount'", db);
                assertThat(create).isEqualTo("amount:decimal(14,2)");
                assertThat(s.queryLong(db, "SELECT COUNT(*) FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ?"
                        + " AND TABLE_NAME = 'orders' AND COLUMN_NAME IN ('extra2', 'created')", db)).isEqualTo(2L);
                assertThat(s.queryLong(db, "SELECT COUNT(*) FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ?"
                        + " AND TABLE_NAME = 'orders' AND COLUMN_NAME IN ('legacy', 'extra')", db)).isZero();
                assertThat(s.queryLong(db, "SELECT COUNT(*) FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = ?"
                        + " AND TABLE_NAME = 'orders' AND INDEX_NAME = 'k_amount'", db)).isEqualTo(2L);
                assertThat(s.queryLong(db, "SELECT COUNT(*) FROM orders WHERE id >= ?", BULK_FIRST_ID))
                        .as("the rows no writer touched").isEqualTo((long) BULK_ROWS_PER_SHARD);
                // the load's model covers its own keys: a view over them is the table it verifies
                s.execute(db, "CREATE VIEW orders_load AS SELECT * FROM orders WHERE id <= " + LOAD_KEYS);
            }
            for (int i = 0; i < 2; i++) {
                var r = load.verifyShard(i, "orders_load");
                assertThat(r.isEqual()).as("shard %d holds every acknowledged write: %s%s", i, r,
                        r.isEqual() ? "" : mismatchContext(load, i, db, r)).isTrue();
                assertOldEqualsNewAtTheCutOver(load, i, db);
            }
            System.out.printf("OnlineDdlIT: %d rows per shard migrated in %d s under %s; writes blocked %d ms by the"
                    + " cut-over, slowest write %d ms; the test took %d s%n", BULK_ROWS_PER_SHARD + LOAD_KEYS / 2,
                    (migrated - deployed) / 1_000_000_000L, stats, blockMs, slowest.toMillis(),
                    (System.nanoTime() - begin) / 1_000_000_000L);
        } finally {
            reading.set(false);
            w.delete();
        }
    }

    /**
     * For a failed model check (CI saw one once, 2026-12-04, 8 rows of one shard, not reproduced): per differing key,
     * the load's transactions that wrote it (GTID, operation, outcome) and the key's row in the new and the old table,
     * to tell a change the applier lost before the cut-over from a write that went astray after it.
     */
    private static String mismatchContext(WriteLoad load, int shard, String db, io.vstream.connect.local.compare
            .ComparisonResult r) {
        StringBuilder b = new StringBuilder("\ncontext (the load's transactions per key, oldest first; rows now):");
        MariaDbServer s = SHARDS.server(shard);
        for (var d : r.differences()) {
            long key = Long.parseLong(d.key().values().iterator().next());
            b.append("\n  id ").append(key).append(':');
            for (LoadTransaction t : load.committedTransactions()) {
                t.changes().stream().filter(c -> c.key() == key && c.table().equals("orders")).forEach(c -> b
                        .append(' ').append(t.gtid()).append('/').append(c.op()).append('/').append(t.outcome()));
            }
            for (String table : List.of("orders", "orders_old")) {
                try {
                    b.append(" | ").append(table).append(": ").append(s.queryString(db, "SELECT CONCAT_WS(',', k,"
                            + " amount, updated) FROM " + table + " WHERE id = ?", key));
                } catch (RuntimeException e) {
                    b.append(" | ").append(table).append(": ").append(e.getMessage());
                }
            }
        }
        return b.toString();
    }

    /** The status records carried the copy's progress: rows, total, percent and ETA while copying, 100% after. */
    private static void assertProgress(List<Struct> statuses) {
        List<Struct> copying = statuses.stream().filter(s -> "COPYING".equals(s.getString("state"))
                && s.getInt64("rows_copied") != null && s.getInt64("rows_copied") > 0).toList();
        assertThat(copying).as("status records with copy progress").isNotEmpty();
        for (Struct s : copying) {
            assertThat(s.getInt64("rows_total")).isGreaterThanOrEqualTo(s.getInt64("rows_copied"));
            assertThat(s.getFloat64("progress_pct")).isBetween(0.0, 100.0);
        }
        assertThat(copying).as("an ETA while copying").anyMatch(s -> s.getInt64("eta_ms") != null
                && s.getInt64("eta_ms") > 0 && s.getFloat64("rows_per_second") > 0);
        Struct ready = statuses.stream().filter(s -> "READY".equals(s.getString("state"))).findFirst()
                .orElseThrow();
        long expected = 2L * (BULK_ROWS_PER_SHARD + LOAD_KEYS / 2);
        assertThat(ready.getInt64("rows_copied")).as("every row counted once")
                .isBetween(expected - 2_000, expected + 2_000);
        assertThat(ready.getInt64("rows_total")).isEqualTo(ready.getInt64("rows_copied"));
        assertThat(ready.getFloat64("progress_pct")).isEqualTo(100.0);
        assertThat(ready.getInt64("eta_ms")).isZero();
    }

    /**
     * {@code orders_old} is the original table at the cut-over position (the RENAME); every row that no acknowledged
     * write touched after the RENAME must be in the new table with the same values through the mapping (extra is
     * extra2, amount converted, legacy dropped), and the new table must hold no other row but those written after it.
     */
    private static void assertOldEqualsNewAtTheCutOver(WriteLoad load, int shard, String db) throws SQLException {
        MariaDbServer s = SHARDS.server(shard);
        long rename = renameSequence(s, db);
        Set<Long> touchedAfter = new HashSet<>(load.uncertainKeys("orders"));
        int after = 0;
        for (LoadTransaction t : load.committedTransactions(shard)) {
            if (t.gtidSequence() > rename) {
                after++;
                t.changes().forEach(c -> touchedAfter.add(c.key()));
            }
        }
        assertThat(after).as("shard %d: acknowledged writes after the cut-over", shard).isPositive();
        Map<Long, String> old = rows(s, db, "SELECT id, k, v, amount, updated, extra FROM orders_old ORDER BY id");
        Map<Long, String> now = rows(s, db, "SELECT id, k, v, amount, updated, extra2 FROM orders ORDER BY id");
        List<String> differences = new ArrayList<>();
        for (Map.Entry<Long, String> e : old.entrySet()) {
            if (!touchedAfter.contains(e.getKey()) && !e.getValue().equals(now.get(e.getKey()))) {
                differences.add(e.getKey() + (now.containsKey(e.getKey()) ? " differs" : " missing in the new table"));
            }
        }
        for (Long id : now.keySet()) {
            if (!touchedAfter.contains(id) && !old.containsKey(id)) {
                differences.add(id + " only in the new table");
            }
        }
        assertThat(differences).as("shard %d: old vs new at the cut-over (RENAME at sequence %d; %d rows compared)",
                shard, rename, old.size()).isEmpty();
        assertThat(old.size()).isGreaterThan(BULK_ROWS_PER_SHARD);
    }

    /** The GTID sequence of the cut-over's RENAME in the shard's binlog. */
    private static long renameSequence(MariaDbServer s, String db) throws SQLException {
        try (Connection c = s.connect(null); Statement st = c.createStatement()) {
            List<String> files = new ArrayList<>();
            try (ResultSet rs = st.executeQuery("SHOW BINARY LOGS")) {
                while (rs.next()) {
                    files.add(rs.getString(1));
                }
            }
            for (int f = files.size() - 1; f >= 0; f--) {
                String gtid = null;
                Long found = null;
                try (ResultSet rs = st.executeQuery("SHOW BINLOG EVENTS IN '" + files.get(f) + "'")) {
                    while (rs.next()) {
                        String type = rs.getString("Event_type");
                        String info = rs.getString("Info");
                        if ("Gtid".equals(type)) {
                            gtid = info;
                        } else if ("Query".equals(type) && info != null && info.contains("RENAME TABLE")
                                && info.contains("`" + db + "`.`orders_old`")) {
                            found = Long.parseLong(gtid.substring(gtid.lastIndexOf('-') + 1).trim());
                        }
                    }
                }
                if (found != null) {
                    return found;
                }
            }
        }
        throw new AssertionError("no cut-over RENAME of " + db + ".orders in the binlog of " + s);
    }

    private static Map<Long, String> rows(MariaDbServer s, String db, String sql) throws SQLException {
        Map<Long, String> out = new HashMap<>();
        try (Connection c = s.connect(db); Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                StringBuilder row = new StringBuilder();
                for (int i = 2; i <= 6; i++) {
                    row.append(rs.getString(i)).append('|');
                }
                out.put(rs.getLong(1), row.toString());
            }
        }
        return out;
    }

    @Test
    void postponeHoldsTheCutOverUntilReleasedAndCancelMidCopyDropsTheGhosts() throws Exception {
        String db = SHARDS.freshDatabase();
        createSmallTable(db, "items");
        OnlineDdlMigration w = migration(db, "items");
        w.deploy("ADD COLUMN note VARCHAR(20) NULL", Map.of("handoff.postpone", "true"));
        CloneHandoffIT.awaitState(connect, w.statusTopic, "POSTPONED", Duration.ofSeconds(90));
        w.awaitHeld("POSTPONED", Duration.ofSeconds(2)); // held: 2 s of the coordinator's rounds on, still postponed
        w.deploy("ADD COLUMN note VARCHAR(20) NULL", Map.of("handoff.postpone", "false"));
        CloneHandoffIT.awaitState(connect, w.statusTopic, "COMPLETE", Duration.ofSeconds(90));
        assertThat(SHARDS.server(1).queryLong(db, "SELECT COUNT(*) FROM information_schema.COLUMNS WHERE"
                + " TABLE_SCHEMA = ? AND TABLE_NAME = 'items' AND COLUMN_NAME = 'note'", db)).isEqualTo(1L);
        w.delete();

        // cancel in the middle of the copy (held there by a throttle that never lets go)
        String db2 = SHARDS.freshDatabase("cancel");
        createSmallTable(db2, "items");
        addRows(db2, "items");
        OnlineDdlMigration c = migration(db2, "items");
        Map<String, String> stalled = Map.of("throttle.max.applier.lag.ms", "1");
        Map<String, String> chunky = Map.of("copy.chunk.max.rows", "100", "copy.chunk.target.ms", "10",
                "copy.max.rows.per.second", "1000");
        c.deploy("ADD COLUMN note VARCHAR(20) NULL", stalled, chunky);
        // the phase the cancel is meant for: copying, held there by the throttle (its reason in the status)
        String held = awaitStatus(c, s -> "COPYING".equals(s.getString("state")) ? reasonWith(s, "copy throttled")
                : null);
        assertThat(held).as("the copy held by the throttle").contains("ms behind");
        assertThat(lastState(c)).as("still copying when the cancel comes").isEqualTo("COPYING");
        c.deploy("ADD COLUMN note VARCHAR(20) NULL", Map.of("throttle.max.applier.lag.ms", "1",
                "workflow.cancel", "true"), chunky);
        CloneHandoffIT.awaitState(connect, c.statusTopic, "CANCELLED", Duration.ofSeconds(60));
        for (MariaDbServer s : SHARDS.servers()) {
            assertThat(s.queryLong(db2, "SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = ?"
                    + " AND TABLE_NAME LIKE '\\_items\\_%'", db2)).as("ghost tables dropped").isZero();
            assertThat(s.queryLong(db2, "SELECT COUNT(*) FROM items")).isEqualTo(5000L);
        }
        c.delete();
    }

    @Test
    void aGhostThatDiffersFromTheOriginalFailsTheChecksumNamingTheKeys() throws Exception {
        String db = SHARDS.freshDatabase();
        createSmallTable(db, "items");
        OnlineDdlMigration w = migration(db, "items");
        w.deploy("MODIFY qty BIGINT NULL", Map.of("handoff.postpone", "true"));
        List<Struct> statuses = CloneHandoffIT.awaitState(connect, w.statusTopic, "POSTPONED", Duration.ofSeconds(90));
        // the status records carry each shard (when a state changes, and every 10 s): both copied and streaming,
        // with their applier's position
        List<Object> shards = null;
        for (Struct s : statuses) {
            if (s.getArray("shards") != null && !s.getArray("shards").isEmpty()) {
                shards = s.getArray("shards");
            }
        }
        assertThat(shards).as("a record with the shards").isNotNull();
        assertThat(shards).extracting(x -> ((Struct) x).getString("shard") + " " + ((Struct) x).getString("state"))
                .containsExactly("-80 streaming", "80- streaming");
        assertThat(shards).extracting(x -> ((Struct) x).getString("applied_position")).allMatch(p -> p != null
                && p.startsWith("MariaDB/"));
        // vsc diff compares each shard's original with its ghost through the mapping, on demand
        JsonNode equal = CloneHandoffIT.diff(connect, w.coordinator, ExitCodes.OK);
        assertThat(equal.path("tables_total").asInt()).as("one table per shard").isEqualTo(2);
        assertThat(equal.path("rows_compared").asLong()).as("500 rows on each shard").isEqualTo(1_000);
        // what a lost write would look like: a row the applier never wrote, and one it wrote wrong
        SHARDS.server(1).execute(db, "DELETE FROM _items_gho WHERE id = 7",
                "UPDATE _items_gho SET qty = 99 WHERE id = 8");
        JsonNode different = CloneHandoffIT.diff(connect, w.coordinator, ExitCodes.DIFFERENT);
        assertThat(different.path("differences").asLong()).isEqualTo(2);
        assertThat(different.path("details").toString()).contains("shard 80-").contains(db + ".items")
                .contains("id=7 missing in the ghost").contains("id=8 differs");
        w.deploy("MODIFY qty BIGINT NULL", Map.of("handoff.postpone", "false"));
        try {
            CloneHandoffIT.awaitState(connect, w.statusTopic, "COMPLETE", Duration.ofSeconds(90));
            throw new IllegalStateException("the migration should have failed its checksum");
        } catch (AssertionError e) {
            assertThat(e.getMessage()).contains("FAILED").contains("on shard 80-")
                    .contains("id=7 missing in the ghost").contains("id=8 differs");
        }
        for (MariaDbServer s : SHARDS.servers()) {
            assertThat(s.queryString(db, "SELECT COLUMN_TYPE FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ?"
                    + " AND TABLE_NAME = 'items' AND COLUMN_NAME = 'qty'", db)).as("nothing swapped")
                    .isEqualTo("int(11)");
            assertThat(s.queryLong(db, "SELECT COUNT(*) FROM items")).isEqualTo(500L);
        }
        w.delete();
    }

    @Test
    void aLaggingApplierThrottlesTheCopyWithTheReasonInTheStatus() throws Exception {
        String db = SHARDS.freshDatabase();
        createSmallTable(db, "items");
        addRows(db, "items");
        OnlineDdlMigration w = migration(db, "items");
        String alter = "ADD COLUMN note VARCHAR(20) NULL";
        // the server copy, slowed down so that it is still running when each throttle is looked at
        Map<String, String> slow = Map.of("ddl.copy.chunk.max.rows", "100", "ddl.copy.max.rows.per.second", "1000");
        w.deploy(alter, with(slow, "ddl.copy.paused", "true"));
        String paused = awaitStatus(w, s -> reasonWith(s, "copy throttled"));
        assertThat(paused).as("the operator's pause").contains("paused by the operator (ddl.copy.paused=true)");
        w.deploy(alter, with(slow, "throttle.replicas", "127.0.0.1:1"));
        String replica = awaitStatus(w, s -> reasonWith(s, "replica 127.0.0.1:1"));
        assertThat(replica).as("a replica that does not answer holds the copy").contains("unreachable or not"
                + " replicating");
        w.deploy(alter, with(slow, "throttle.max.applier.lag.ms", "1"));
        String reason = awaitStatus(w, s -> reasonWith(s, "ms behind"));
        assertThat(reason).as("the status says why the copy waits").contains("copy throttled");
        w.awaitHeld("COPYING", Duration.ofSeconds(2)); // the throttle holds the copy: 2 s of rounds on, still copying
        w.deploy(alter, with(slow, "throttle.max.applier.lag.ms", "0"));
        CloneHandoffIT.awaitState(connect, w.statusTopic, "COMPLETE", Duration.ofSeconds(120));
        for (MariaDbServer s : SHARDS.servers()) {
            assertThat(s.queryLong(db, "SELECT COUNT(*) FROM items")).isEqualTo(5000L);
        }
        w.delete();
    }

    private static Map<String, String> with(Map<String, String> base, String key, String value) {
        Map<String, String> out = new HashMap<>(base);
        out.put(key, value);
        return out;
    }

    /** The status's reason when it contains {@code part}, else null. */
    private static String reasonWith(Struct status, String part) {
        String r = status.getString("reason");
        return r != null && r.contains(part) ? r : null;
    }

    /**
     * The wedge of a throttle that never lifts: the applier (the sink) is held back past the throttle's limit in the
     * middle of the copy, so the copy waits; once the applier may go on it drains its backlog, the source's heartbeats
     * (sent while its copy waits) show it caught up, the throttle lifts and the migration completes with the throttle
     * still configured.
     */
    @Test
    void anApplierHeldBehindTheThrottleLimitCatchesUpAndTheCopyResumes() throws Exception {
        String db = SHARDS.freshDatabase();
        createSmallTable(db, "items");
        addRows(db, "items");
        OnlineDdlMigration w = migration(db, "items");
        Map<String, String> chunky = Map.of("copy.chunk.max.rows", "100", "copy.chunk.target.ms", "10",
                "copy.max.rows.per.second", "150");
        // the source's copy (the stream copy): its heartbeats while it waits are what lifts the throttle
        Map<String, String> throttled = Map.of("throttle.max.applier.lag.ms", "2000", "ddl.copy.method", "stream");
        // a sink task stopped by Connect's first rebalance before its consumer had joined leaves a member the group
        // waits for up to the session timeout (45 s by default, once longer than this copy): the copy must still
        // run when the sink applies, so the group gives up on such a member sooner
        w.deploy("ADD COLUMN note VARCHAR(20) NULL", throttled, chunky,
                Map.of("consumer.override.session.timeout.ms", "10000"));
        Long applying = awaitStatus(w, s -> s.getInt64("rows_copied") != null && s.getInt64("rows_copied") > 0
                && s.getInt64("lag_ms") != null ? s.getInt64("rows_copied") : null);
        assertThat(applying).as("the applier has copied rows").isNotNull();
        connect.embedded().pauseConnector(w.sink);
        String reason = awaitStatus(w, s -> s.getString("reason") != null
                && s.getString("reason").contains("copy throttled") ? s.getString("reason") : null);
        assertThat(reason).as("the copy waits for the held-back applier").contains("ms behind");
        connect.embedded().resumeConnector(w.sink);
        List<Struct> statuses = CloneHandoffIT.awaitState(connect, w.statusTopic, "COMPLETE", Duration.ofSeconds(180));
        assertThat(statuses.stream().filter(s -> "COPYING".equals(s.getString("state")) && s.getString("reason") == null
                && s.getInt64("lag_ms") != null)).as("copying again, unthrottled, with the applier's lag").isNotEmpty();
        for (MariaDbServer s : SHARDS.servers()) {
            assertThat(s.queryLong(db, "SELECT COUNT(*) FROM items")).isEqualTo(5000L);
            assertThat(s.queryLong(db, "SELECT COUNT(*) FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? AND"
                    + " TABLE_NAME = 'items' AND COLUMN_NAME = 'note'", db)).isEqualTo(1L);
        }
        w.delete();
    }

    /**
     * The coordinator watches the workflow's connectors through the Connect REST API: a source task that fails (its
     * converter cannot write our records), and later a sink task that fails (its converter cannot read them), each
     * make the workflow FAILED with the task's error; once the connector is fixed and runs again the workflow goes on
     * from where it stopped and completes with every row in the new table.
     */
    @Test
    void aFailedSourceOrSinkTaskFailsTheWorkflowWithItsErrorAndItGoesOnOnceFixed() throws Exception {
        String db = SHARDS.freshDatabase();
        createSmallTable(db, "items");
        OnlineDdlMigration w = migration(db, "items");
        w.watched = true;
        String alter = "ADD COLUMN note VARCHAR(20) NULL";
        Map<String, String> broken = Map.of("value.converter", "org.apache.kafka.connect.converters.LongConverter");
        Map<String, String> postponed = Map.of("handoff.postpone", "true");
        w.deploy(alter, postponed, broken);
        String sourceFailure = awaitStatus(w, s -> "FAILED".equals(s.getString("state")) ? s.getString("reason")
                : null);
        assertThat(sourceFailure).as("the workflow says its source task failed, and why")
                .contains(w.source + " task 0 FAILED").contains("Caused by").contains("restart");
        w.deploy(alter, postponed); // the source fixed
        String postponedAgain = awaitStatus(w, s -> "POSTPONED".equals(s.getString("state")) ? "POSTPONED" : null,
                Duration.ofSeconds(120));
        assertThat(postponedAgain).as("the workflow went on once its source ran again").isNotNull();

        w.deploySink(broken);
        for (MariaDbServer s : SHARDS.servers()) {
            s.execute(db, "INSERT INTO items VALUES (9001, 'late', 1)"); // a change the broken sink must read
        }
        String sinkFailure = awaitStatus(w, s -> "FAILED".equals(s.getString("state"))
                && s.getString("reason").contains(w.sink) ? s.getString("reason") : null);
        assertThat(sinkFailure).as("the workflow says its sink task failed").contains(w.sink + " task")
                .contains("FAILED");
        w.deploySink(Map.of());
        w.deploy(alter, Map.of("handoff.postpone", "false"));
        String completed = awaitStatus(w, s -> "COMPLETE".equals(s.getString("state")) ? "COMPLETE" : null,
                Duration.ofSeconds(120));
        assertThat(completed).as("the workflow went on once its sink ran again, and completed").isNotNull();
        for (MariaDbServer s : SHARDS.servers()) {
            assertThat(s.queryLong(db, "SELECT COUNT(*) FROM items")).isEqualTo(501L);
            assertThat(s.queryString(db, "SELECT sku FROM items WHERE id = 9001")).isEqualTo("late");
        }
        w.delete();
    }

    /**
     * A coordinator that dies in the middle of a checksum slice leaves its applier paused (a stress run found this:
     * the successor waited in CATCHING_UP for ever). Here the paused applier is what such a coordinator leaves: the
     * control row says PAUSE and the applier has acknowledged it; the coordinator's task then starts again (new
     * config) and must let the applier run, catch up and complete the migration.
     */
    @Test
    void anApplierLeftPausedByADeadCoordinatorIsReleasedByItsSuccessor() throws Exception {
        String db = SHARDS.freshDatabase();
        createSmallTable(db, "items");
        OnlineDdlMigration w = migration(db, "items");
        String alter = "ADD COLUMN note VARCHAR(20) NULL";
        w.deploy(alter, Map.of("handoff.postpone", "true"));
        CloneHandoffIT.awaitState(connect, w.statusTopic, "POSTPONED", Duration.ofSeconds(90));
        MariaDbServer shard0 = SHARDS.server(0);
        // the control row a checksum slice writes (the table as the coordinator's ApplierChannel creates it)
        shard0.execute(null, "CREATE TABLE IF NOT EXISTS _vstream.control (stream VARCHAR(128) NOT NULL PRIMARY KEY,"
                + " command VARCHAR(16) NOT NULL, stop_at TEXT, acked_command VARCHAR(16), acked_position TEXT,"
                + " failure TEXT, updated_at TIMESTAMP(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6) ON UPDATE"
                + " CURRENT_TIMESTAMP(6)) ENGINE=InnoDB", "INSERT INTO _vstream.control (stream, command) VALUES ('"
                + w.sink + "', 'PAUSE') ON DUPLICATE KEY UPDATE command = 'PAUSE', stop_at = NULL, acked_command ="
                + " NULL, acked_position = NULL");
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (!"PAUSE".equals(shard0.queryString(null, "SELECT IFNULL(MAX(acked_command), '') FROM"
                + " _vstream.control WHERE stream = ?", w.sink)) && System.nanoTime() < deadline) {
            Thread.sleep(200);
        }
        assertThat(shard0.queryString(null, "SELECT acked_command FROM _vstream.control WHERE stream = ?", w.sink))
                .as("the applier holds, as under a dead coordinator's slice").isEqualTo("PAUSE");
        long pausedAt = System.currentTimeMillis();
        shard0.execute(db, "INSERT INTO items VALUES (7001, 'while paused', 1)");
        String behind = awaitStatus(w, s -> "CATCHING_UP".equals(s.getString("state"))
                && s.getInt64("ts_ms") > pausedAt ? "CATCHING_UP" : null, Duration.ofSeconds(90));
        assertThat(behind).as("the paused applier falls behind (past ready.max.lag.ms)").isNotNull();
        w.deploy(alter, Map.of("handoff.postpone", "false")); // the coordinator's task starts again
        String completed = awaitStatus(w, s -> "COMPLETE".equals(s.getString("state")) ? "COMPLETE" : null,
                Duration.ofSeconds(120));
        assertThat(completed).as("the successor released the applier and completed").isNotNull();
        assertThat(shard0.queryString(db, "SELECT sku FROM items WHERE id = 7001")).isEqualTo("while paused");
        w.delete();
    }

    /** The first non-null answer of {@code probe} over the workflow's status records, within 90 seconds. */
    private static <T> T awaitStatus(OnlineDdlMigration w, java.util.function.Function<Struct, T> probe)
            throws InterruptedException {
        return w.firstStatus(probe, Duration.ofSeconds(90));
    }

    private static <T> T awaitStatus(OnlineDdlMigration w, java.util.function.Function<Struct, T> probe,
                                     Duration timeout) throws InterruptedException {
        return w.firstStatus(probe, timeout);
    }

    /** The migration of {@code db.table} on both shards, run by the accounts docs/grants.md prints. */
    private static OnlineDdlMigration migration(String db, String table) {
        return new OnlineDdlMigration(connect, SHARDS.servers(), "ddl", db, table).withDocumentedAccounts();
    }

    /**
     * {@code ddl.copy.start=at-once}: the coordinator records each shard's position with the plan once the ghost
     * exists and starts copying at once; the source ({@code start.mode=migration}) streams each shard from that
     * position. Here the source and the sink are deployed only once the copy is under way, while writers change rows
     * across the whole key range (from before the deploy to the end of the slow copy): after the swap the new table
     * equals the old one row for row, so no change made between the copy's start and the source's is lost.
     */
    @Test
    void aCopyThatStartsAtOnceMissesNoChangeWhenTheSourceStartsAtTheRecordedPosition() throws Exception {
        String db = SHARDS.freshDatabase();
        createSmallTable(db, "items");
        addRows(db, "items");
        OnlineDdlMigration w = migration(db, "items");
        String alter = "MODIFY qty BIGINT NULL, ADD COLUMN note VARCHAR(20) NULL";
        Map<String, String> coordinator = new HashMap<>(Map.of("ddl.copy.start", "at-once",
                "ddl.copy.chunk.max.rows", "100", "ddl.copy.max.rows.per.second", "2000", "handoff.postpone", "true"));
        Map<String, String> source = Map.of("start.mode", "migration", "start.migration", db);
        AtomicBoolean writing = new AtomicBoolean(true);
        AtomicLong writes = new AtomicLong();
        List<Thread> writers = new ArrayList<>();
        for (MariaDbServer s : SHARDS.servers()) {
            writers.add(writer(s, db, writing, writes));
        }
        try {
            w.deployCoordinator(withCoordinator(w, alter, coordinator));
            long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
            while (rowsCopied(SHARDS.server(0), db) == 0) {
                assertThat(System.nanoTime()).as("the copy runs before the source and the sink are deployed")
                        .isLessThan(deadline);
                Thread.sleep(50);
            }
            Map<String, String> sourceConfig = OnlineDdlConfigs.source(SHARDS.servers(), db, "items", false);
            sourceConfig.putAll(source);
            connect.deploy(w.source, sourceConfig);
            w.deploySink(Map.of());
            CloneHandoffIT.awaitState(connect, w.statusTopic, "POSTPONED", Duration.ofSeconds(180));
            for (MariaDbServer s : SHARDS.servers()) {
                assertThat(s.queryString(null, "SELECT copy_start_position FROM _vstream.migrations WHERE"
                        + " migration = ?", db)).as("the position the copy started from on %s", s)
                        .startsWith("MariaDB/");
            }
        } finally {
            writing.set(false);
            for (Thread t : writers) {
                t.join();
            }
        }
        assertThat(writes.get()).as("writes during the copy").isPositive();
        coordinator.put("handoff.postpone", "false");
        w.deployCoordinator(withCoordinator(w, alter, coordinator));
        CloneHandoffIT.awaitState(connect, w.statusTopic, "COMPLETE", Duration.ofSeconds(120));
        for (MariaDbServer s : SHARDS.servers()) {
            assertThat(itemsChecksum(s, db, "items")).as("the new table equals the old one on %s", s)
                    .isEqualTo(itemsChecksum(s, db, "items_old"));
        }
        w.delete();
    }

    /**
     * A source with {@code start.mode=migration} deployed before its coordinator waits until the coordinator has
     * recorded where the copy starts, then streams from there; the migration completes (its checksum compares the ghost
     * with the original at the cut-over) under a writer.
     */
    @Test
    void aSourceDeployedBeforeItsCoordinatorWaitsForTheRecordedStart() throws Exception {
        String db = SHARDS.freshDatabase();
        createSmallTable(db, "items");
        addRows(db, "items");
        OnlineDdlMigration w = migration(db, "items");
        String alter = "MODIFY qty BIGINT NULL";
        Map<String, String> sourceConfig = OnlineDdlConfigs.source(SHARDS.servers(), db, "items", false);
        sourceConfig.putAll(Map.of("start.mode", "migration", "start.migration", db));
        AtomicBoolean writing = new AtomicBoolean(true);
        AtomicLong writes = new AtomicLong();
        Thread writer = writer(SHARDS.server(1), db, writing, writes);
        try {
            connect.deploy(w.source, sourceConfig);
            connect.awaitRunning(w.source, 2, Duration.ofSeconds(90));
            awaitAtLeast(writes, 20, "writes while the source waits for its start");
            w.deployCoordinator(withCoordinator(w, alter, Map.of("ddl.copy.start", "at-once")));
            w.deploySink(Map.of());
            CloneHandoffIT.awaitState(connect, w.statusTopic, "COMPLETE", Duration.ofSeconds(120));
        } finally {
            writing.set(false);
            writer.join();
        }
        for (MariaDbServer s : SHARDS.servers()) {
            assertThat(s.queryString(db, "SELECT COLUMN_TYPE FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ?"
                    + " AND TABLE_NAME = 'items' AND COLUMN_NAME = 'qty'", db)).isEqualTo("bigint(20)");
        }
        w.delete();
    }

    /**
     * A copy that starts at once fed by a source that does not start at its position ({@code start.mode=current},
     * deployed once the copy runs and the shards' positions have moved on): the applier refuses the stream's start
     * and the workflow fails saying how to deploy the source; the original table is untouched.
     */
    @Test
    void aCopyThatStartsAtOnceRefusesAStreamThatStartsAfterIt() throws Exception {
        String db = SHARDS.freshDatabase();
        createSmallTable(db, "items");
        OnlineDdlMigration w = migration(db, "items");
        String alter = "ADD COLUMN note VARCHAR(20) NULL";
        Map<String, String> coordinator = new HashMap<>(w.coordinatorConfig(alter));
        coordinator.put("ddl.copy.start", "at-once");
        w.deployCoordinator(coordinator);
        CloneHandoffIT.awaitState(connect, w.statusTopic, "COPYING", Duration.ofSeconds(90));
        for (MariaDbServer s : SHARDS.servers()) {
            s.execute(db, "UPDATE items SET qty = qty + 1 WHERE id = 1"); // the position moves past the copy's start
        }
        connect.deploy(w.source, OnlineDdlConfigs.source(SHARDS.servers(), db, "items", false));
        w.deploySink(Map.of());
        try {
            CloneHandoffIT.awaitState(connect, w.statusTopic, "COMPLETE", Duration.ofSeconds(90));
            throw new AssertionError("the migration should have failed");
        } catch (AssertionError e) {
            assertThat(e.getMessage()).contains("FAILED").contains("starts later")
                    .contains("start.mode=migration and start.migration=" + db);
        }
        for (MariaDbServer s : SHARDS.servers()) {
            assertThat(s.queryLong(db, "SELECT COUNT(*) FROM items")).isEqualTo(500L);
            assertThat(s.queryLong(db, "SELECT COUNT(*) FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ?"
                    + " AND TABLE_NAME = 'items' AND COLUMN_NAME = 'note'", db)).isZero();
        }
        w.delete();
    }

    /** The row count and an order-independent checksum of the rows of an {@code items} table (id, sku, qty). */
    private static String itemsChecksum(MariaDbServer s, String db, String table) {
        return s.queryString(db, "SELECT CONCAT_WS(':', COUNT(*), COALESCE(BIT_XOR(CRC32(CONCAT_WS('#', id, sku,"
                + " IFNULL(qty, 'null')))), 0)) FROM " + table);
    }

    /** The rows the server copy of migration {@code db} has copied on {@code shard} so far (0 before it starts). */
    private static long rowsCopied(MariaDbServer shard, String db) {
        if (shard.queryLong(null, "SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = '_vstream'"
                + " AND TABLE_NAME = 'ghost_copy'") == 0) {
            return 0;
        }
        return shard.queryLong(null, "SELECT COALESCE(SUM(rows_copied), 0) FROM _vstream.ghost_copy WHERE"
                + " migration = ?", db);
    }

    private static Map<String, String> withCoordinator(OnlineDdlMigration w, String alter, Map<String, String> extra) {
        Map<String, String> c = new HashMap<>(w.coordinatorConfig(alter));
        c.putAll(extra);
        return c;
    }

    /**
     * The server copy survives its coordinator: the coordinator's task is restarted in the middle of the copy (the
     * chunks' progress is on the shards, committed with their rows) while writers change the table; the successor
     * resumes the copy where the shards say it was, the checksum at the cut-over finds the ghost equal to the
     * original, and after the swap the new table equals the old one row for row (the writers stopped first).
     */
    @Test
    void aServerCopyResumesAfterItsCoordinatorRestartsAndTheGhostEqualsTheOriginal() throws Exception {
        String db = SHARDS.freshDatabase();
        createSmallTable(db, "items");
        addRows(db, "items");
        OnlineDdlMigration w = migration(db, "items");
        String alter = "MODIFY qty BIGINT NULL, ADD COLUMN note VARCHAR(20) NULL";
        Map<String, String> slow = new HashMap<>(Map.of("ddl.copy.chunk.max.rows", "100",
                "ddl.copy.max.rows.per.second", "1500", "handoff.postpone", "true"));
        AtomicBoolean writing = new AtomicBoolean(true);
        AtomicLong writes = new AtomicLong();
        List<Thread> writers = new ArrayList<>();
        for (MariaDbServer s : SHARDS.servers()) {
            writers.add(writer(s, db, writing, writes));
        }
        try {
            w.deploy(alter, slow);
            Double midCopy = awaitStatus(w, s -> s.getFloat64("progress_pct") != null
                    && s.getFloat64("progress_pct") > 5 && s.getFloat64("progress_pct") < 60
                    ? s.getFloat64("progress_pct") : null);
            assertThat(midCopy).as("the copy is under way").isNotNull();
            long before = SHARDS.server(0).queryLong(null, "SELECT SUM(rows_copied) FROM _vstream.ghost_copy WHERE"
                    + " migration = ?", db);
            assertThat(before).as("the shard holds the copy's progress").isPositive();
            slow.put("poll.interval.ms", "301"); // a new config: Connect restarts the coordinator's task
            w.deploy(alter, slow);
            CloneHandoffIT.awaitState(connect, w.statusTopic, "POSTPONED", Duration.ofSeconds(180));
        } finally {
            writing.set(false);
            for (Thread t : writers) {
                t.join();
            }
        }
        assertThat(writes.get()).as("writes during the copy").isPositive();
        slow.put("handoff.postpone", "false");
        w.deploy(alter, slow);
        List<Struct> statuses = CloneHandoffIT.awaitState(connect, w.statusTopic, "COMPLETE", Duration.ofSeconds(120));
        assertThat(statuses.get(statuses.size() - 1).getFloat64("progress_pct")).isEqualTo(100.0);
        for (MariaDbServer s : SHARDS.servers()) {
            assertThat(s.queryString(db, "SELECT COLUMN_TYPE FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ?"
                    + " AND TABLE_NAME = 'items' AND COLUMN_NAME = 'qty'", db)).isEqualTo("bigint(20)");
            assertThat(itemsChecksum(s, db, "items")).as("the new table equals the old one on %s", s)
                    .isEqualTo(itemsChecksum(s, db, "items_old"));
            assertThat(s.queryLong(null, "SELECT COUNT(*) FROM _vstream.ghost_copy WHERE migration = ?", db))
                    .as("the copy's state is removed once complete").isZero();
        }
        w.delete();
    }

    /**
     * An ALTER the server can apply instantly runs instantly on every shard (ddl.prefer.instant, the default): no
     * ghost, no copy, no cut-over, the status says so and {@code _vstream.migrations} records it. While a long
     * transaction is open on one shard (it holds the table's metadata lock) the ALTER waits, with the reason in the
     * status, without trying (so writers on that shard never queue behind it); once the transaction ends, it runs.
     */
    @Test
    void anAlterTheServerCanRunInstantlyWaitsOutALongTransactionThenRunsInstantlyOnEveryShard() throws Exception {
        String db = SHARDS.freshDatabase();
        createSmallTable(db, "items");
        OnlineDdlMigration w = migration(db, "items");
        AtomicBoolean writing = new AtomicBoolean(true);
        AtomicLong writes = new AtomicLong();
        AtomicLong slowest = new AtomicLong();
        Thread writer = writer(SHARDS.server(0), db, writing, writes, slowest);
        try (Connection holder = SHARDS.server(0).connect(db); Statement st = holder.createStatement()) {
            st.execute("START TRANSACTION WITH CONSISTENT SNAPSHOT");
            st.executeQuery("SELECT COUNT(*) FROM items").close(); // holds the table's metadata lock until it ends
            Thread.sleep(1_500); // the time is the point: the transaction is older than the lock timeout below
            // deployed as config-examples do: the copy would start at once, the source where it starts
            w.deploy("ADD COLUMN note VARCHAR(32) NULL", Map.of("ddl.prefer.instant", "true",
                    "cutover.lock.timeout.ms", "1000", "ddl.copy.start", "at-once"),
                    Map.of("start.mode", "migration", "start.migration", db));
            String waits = awaitStatus(w, s -> s.getString("reason") != null
                    && s.getString("reason").contains("instant ALTER waits") ? s.getString("reason") : null);
            assertThat(waits).as("the ALTER waits for the long transaction, saying so").contains("shard -80")
                    .contains("transaction open");
            long before = writes.get();
            awaitAtLeast(writes, before + 20, "writes on the shard while the ALTER waits"); // writers go on meanwhile
            assertThat(SHARDS.server(0).queryLong(db, "SELECT COUNT(*) FROM information_schema.COLUMNS WHERE"
                    + " TABLE_SCHEMA = ? AND TABLE_NAME = 'items' AND COLUMN_NAME = 'note'", db)).isZero();
            st.execute("COMMIT");
        }
        List<Struct> statuses = CloneHandoffIT.awaitState(connect, w.statusTopic, "COMPLETE", Duration.ofSeconds(90));
        writing.set(false);
        writer.join();
        assertThat(statuses.get(statuses.size() - 1).getString("reason")).contains("applied instantly");
        assertThat(statuses.stream().map(s -> s.getString("state"))).doesNotContain("COPYING", "CUTTING_OVER");
        for (MariaDbServer s : SHARDS.servers()) {
            assertThat(s.queryLong(db, "SELECT COUNT(*) FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? AND"
                    + " TABLE_NAME = 'items' AND COLUMN_NAME = 'note'", db)).isEqualTo(1L);
            assertThat(s.queryLong(db, "SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? AND"
                    + " TABLE_NAME IN ('_items_gho', '_items_ins', 'items_old')", db)).as("no ghost, probe or old"
                    + " table").isZero();
            assertThat(s.queryString(null, "SELECT method FROM _vstream.migrations WHERE migration = ?", db))
                    .isEqualTo("instant");
        }
        assertThat(Duration.ofNanos(slowest.get())).as("no write waited on the ALTER longer than its lock timeout,"
                + " with a margin for a busy machine").isLessThan(Duration.ofSeconds(2));
        // no copy, so no recorded start: the source (start.mode=migration) streams from the current position
        String topic = io.vstream.connect.core.event.TopicNames.shardTopic("vs_" + db, "ks", "-80");
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        while (records(topic) == 0) {
            assertThat(System.nanoTime()).as("the source streams %s", topic).isLessThan(deadline);
            Thread.sleep(200);
        }
        w.delete();
    }

    /** The records in {@code topic} (0 while it does not exist). */
    private static int records(String topic) {
        try {
            return connect.topics().readAll(topic, false).size();
        } catch (RuntimeException | AssertionError e) {
            return 0;
        }
    }

    /** Waits until {@code counter} reaches {@code n}; fails, naming {@code what}, after 90 s. */
    private static void awaitAtLeast(AtomicLong counter, long n, String what) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        while (counter.get() < n) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(what + ": " + counter.get() + ", not " + n + ", within 90 s");
            }
            Thread.sleep(50);
        }
    }

    /** Changes rows across the whole key range of {@code items} (inserts, updates, deletes) until told to stop. */
    private static Thread writer(MariaDbServer server, String db, AtomicBoolean writing, AtomicLong writes) {
        return writer(server, db, writing, writes, new AtomicLong());
    }

    /** {@link #writer}, keeping the longest a statement took, in nanoseconds, in {@code slowest}. */
    private static Thread writer(MariaDbServer server, String db, AtomicBoolean writing, AtomicLong writes,
                                 AtomicLong slowest) {
        Thread t = new Thread(() -> {
            java.util.Random random = new java.util.Random(server.port());
            try (Connection c = server.connect(db); Statement st = c.createStatement()) {
                while (writing.get()) {
                    int id = random.nextInt(6_000);
                    long begin = System.nanoTime();
                    switch (random.nextInt(3)) {
                        case 0 -> st.executeUpdate("INSERT INTO items VALUES (" + id + ", 'w" + id + "', " + id
                                + ") ON DUPLICATE KEY UPDATE qty = qty + 1");
                        case 1 -> st.executeUpdate("UPDATE items SET sku = CONCAT('u', " + random.nextInt(1000)
                                + "), qty = NULL WHERE id = " + id);
                        default -> st.executeUpdate("DELETE FROM items WHERE id = " + id);
                    }
                    slowest.accumulateAndGet(System.nanoTime() - begin, Math::max);
                    writes.incrementAndGet();
                    Thread.sleep(10);
                }
            } catch (SQLException e) {
                throw new IllegalStateException("the writer failed", e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "writer-" + server.port());
        t.start();
        return t;
    }

    @Test
    void aNewUniqueKeyTheDataViolatesFailsTheMigrationAndLeavesTheTable() throws Exception {
        String db = SHARDS.freshDatabase();
        createSmallTable(db, "items");
        SHARDS.server(0).execute(db, "UPDATE items SET sku = 'dup' WHERE id IN (2, 4)");
        OnlineDdlMigration w = migration(db, "items");
        w.deploy("ADD UNIQUE KEY u_sku (sku)", Map.of("ddl.allow.new.unique.key", "true"));
        try {
            CloneHandoffIT.awaitState(connect, w.statusTopic, "COMPLETE", Duration.ofSeconds(90));
            throw new AssertionError("the migration should have failed");
        } catch (AssertionError e) {
            assertThat(e.getMessage()).contains("FAILED").containsIgnoringCase("duplicate");
        }
        for (MariaDbServer s : SHARDS.servers()) {
            assertThat(s.queryLong(db, "SELECT COUNT(*) FROM items")).isEqualTo(500L);
            assertThat(s.queryLong(db, "SELECT COUNT(*) FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = ?"
                    + " AND TABLE_NAME = 'items' AND INDEX_NAME = 'u_sku'", db)).isZero();
        }
        w.delete();
    }

    /**
     * docs/grants.md's online-DDL grants, each taken away in turn on one shard: the migration fails before anything
     * is created (no ghost on any shard), naming what is missing.
     */
    @Test
    void eachMissingGrantFailsTheMigrationBeforeAnythingIsCreatedNamingIt() throws Exception {
        String db = SHARDS.freshDatabase("grants");
        createSmallTable(db, "items");
        OnlineDdlMigration w = migration(db, "items");
        MariaDbServer shard = SHARDS.server(1);
        int i = 0;
        List<String> optional = DocumentedGrants.optional("online-ddl shard", db);
        assertThat(optional).as("BINLOG MONITOR only makes checksum slices faster").hasSize(1);
        for (String g : DocumentedGrants.statements("online-ddl shard", db)) {
            if (optional.contains(g)) {
                continue;
            }
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("^GRANT (.+) ON (\\S+) TO 'vstream_ddl'")
                    .matcher(g);
            if (!m.find()) {
                continue;
            }
            String privilege = m.group(1);
            String object = m.group(2);
            shard.execute("mysql", "REVOKE " + privilege + " ON " + object + " FROM 'vstream_ddl'@'%'");
            try {
                String topic = w.statusTopic + "-g" + (i++);
                Map<String, String> c = w.coordinatorConfig("ADD COLUMN note VARCHAR(32) NULL", topic);
                c.put("workflow.name", db + "-g" + i);
                connect.deploy(w.coordinator, c);
                Struct failed = CloneHandoffIT.awaitState(connect, topic, "FAILED", Duration.ofSeconds(60)).stream()
                        .reduce((a, b) -> b).orElseThrow();
                String reason = failed.getString("reason");
                assertThat(reason).as("without %s ON %s", privilege, object)
                        .contains(object.replace("`", "").replace(".*", "")).containsAnyOf("GRANT", "denied");
                if (!privilege.equals("ALL")) {
                    assertThat(reason).contains(privilege);
                }
                connect.delete(w.coordinator);
                for (MariaDbServer s : SHARDS.servers()) {
                    assertThat(s.queryLong(db, "SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = ?"
                            + " AND TABLE_NAME <> 'items'", db)).as("nothing was created").isZero();
                }
            } finally {
                shard.execute("mysql", "GRANT " + privilege + " ON " + object + " TO 'vstream_ddl'@'%'");
            }
        }
        assertThat(i).as("grants taken away").isEqualTo(3);
    }

    /**
     * A primary key that grows ((id) to (id, sku), as gh-ost accepts): rows are still identified by id, and changes
     * that move a row's sku while the copy and the stream run leave exactly one row per id in the new table, equal
     * to the original at the cut-over.
     */
    @Test
    void aPrimaryKeyThatGrowsMigratesWhileTheRowsChangeTheirNewKeyColumns() throws Exception {
        String db = SHARDS.freshDatabase("grow");
        createSmallTable(db, "items");
        OnlineDdlMigration w = migration(db, "items");
        String alter = "DROP PRIMARY KEY, ADD PRIMARY KEY (id, sku)";
        w.deploy(alter, Map.of("handoff.postpone", "true"));
        for (int round = 0; round < 3; round++) {
            for (MariaDbServer s : SHARDS.servers()) {
                s.execute(db, "UPDATE items SET sku = CONCAT(sku, 'x" + round + "') WHERE id % 10 = " + round,
                        "DELETE FROM items WHERE id % 50 = " + (7 + round),
                        "INSERT INTO items VALUES (" + (100_000 + round) + ", 'new', " + round + ")");
            }
            if (round == 0) {
                CloneHandoffIT.awaitState(connect, w.statusTopic, "POSTPONED", Duration.ofSeconds(120));
            }
        }
        w.deploy(alter, Map.of("handoff.postpone", "false"));
        CloneHandoffIT.awaitState(connect, w.statusTopic, "COMPLETE", Duration.ofSeconds(120));
        for (MariaDbServer s : SHARDS.servers()) {
            try (Connection c = s.connect(db)) {
                ComparisonResult r = TableComparator.builder().source(c, db, "items_old").target(c, db, "items")
                        .build().compare();
                assertThat(r.isEqual()).as("%s: the new table equals the original at the cut-over: %s", s, r)
                        .isTrue();
            }
            assertThat(s.queryLong(db, "SELECT COUNT(*) - COUNT(DISTINCT id) FROM items")).as("one row per id")
                    .isZero();
            assertThat(s.queryString(db, "SELECT GROUP_CONCAT(COLUMN_NAME ORDER BY SEQ_IN_INDEX) FROM"
                    + " information_schema.STATISTICS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = 'items' AND"
                    + " INDEX_NAME = 'PRIMARY'", db)).isEqualTo("id,sku");
        }
        w.delete();
    }

    /**
     * Three things the server's own ALTER gets right and the migration must too: a row whose AUTO_INCREMENT key is 0
     * (copied by the server copy and written again by the stream), a column dropped and added again under the same
     * name (the new column takes its default; the old values are not carried over), and a DDL of a same-named table
     * in another database during the migration (another table: the migration goes on).
     */
    @Test
    void aZeroKeyAColumnAddedAgainAndADdlOfASameNamedTableElsewhereMigrateAsTheServerWould() throws Exception {
        String db = SHARDS.freshDatabase("fid");
        String other = SHARDS.freshDatabase("fid_other");
        for (MariaDbServer s : SHARDS.servers()) {
            s.execute(db, "CREATE TABLE items (id INT AUTO_INCREMENT PRIMARY KEY, sku VARCHAR(20) NOT NULL, c1 INT NULL,"
                            + " d DATE NULL, dt DATETIME(6) NULL)",
                    "SET SESSION sql_mode = CONCAT(@@sql_mode, ',NO_AUTO_VALUE_ON_ZERO')",
                    "INSERT INTO items (id, sku, c1) VALUES (0, 'zero', 5)",
                    "INSERT INTO items (sku, c1) SELECT CONCAT('s', seq), seq FROM seq_1_to_300");
            s.execute(other, "CREATE TABLE items (id INT PRIMARY KEY)");
        }
        OnlineDdlMigration w = migration(db, "items");
        // every statement the three connectors send is tagged (a DBA sees who sent it), checked in the general log
        GeneralLog log = GeneralLog.start(SHARDS.servers());
        w.deploy("DROP COLUMN c1, ADD COLUMN c1 INT NOT NULL DEFAULT 47", Map.of("ddl.copy.paused", "true"));
        CloneHandoffIT.awaitState(connect, w.statusTopic, "COPYING", Duration.ofSeconds(120));
        for (MariaDbServer s : SHARDS.servers()) {
            // through the stream: row 0 goes and comes back with key 0, and the other database's table is dropped
            s.execute(db, "SET SESSION sql_mode = CONCAT(@@sql_mode, ',NO_AUTO_VALUE_ON_ZERO,ALLOW_INVALID_DATES')",
                    "DELETE FROM items WHERE id = 0",
                    "INSERT INTO items (id, sku, c1) VALUES (0, 'zero-again', 6)",
                    "UPDATE items SET sku = 'one' WHERE id = 1",
                    // dates no calendar has, in NULL-able columns, written while the copy waits: the stream's
                    "INSERT INTO items (id, sku, c1, d, dt) VALUES (1000, 'zd', 1, '0000-00-00', '0000-00-00 00:00:00'),"
                            + " (1001, 'pd', 1, '2024-05-00', '2024-00-10 10:11:12.000001'),"
                            + " (1002, 'inv', 1, '2024-02-30', NULL)",
                    "UPDATE items SET d = '2024-00-00' WHERE id = 2",
                    "DROP TABLE IF EXISTS " + other + ".items");
        }
        w.deploy("DROP COLUMN c1, ADD COLUMN c1 INT NOT NULL DEFAULT 47", Map.of("ddl.copy.paused", "false"));
        CloneHandoffIT.awaitState(connect, w.statusTopic, "COMPLETE", Duration.ofSeconds(180));
        for (MariaDbServer s : SHARDS.servers()) {
            assertThat(s.queryLong(db, "SELECT COUNT(*) FROM items")).isEqualTo(304L);
            assertThat(s.queryString(db, "SELECT GROUP_CONCAT(CONCAT_WS('|', id, CAST(d AS CHAR), CAST(dt AS CHAR))"
                    + " ORDER BY id) FROM items WHERE id IN (2, 1000, 1001, 1002)"))
                    .as("dates no calendar has, kept as the table held them")
                    .isEqualTo("2|2024-00-00,1000|0000-00-00|0000-00-00 00:00:00.000000,"
                            + "1001|2024-05-00|2024-00-10 10:11:12.000001,1002|2024-02-30");
            assertThat(s.queryString(db, "SELECT sku FROM items WHERE id = 0")).isEqualTo("zero-again");
            assertThat(s.queryString(db, "SELECT sku FROM items WHERE id = 1")).isEqualTo("one");
            assertThat(s.queryLong(db, "SELECT COUNT(*) FROM items WHERE c1 <> 47")).as("the new c1 holds its default")
                    .isZero();
            assertThat(s.queryLong(db, "SELECT COUNT(*) FROM items n JOIN items_old o ON o.id = n.id AND o.sku = n.sku"
                    + " AND CAST(o.d AS CHAR) <=> CAST(n.d AS CHAR) AND CAST(o.dt AS CHAR) <=> CAST(n.dt AS CHAR)"))
                    .as("every row kept its key and values").isEqualTo(304L);
        }
        try (log) {
            assertThat(log.untagged("vstream")).as("statements of the connectors' accounts without a"
                    + " vstream-connect tag").isEmpty();
        }
        w.delete();
    }

    @Test
    void aCoordinatorThatDiesDuringTheCutOverLeavesTheTableWholeAndTheWorkflowCompletes() throws Exception {
        for (int step = 1; step <= 7; step++) {
            String db = SHARDS.freshDatabase("crash" + step);
            createSmallTable(db, "items");
            OnlineDdlMigration w = migration(db, "items");
            w.deploy("ADD COLUMN note VARCHAR(20) NULL", Map.of("cutover.test.crash.at.step", String.valueOf(step)));
            String trace = connect.awaitTaskFailure(w.coordinator, Duration.ofSeconds(120));
            assertThat(trace).contains("simulated coordinator crash after cut-over step " + step);
            for (MariaDbServer s : SHARDS.servers()) {
                assertThat(s.queryLong(db, "SELECT COUNT(*) FROM items")).as("step %d: the table is whole", step)
                        .isEqualTo(500L);
                s.execute(db, "INSERT INTO items (id, sku, qty) VALUES (1000, 'after-crash', 1)");
            }
            w.deploy("ADD COLUMN note VARCHAR(20) NULL", Map.of()); // the coordinator comes back
            CloneHandoffIT.awaitState(connect, w.statusTopic, "COMPLETE", Duration.ofSeconds(120));
            for (MariaDbServer s : SHARDS.servers()) {
                assertThat(s.queryLong(db, "SELECT COUNT(*) FROM items")).as("step %d", step).isEqualTo(501L);
                assertThat(s.queryLong(db, "SELECT COUNT(*) FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ?"
                        + " AND TABLE_NAME = 'items' AND COLUMN_NAME = 'note'", db)).as("step %d: swapped", step)
                        .isEqualTo(1L);
            }
            w.delete();
        }
    }

    /** Rows 500..4999, so that a copy in chunks of 100 takes long enough to be throttled. */
    private static void addRows(String db, String table) {
        for (MariaDbServer s : SHARDS.servers()) {
            StringBuilder more = new StringBuilder("INSERT INTO " + table + " VALUES ");
            for (int i = 500; i < 5000; i++) {
                more.append(i == 500 ? "" : ",").append('(').append(i).append(",'sku").append(i).append("',1)");
            }
            s.execute(db, more.toString());
        }
    }

    private static void createSmallTable(String db, String table) {
        for (MariaDbServer s : SHARDS.servers()) {
            StringBuilder sql = new StringBuilder("INSERT INTO " + table + " VALUES ");
            for (int i = 0; i < 500; i++) {
                sql.append(i == 0 ? "" : ",").append('(').append(i).append(",'sku").append(i).append("',")
                        .append(i % 7).append(')');
            }
            s.execute(db, "CREATE TABLE " + table + " (id INT PRIMARY KEY, sku VARCHAR(20) NOT NULL, qty INT)",
                    sql.toString());
        }
    }

    private static String lastState(OnlineDdlMigration w) {
        var all = connect.topics().readAll(w.statusTopic, false);
        return ((Struct) all.get(all.size() - 1).value().value()).getString("state");
    }

    /** Reads {@code orders} in a loop until {@code reading} is false, recording every error (OnlineDdlRevertIT too). */
    static Thread reader(String name, MariaDbServer server, String db, AtomicBoolean reading,
                         Map<String, AtomicLong> errors) {
        Thread t = new Thread(() -> {
            while (reading.get()) {
                try (Connection c = server.connect(db); Statement st = c.createStatement()) {
                    while (reading.get()) {
                        st.executeQuery("SELECT COUNT(*), MAX(amount) FROM orders WHERE id < 100").close();
                        Thread.sleep(5);
                    }
                } catch (SQLException e) {
                    errors.computeIfAbsent(name + ": " + e.getErrorCode() + " " + e.getMessage(),
                            k -> new AtomicLong()).incrementAndGet();
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "reader-" + name);
        t.start();
        return t;
    }
}
