package io.vstream.connect.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import io.vstream.connect.coordinator.copy.DeferredIndexes;
import io.vstream.connect.coordinator.copy.GhostCopier;
import io.vstream.connect.coordinator.copy.GhostCopySettings;
import io.vstream.connect.coordinator.copy.GhostCopyState;
import io.vstream.connect.core.mapping.ColumnMapping;
import io.vstream.connect.jdbc.MigrationPlans;
import io.vstream.connect.testsupport.db.MariaDbServer;
import io.vstream.connect.testsupport.db.MariaDbShards;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The server copy of an online ALTER on a real server, without Kafka: every row of the original reaches the ghost
 * through the column mapping (a composite key with a zero and 4-byte UTF-8, NULLs, zero dates, an ENUM member outside
 * the BMP), in parallel key ranges, never over a row the change stream wrote first; a copy stopped in the middle
 * resumes from the shard's state and counts every row once; a row a writer holds is left out of its chunk and copied
 * once the writer lets it go, also by the next copier; a duplicate on a new unique key and a value the new type
 * cannot hold fail the copy with the reason.
 */
class GhostCopierIT {
    @RegisterExtension
    static final MariaDbShards SHARDS = MariaDbShards.builder().count(1).build();

    private static final String TABLE = "CREATE TABLE t (a INT NOT NULL, b VARCHAR(20) CHARACTER SET utf8mb4 NOT NULL,"
            + " amount DECIMAL(10,2), note VARCHAR(40) CHARACTER SET utf8mb4, mood ENUM('ok','\uD83D\uDE00') NULL,"
            + " at DATETIME NULL, legacy INT, PRIMARY KEY (a, b))";
    private static final String GHOST = "CREATE TABLE _t_gho (a INT NOT NULL, b VARCHAR(20) CHARACTER SET utf8mb4 NOT"
            + " NULL, amount DECIMAL(14,2), note2 VARCHAR(40) CHARACTER SET utf8mb4, mood ENUM('ok','\uD83D\uDE00')"
            + " NULL, at DATETIME NULL, created TIMESTAMP NULL, PRIMARY KEY (a, b))";
    private static final String ROWS = "INSERT INTO t SELECT seq DIV 3, CONCAT(IF(seq % 3 = 0, '\uD83D\uDE00', 'k'),"
            + " seq % 3), IF(seq % 11 = 0, NULL, seq / 7), IF(seq % 5 = 0, NULL, CONCAT('\uD83D\uDC4D', seq)),"
            + " IF(seq % 2 = 0, '\uD83D\uDE00', IF(seq % 7 = 0, NULL, 'ok')), IF(seq % 13 = 0, '0000-00-00 00:00:00',"
            + " '2024-01-01' + INTERVAL seq MINUTE), seq FROM seq_0_to_";

    @Test
    void copiesEveryRowThroughTheMappingInParallelRangesAndNeverOverAStreamedRow() throws Exception {
        MariaDbServer server = SHARDS.server(0);
        String db = SHARDS.freshDatabase();
        int rows = 45_000;
        server.execute(db, "SET SESSION sql_mode = ''", TABLE, GHOST);
        try (Connection c = server.connect(db); Statement st = c.createStatement()) {
            st.execute("SET SESSION sql_mode = ''");
            st.execute(ROWS + (rows - 1));
            st.execute("ANALYZE TABLE t");
            // rows the change stream wrote before the copy reached them: newer values the copy must keep
            st.execute("INSERT INTO _t_gho (a, b, amount, note2) VALUES (100, 'k1', 1.5, 'streamed'),"
                    + " (9000, 'k2', 2.5, 'streamed')");
        }
        MigrationPlans.Plan plan = plan(db, false);
        GhostCopier copier = copier(server, plan, new GhostCopySettings(2, Duration.ofMillis(20), 2_000, 0));
        copier.start();
        await(copier::finished);
        assertThat(copier.failure()).isNull();
        try (Connection c = server.connect(db)) {
            GhostCopyState.Summary s = GhostCopyState.summary(c, "_vstream", plan.migration());
            assertThat(s.done()).isTrue();
            assertThat(s.rowsCopied()).as("every row covered once").isEqualTo(rows);
            assertThat(count(c, "SELECT COUNT(*) FROM _vstream.ghost_copy WHERE migration = '" + db + "'"))
                    .as("two key ranges").isEqualTo(2);
            assertThat(count(c, "SELECT COUNT(*) FROM _t_gho WHERE note2 = 'streamed'")).isEqualTo(2);
            server.execute(db, "UPDATE _t_gho g JOIN t ON t.a = g.a AND t.b = g.b SET g.amount = t.amount,"
                    + " g.note2 = t.note, g.mood = t.mood, g.at = t.at WHERE g.note2 = 'streamed'");
            MappedChecksum sum = MappedChecksum.prepare(c, plan, 5_000);
            assertThat(sum.compareUntil(c, c, Long.MAX_VALUE)).as("the ghost equals the original").isNull();
            assertThat(sum.rowsCompared()).isEqualTo(rows);
            assertThat(count(c, "SELECT COUNT(*) FROM _t_gho WHERE at = '0000-00-00 00:00:00'")).isPositive();
            assertThat(count(c, "SELECT COUNT(*) FROM _t_gho WHERE mood = '\uD83D\uDE00' AND b LIKE '\uD83D\uDE00%'"
                    + " AND a = 0")).isEqualTo(1);
        }
    }

    @Test
    void aCopyStoppedInTheMiddleResumesFromTheShardAndCountsEveryRowOnce() throws Exception {
        MariaDbServer server = SHARDS.server(0);
        String db = SHARDS.freshDatabase();
        int rows = 6_000;
        load(server, db, rows);
        MigrationPlans.Plan plan = plan(db, false);
        GhostCopier first = copier(server, plan, new GhostCopySettings(1, Duration.ofMillis(20), 100, 2_000));
        first.start();
        await(() -> copied(server, db) > 500);
        first.close();
        long atStop = copied(server, db);
        assertThat(atStop).as("stopped in the middle").isLessThan(rows);
        try (Connection c = server.connect(db)) {
            assertThat(count(c, "SELECT COUNT(*) FROM _t_gho")).as("the state counts what the ghost holds")
                    .isEqualTo(atStop);
        }
        GhostCopier second = copier(server, plan, new GhostCopySettings(2, Duration.ofMillis(20), 1_000, 0));
        second.start();
        await(second::finished);
        assertThat(second.failure()).isNull();
        try (Connection c = server.connect(db)) {
            assertThat(GhostCopyState.summary(c, "_vstream", plan.migration()).rowsCopied()).isEqualTo(rows);
            MappedChecksum sum = MappedChecksum.prepare(c, plan, 5_000);
            assertThat(sum.compareUntil(c, c, Long.MAX_VALUE)).isNull();
        }
    }

    @Test
    void aRowAWriterHoldsIsLeftOutOfItsChunkAndCopiedOnceLetGoAlsoByTheNextCopier() throws Exception {
        MariaDbServer server = SHARDS.server(0);
        String db = SHARDS.freshDatabase();
        int rows = 6_000;
        load(server, db, rows);
        server.execute(db, "ANALYZE TABLE t");
        MigrationPlans.Plan plan = plan(db, false);
        try (Connection writer = server.connect(db)) {
            writer.setAutoCommit(false);
            try (Statement st = writer.createStatement()) {
                // three rows locked and never changed: no change of theirs will come through the stream
                st.executeQuery("SELECT * FROM t WHERE a = 500 FOR UPDATE").close();
            }
            GhostCopier first = copier(server, plan, new GhostCopySettings(2, Duration.ofMillis(20), 200, 0));
            first.start();
            await(() -> held(server, db) == 3 && ghostRows(server, db) == rows - 3);
            assertThat(first.finished()).as("the range waits for the rows its chunk left out").isFalse();
            assertThat(server.queryLong(db, "SELECT COUNT(*) FROM _t_gho WHERE a = 500")).isZero();
            first.close(); // a coordinator that stops before the writer lets go
            writer.rollback();
        }
        GhostCopier second = copier(server, plan, new GhostCopySettings(2, Duration.ofMillis(20), 200, 0));
        second.start();
        await(second::finished);
        assertThat(second.failure()).isNull();
        try (Connection c = server.connect(db)) {
            assertThat(GhostCopyState.summary(c, "_vstream", plan.migration()).rowsCopied())
                    .as("every row counted once").isEqualTo(rows);
            assertThat(held(server, db)).isZero();
            MappedChecksum sum = MappedChecksum.prepare(c, plan, 5_000);
            assertThat(sum.compareUntil(c, c, Long.MAX_VALUE)).as("the ghost equals the original").isNull();
        }
    }

    @Test
    void aDuplicateOnANewUniqueKeyFailsTheCopyNamingTheKey() throws Exception {
        MariaDbServer server = SHARDS.server(0);
        String db = SHARDS.freshDatabase();
        server.execute(db, "CREATE TABLE t (id INT PRIMARY KEY, sku VARCHAR(20) NOT NULL)",
                "CREATE TABLE _t_gho (id INT PRIMARY KEY, sku VARCHAR(20) NOT NULL, UNIQUE KEY u_sku (sku))",
                "INSERT INTO t SELECT seq, IF(seq = 4, 'sku3', CONCAT('sku', seq)) FROM seq_1_to_1000");
        MigrationPlans.Plan plan = new MigrationPlans.Plan(db, db, "t", "_t_gho",
                ColumnMapping.identity(List.of("id", "sku")), List.of("id"), true);
        GhostCopier copier = copier(server, plan, new GhostCopySettings(1, Duration.ofMillis(20), 100, 0));
        copier.start();
        await(copier::finished);
        assertThat(copier.failure()).contains("duplicate").contains("'u_sku'").doesNotContain("sku3")
                .contains("original table is untouched");
        assertThat(server.queryLong(db, "SELECT COUNT(*) FROM t")).isEqualTo(1000L);
    }

    @Test
    void aValueTheNewTypeCannotHoldFailsTheCopyWithTheServersError() throws Exception {
        MariaDbServer server = SHARDS.server(0);
        String db = SHARDS.freshDatabase();
        server.execute(db, "CREATE TABLE t (id INT PRIMARY KEY, sku VARCHAR(20) NOT NULL)",
                "CREATE TABLE _t_gho (id INT PRIMARY KEY, sku VARCHAR(4) NOT NULL)",
                "INSERT INTO t SELECT seq, IF(seq = 500, 'much too long', 'ok') FROM seq_1_to_1000");
        MigrationPlans.Plan plan = new MigrationPlans.Plan(db, db, "t", "_t_gho",
                ColumnMapping.identity(List.of("id", "sku")), List.of("id"), false);
        GhostCopier copier = copier(server, plan, new GhostCopySettings(1, Duration.ofMillis(20), 100, 0));
        copier.start();
        await(copier::finished);
        assertThat(copier.failure()).contains("error 1406").contains("sku");
        assertThat(server.queryLong(db, "SELECT COUNT(*) FROM _t_gho WHERE id >= 500")).as("nothing cut short")
                .isZero();
    }

    @Test
    void thePlainKeysAreBuiltAfterTheCopyAndABuildCutShortIsFinishedByTheNextCopier() throws Exception {
        MariaDbServer server = SHARDS.server(0);
        String db = SHARDS.freshDatabase();
        int rows = 20_000;
        server.execute(db, "SET SESSION sql_mode = ''", TABLE, GHOST, "ALTER TABLE _t_gho ADD KEY by_note (note2),"
                + " ADD KEY `by``amount` (amount, a) COMMENT 'x, y', ADD UNIQUE KEY u_at (at, a)");
        MigrationPlans.Plan plan = plan(db, false);
        String created;
        try (Connection c = server.connect(db); Statement st = c.createStatement()) {
            st.execute("SET SESSION sql_mode = ''");
            st.execute(ROWS + (rows - 1));
            st.execute("ANALYZE TABLE t");
            created = showCreate(c);
            assertThat(DeferredIndexes.defer(c, "_vstream", db, db, "_t_gho", created))
                    .containsExactly("by_note", "by`amount");
            assertThat(keys(c, db)).as("the unique key stays for the copy").containsExactly("PRIMARY", "u_at");
        }
        GhostCopier first = copier(server, plan, new GhostCopySettings(2, Duration.ofMillis(20), 2_000, 0));
        first.start();
        await(first::finished);
        assertThat(first.failure()).isNull();
        try (Connection c = server.connect(db)) {
            assertThat(GhostCopyState.summary(c, "_vstream", db).done()).isTrue();
            assertThat(showCreate(c)).as("the ghost has the ALTER's definition again").isEqualTo(created);
            MappedChecksum sum = MappedChecksum.prepare(c, plan, 5_000);
            assertThat(sum.compareUntil(c, c, Long.MAX_VALUE)).as("the ghost equals the original").isNull();
        }

        // a coordinator died while it built the keys: one is there, the other not; its successor adds the other
        server.execute(db, "UPDATE _vstream.ghost_indexes SET restored = 0 WHERE migration = '" + db + "'",
                "ALTER TABLE _t_gho DROP KEY by_note");
        try (Connection c = server.connect(db)) {
            assertThat(GhostCopyState.summary(c, "_vstream", db).done()).as("not done without its keys").isFalse();
        }
        GhostCopier successor = copier(server, plan, new GhostCopySettings(2, Duration.ofMillis(20), 2_000, 0));
        successor.start();
        await(successor::finished);
        assertThat(successor.failure()).isNull();
        try (Connection c = server.connect(db)) {
            assertThat(GhostCopyState.summary(c, "_vstream", db).done()).isTrue();
            assertThat(showCreate(c)).isEqualTo(created);
            assertThat(copied(server, db)).as("no row copied again").isEqualTo(rows);
        }

        // a ghost whose definition then differs from the ALTER's fails the copy
        server.execute(db, "UPDATE _vstream.ghost_indexes SET restored = 0 WHERE migration = '" + db + "'",
                "ALTER TABLE _t_gho ADD KEY stray (created)");
        GhostCopier third = copier(server, plan, new GhostCopySettings(2, Duration.ofMillis(20), 2_000, 0));
        third.start();
        await(third::finished);
        assertThat(third.failure()).contains("is not what the ALTER made it").contains("stray")
                .contains("ddl.copy.defer.indexes=false");
        try (Connection c = server.connect(db)) {
            assertThat(GhostCopyState.summary(c, "_vstream", db).done()).isFalse();
        }
    }

    /** The original and its ghost, the original holding {@code rows} rows of {@link #ROWS}. */
    private static void load(MariaDbServer server, String db, int rows) throws SQLException {
        server.execute(db, TABLE, GHOST);
        try (Connection c = server.connect(db); Statement st = c.createStatement()) {
            st.execute("SET SESSION sql_mode = ''");
            st.execute(ROWS + (rows - 1));
        }
    }

    private static String showCreate(Connection c) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SHOW CREATE TABLE _t_gho")) {
            rs.next();
            return rs.getString(2);
        }
    }

    private static List<String> keys(Connection c, String db) throws SQLException {
        List<String> out = new java.util.ArrayList<>();
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT DISTINCT INDEX_NAME FROM"
                + " information_schema.STATISTICS WHERE TABLE_SCHEMA = '" + db + "' AND TABLE_NAME = '_t_gho'"
                + " ORDER BY INDEX_NAME")) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }

    private static MigrationPlans.Plan plan(String db, boolean newUnique) {
        Map<String, String> shared = new LinkedHashMap<>();
        shared.put("a", "a");
        shared.put("b", "b");
        shared.put("amount", "amount");
        shared.put("note", "note2");
        shared.put("mood", "mood");
        shared.put("at", "at");
        return new MigrationPlans.Plan(db, db, "t", "_t_gho", new ColumnMapping(shared, List.of("legacy"),
                List.of("created")), List.of("a", "b"), newUnique);
    }

    private static GhostCopier copier(MariaDbServer server, MigrationPlans.Plan plan, GhostCopySettings settings) {
        return new GhostCopier("-", () -> server.connect(null), plan, "_vstream", settings, c -> {
            try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT @@GLOBAL.gtid_binlog_pos")) {
                rs.next();
                return "MariaDB/" + rs.getString(1); // an applier that is always caught up
            }
        });
    }

    private static long copied(MariaDbServer server, String db) {
        return server.queryLong(db, "SELECT IFNULL(SUM(rows_copied), 0) FROM _vstream.ghost_copy WHERE migration = ?",
                db);
    }

    private static long held(MariaDbServer server, String db) {
        return server.queryLong(db, "SELECT COUNT(*) FROM _vstream.ghost_copy_held WHERE migration = ?", db);
    }

    private static long ghostRows(MariaDbServer server, String db) {
        return server.queryLong(db, "SELECT COUNT(*) FROM _t_gho");
    }

    private static long count(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static void await(BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not reached within 3 minutes");
            }
            Thread.sleep(50);
        }
    }
}
