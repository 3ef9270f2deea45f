package io.vstream.connect.local.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vstream.connect.local.compare.ComparisonResult;
import io.vstream.connect.local.compare.RowDifference;
import io.vstream.connect.testsupport.compare.TableComparator;
import io.vstream.connect.testsupport.db.MariaDbServer;
import io.vstream.connect.testsupport.db.MariaDbShards;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The write load (local-runtime) and its model against real servers (test-support's, hence here). */
class WriteLoadIT {

    @RegisterExtension
    static final MariaDbShards SHARDS = MariaDbShards.builder().count(2).build();

    private static final Duration LIMIT = Duration.ofMinutes(2);

    @Test
    void modelMatchesTheTableAndGtidsGiveTheCommitOrder() throws Exception {
        MariaDbServer server = SHARDS.server(0);
        String db = server.freshDatabase("model");
        WriteLoad load = WriteLoad.builder(Target.single(server, db)).table(LoadTable.standard("orders"))
                .threads(2).keySpace(500).keys(KeyDistribution.hot(0.5, 10)).statementsPerTransaction(1, 4)
                .maxTransactions(400).seed(3).failOnError(true).build();

        LoadStats stats = load.createTables().preload(200).start().awaitCompletion(LIMIT);

        assertThat(stats.commits()).as(stats.toString()).isEqualTo(400);
        assertThat(stats.errors() + stats.unknownOutcomes() + stats.mismatches()).isZero();
        assertThat(stats.commitP99()).isPositive().isGreaterThanOrEqualTo(stats.commitP50());
        try (Connection connection = server.connect(db)) {
            ComparisonResult result = load.verifyAgainst(connection, "orders");
            assertThat(result.isEqual()).as(result.toString()).isTrue();
            assertThat(result.rowsCompared()).isEqualTo(load.expectedRows().size())
                    .isEqualTo(server.queryLong(db, "SELECT COUNT(*) FROM orders"));
        }
        List<LoadTransaction> inOrder = load.committedTransactions(0);
        assertThat(inOrder).hasSize(load.committedTransactions().size()).hasSizeGreaterThan(400);
        assertThat(inOrder).extracting(LoadTransaction::gtidSequence).isSorted().doesNotHaveDuplicates()
                .allMatch(sequence -> sequence > 0);
        assertThat(inOrder.get(inOrder.size() - 1).gtid()).isEqualTo(server.gtidBinlogPos());
        assertThat(replay(inOrder)).isEqualTo(load.expectedRows());
    }

    /** Applying the row images in GTID order gives the expected rows: images and order are consistent. */
    private static Map<Long, Map<String, Object>> replay(List<LoadTransaction> transactions) {
        Map<Long, Map<String, Object>> rows = new HashMap<>();
        for (LoadTransaction transaction : transactions) {
            for (RowChange change : transaction.changes()) {
                assertThat(change.before()).isEqualTo(rows.get(change.key()));
                if (change.after() == null) {
                    rows.remove(change.key());
                } else {
                    rows.put(change.key(), change.after());
                }
            }
        }
        return rows;
    }

    @Test
    void shardedLoadRoutesEveryTransactionToOneShard() throws Exception {
        String db = SHARDS.freshDatabase();
        WriteLoad load = WriteLoad.builder(Target.byModulo(SHARDS.servers(), db)).table(LoadTable.standard("t"))
                .threads(2).keySpace(300).statementsPerTransaction(1, 3).maxTransactions(300).failOnError(true)
                .build();

        load.createTables().start().awaitCompletion(LIMIT);

        for (int shard = 0; shard < 2; shard++) {
            ComparisonResult result = load.verifyShard(shard, "t");
            assertThat(result.isEqual()).as(result.toString()).isTrue();
            int expectedShard = shard;
            assertThat(load.committedTransactions(shard)).isNotEmpty().allSatisfy(transaction ->
                    assertThat(transaction.changes()).allMatch(c -> Math.floorMod(c.key(), 2) == expectedShard));
        }
        try (Connection shard0 = SHARDS.server(0).connect(db)) {
            ComparisonResult whole = load.verifyAgainst(shard0, "t");
            assertThat(whole.countsByKind()).containsOnlyKeys(RowDifference.Kind.MISSING_IN_TARGET);
        }
    }

    @Test
    void sameSeedWritesTheSameRows() throws Exception {
        MariaDbServer server = SHARDS.server(1);
        String first = server.freshDatabase("seed_a");
        String second = server.freshDatabase("seed_b");
        WriteLoad a = seeded(server, first);
        WriteLoad b = seeded(server, second);

        a.createTables().preload(50).start().awaitCompletion(LIMIT);
        b.createTables().preload(50).start().awaitCompletion(LIMIT);

        assertThat(a.expectedRows()).isEqualTo(b.expectedRows()).isNotEmpty();
        try (Connection connection = server.connect(null)) {
            ComparisonResult tables = TableComparator.builder().source(connection, first, "t")
                    .target(connection, second, "t").chunkSize(100).build().compare();
            assertThat(tables.isEqual()).as(tables.toString()).isTrue();
        }
    }

    private static WriteLoad seeded(MariaDbServer server, String db) {
        return WriteLoad.builder(Target.single(server, db)).table(LoadTable.standard("t")).keySpace(100)
                .statementsPerTransaction(1, 3).maxTransactions(200).seed(7).failOnError(true).build();
    }

    @Test
    void throttledLoadKeepsItsRate() {
        MariaDbServer server = SHARDS.server(0);
        String db = server.freshDatabase("throttled");
        WriteLoad load = WriteLoad.builder(Target.single(server, db)).table(LoadTable.standard("t"))
                .threads(2).transactionsPerSecond(100).duration(Duration.ofSeconds(1)).build();

        LoadStats stats = load.createTables().start().awaitCompletion(LIMIT);

        assertThat(stats.commits()).as(stats.toString()).isBetween(50L, 110L);
    }

    @Test
    void aServerCrashLosesNothingAcknowledged() throws Exception {
        MariaDbServer server = SHARDS.server(1);
        String db = server.freshDatabase("crash");
        WriteLoad load = WriteLoad.builder(Target.single(server, db)).table(LoadTable.standard("t"))
                .threads(2).keySpace(2_000).statementsPerTransaction(1, 5).transactionsPerSecond(400).build();
        load.createTables().preload(500).start();

        Thread.sleep(500);
        server.kill();
        Thread.sleep(300);
        server.start();
        long commitsAtRestart = load.stats().commits();
        Thread.sleep(700);
        LoadStats stats = load.stop();

        assertThat(stats.errors() + stats.unknownOutcomes()).as(stats.toString()).isPositive();
        assertThat(stats.commits()).isGreaterThan(commitsAtRestart);
        assertThat(stats.mismatches()).as(stats.toString()).isZero();
        assertThat(load.unknownOutcomes()).hasSize((int) stats.unknownOutcomes());
        try (Connection connection = server.connect(db)) {
            ComparisonResult result = load.verifyAgainst(connection, "t");
            assertThat(result.isEqual()).as(result.toString()).isTrue();
        }
    }

    /**
     * Semi-sync replication without a replica makes COMMIT wait for an acknowledgement after the engine has
     * committed; killing the connection then loses the COMMIT reply: the row is in the table, yet the
     * outcome is unknown to the client, so the model must claim the key neither way.
     */
    @Test
    void aConnectionLostDuringCommitIsAnUnknownOutcome() throws Exception {
        MariaDbServer server = SHARDS.server(0);
        String db = server.freshDatabase("unknown");
        WriteLoad load = WriteLoad.builder(Target.single(server, db)).table(LoadTable.standard("t"))
                .maxTransactions(1).build();
        load.createTables();
        try {
            server.execute(null, "SET GLOBAL rpl_semi_sync_master_timeout = 60000",
                    "SET GLOBAL rpl_semi_sync_master_enabled = ON");
            load.start();
            long waiting = awaitSemiSyncWaiter(server);
            server.execute(null, "KILL CONNECTION " + waiting);
            LoadStats stats = load.awaitCompletion(LIMIT);

            assertThat(stats.unknownOutcomes()).as(stats.toString()).isEqualTo(1);
            assertThat(stats.commits()).isZero();
        } finally {
            server.execute(null, "SET GLOBAL rpl_semi_sync_master_enabled = OFF");
        }
        LoadTransaction unknown = load.unknownOutcomes().get(0);
        long key = unknown.changes().get(0).key();
        assertThat(unknown.outcome()).isEqualTo(LoadTransaction.Outcome.UNKNOWN);
        assertThat(load.uncertainKeys("t")).containsExactly(key);
        assertThat(load.expectedRows()).doesNotContainKey(key);
        assertThat(server.queryLong(db, "SELECT COUNT(*) FROM t WHERE id = ?", key)).isEqualTo(1);
        try (Connection connection = server.connect(db)) {
            ComparisonResult result = load.verifyAgainst(connection, "t");
            assertThat(result.isEqual()).as(result.toString()).isTrue();
            assertThat(result.note()).contains("1 key(s) with an unknown commit outcome");
        }
    }

    private static long awaitSemiSyncWaiter(MariaDbServer server) throws InterruptedException {
        String sql = "SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE STATE LIKE '%semi-sync%'";
        for (int i = 0; i < 200 && server.queryLong(null, sql) == 0; i++) {
            Thread.sleep(50);
        }
        return server.queryLong(null, "SELECT ID FROM information_schema.PROCESSLIST WHERE STATE LIKE '%semi-sync%'");
    }

    @Test
    void suppliedTableAndARowFactoryWithAReadableDiff() throws Exception {
        MariaDbServer server = SHARDS.server(0);
        String db = server.freshDatabase("accounts");
        server.execute(db, "CREATE TABLE acct (acct_id BIGINT PRIMARY KEY, balance BIGINT NOT NULL, "
                + "owner VARCHAR(20) NULL)");
        WriteLoad load = WriteLoad.builder(Target.single(server, db))
                .table(LoadTable.of("acct", "acct_id", new Accounts())).keySpace(50).deleteRatio(0)
                .maxTransactions(100).failOnError(true).build();
        load.start().awaitCompletion(LIMIT);
        long[] keys = load.expectedRows().keySet().stream().mapToLong(Long::longValue).limit(2).toArray();
        server.execute(db, "UPDATE acct SET balance = -1 WHERE acct_id = " + keys[0],
                "DELETE FROM acct WHERE acct_id = " + keys[1], "INSERT INTO acct VALUES (1000, 0, NULL)");

        try (Connection connection = server.connect(db)) {
            ComparisonResult result = load.verifyAgainst(connection, "acct");

            assertThat(result.differenceCount()).isEqualTo(3);
            assertThat(result.toString())
                    .contains("different (acct_id='" + keys[0] + "'): balance: ")
                    .contains("-> '-1'")
                    .contains("missing in target (acct_id='" + keys[1] + "')")
                    .contains("extra in target (acct_id='1000')");
        }
    }

    @Test
    void errorsAreCountedUnlessConfiguredToFail() {
        MariaDbServer server = SHARDS.server(0);
        String db = server.freshDatabase("errors");
        WriteLoad counted = WriteLoad.builder(Target.single(server, db))
                .table(LoadTable.of("absent", "id", new Accounts())).maxTransactions(5).build();
        WriteLoad failing = WriteLoad.builder(Target.single(server, db))
                .table(LoadTable.of("absent", "id", new Accounts())).maxTransactions(5).failOnError(true).build();

        LoadStats stats = counted.start().awaitCompletion(LIMIT);
        failing.start();

        assertThat(stats.errors()).isEqualTo(5);
        assertThat(stats.commits()).isZero();
        assertThat(stats.firstError()).contains("absent");
        assertThatThrownBy(() -> failing.awaitCompletion(LIMIT)).hasMessageContaining("absent");
    }

    /**
     * Rows another writer inserted, adopted into the model; two tables with their own key spaces, delete ratios and
     * weights; one placed by a column other than its key (as a vindex on {@code owner} would place it).
     */
    @Test
    void adoptedRowsAndTablesWithTheirOwnKeysWeightsAndShardingColumn() throws Exception {
        String db = SHARDS.freshDatabase();
        for (MariaDbServer server : SHARDS.servers()) {
            server.execute(db, "CREATE TABLE acct (acct_id BIGINT PRIMARY KEY, balance BIGINT NOT NULL, "
                    + "owner VARCHAR(20) NULL)", "CREATE TABLE item (item_id BIGINT PRIMARY KEY, owner BIGINT NOT NULL, "
                    + "qty INT NOT NULL)");
        }
        for (long key = 1; key <= 40; key++) {
            SHARDS.server((int) (key % 2)).execute(db, "INSERT INTO acct VALUES (" + key + ", 100, 'app')");
        }
        WriteLoad load = WriteLoad.builder(Target.byModulo(SHARDS.servers(), db))
                .table(LoadTable.of("acct", "acct_id", new Accounts()).withKeySpace(40).withDeleteRatio(0))
                .table(LoadTable.of("item", "item_id", new Items()).withKeySpace(100_000).withWeight(3)
                        .routedBy(Items::ownerOf))
                .threads(2).keySpace(10).maxTransactions(400).failOnError(true).build();
        Instant start = Instant.now();

        LoadStats stats = load.adoptExistingRows().start().awaitCompletion(LIMIT);

        assertThat(stats.commits()).as(stats.toString()).isEqualTo(400);
        assertThat(stats.updates()).as("the adopted accounts are updated, not inserted again").isBetween(60L, 140L);
        for (int shard = 0; shard < 2; shard++) {
            for (String table : List.of("acct", "item")) {
                ComparisonResult result = load.verifyShard(shard, table);
                assertThat(result.isEqual()).as(result.toString()).isTrue();
            }
            assertThat(SHARDS.server(shard).queryLong(db, "SELECT COUNT(*) FROM item WHERE MOD(owner, 2) <> ?", shard))
                    .as("every item on its owner's shard").isZero();
        }
        assertThat(load.expectedRows("acct")).hasSize(40);
        assertThat(load.expectedRows("item").size()).isBetween(200, 360);
        assertThat(load.keysWrittenSince("acct", start)).isNotEmpty().allMatch(key -> key >= 1 && key <= 40);
        assertThat(load.keysWrittenSince("item", Instant.now().plusSeconds(60))).isEmpty();
    }

    /** Items placed by their owner, a function of the key, which an update keeps. */
    private static final class Items implements RowFactory {
        static long ownerOf(long key) {
            return key % 7;
        }

        @Override
        public List<String> columns() {
            return List.of("owner", "qty");
        }

        @Override
        public Map<String, Object> insert(long key, Random random) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("owner", ownerOf(key));
            row.put("qty", random.nextInt(100));
            return row;
        }

        @Override
        public Map<String, Object> update(long key, Map<String, Object> current, Random random) {
            return insert(key, random);
        }
    }

    /** A supplied table's rows: balance and owner. */
    private static final class Accounts implements RowFactory {
        @Override
        public List<String> columns() {
            return List.of("balance", "owner");
        }

        @Override
        public Map<String, Object> insert(long key, Random random) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("balance", (long) random.nextInt(1000));
            row.put("owner", random.nextBoolean() ? null : "owner-" + key);
            return row;
        }

        @Override
        public Map<String, Object> update(long key, Map<String, Object> current, Random random) {
            Map<String, Object> row = new LinkedHashMap<>(current);
            row.remove("acct_id");
            row.put("balance", (Long) current.get("balance") + random.nextInt(100) - 50);
            return row;
        }
    }
}
