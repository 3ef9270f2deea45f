package io.vstream.connect.coordinator.ddl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vstream.connect.coordinator.ddl.AlterRefusedException.Reason;
import io.vstream.connect.testsupport.db.MariaDbServer;
import io.vstream.connect.testsupport.db.MariaDbShards;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The ALTER analysis against real MariaDB shards: plans, ghost tables, refusals that leave nothing behind. */
class AlterAnalyzerIT {
    @RegisterExtension
    static final MariaDbShards SHARDS = MariaDbShards.builder().count(2).build();

    private static final String ORDERS = "CREATE TABLE orders (id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,"
            + " k INT NOT NULL, amount DECIMAL(10,2), v VARCHAR(40), note TEXT, KEY k1 (k)) ENGINE=InnoDB";
    private static final String ROWS = "INSERT INTO orders (k, amount, v, note) VALUES (1, 1.50, 'a', 'x'),"
            + " (2, 2.50, 'b', NULL), (2, 3.00, NULL, 'z')";

    private final AlterAnalyzer analyzer = AlterAnalyzer.builder("orders-ddl").build();
    private MariaDbServer server;
    private String db;

    @BeforeEach
    void freshDatabase() {
        server = SHARDS.server(0);
        db = SHARDS.freshDatabase();
    }

    @Test
    void typeChangeIndexRenameAndDropOnEveryShard() throws Exception {
        String body = "MODIFY amount DECIMAL(14,2), ADD INDEX k2 (k), CHANGE COLUMN v v2 VARCHAR(80), DROP COLUMN note";
        AlterPlan[] plans = new AlterPlan[2];
        for (int s = 0; s < 2; s++) {
            MariaDbServer shard = SHARDS.server(s);
            shard.execute(db, ORDERS, ROWS);
            try (Connection c = shard.connect(null)) {
                plans[s] = analyzer.analyze(c, db, "orders", body);
            }
        }
        AlterPlan plan = plans[0];
        assertThat(plans[1].difference(plan)).isEmpty();
        assertThat(plan.ghost()).isEqualTo("_orders_gho");
        assertThat(plan.alter()).isEqualTo(body);
        assertThat(plan.mapping().shared()).containsExactly(Map.entry("id", "id"), Map.entry("k", "k"),
                Map.entry("amount", "amount"), Map.entry("v", "v2"));
        assertThat(plan.mapping().dropped()).containsExactly("note");
        assertThat(plan.mapping().added()).isEmpty();
        assertThat(plan.sharedKey()).containsExactly("id");
        assertThat(plan.addsUniqueKey()).isFalse();
        assertThat(plan.originalCreate()).contains("`note` text").contains("`v` varchar(40)");
        assertThat(plan.ghostCreate()).contains("CREATE TABLE `_orders_gho`").contains("`amount` decimal(14,2)")
                .contains("`v2` varchar(80)").contains("KEY `k2` (`k`)").doesNotContain("`note`");
        assertThat(AlterPlan.fromJson(plan.toJson())).isEqualTo(plan);

        for (int s = 0; s < 2; s++) {
            MariaDbServer shard = SHARDS.server(s);
            assertThat(tableExists(shard, "_orders_gho")).isTrue();
            assertThat(shard.queryLong(db, "SELECT COUNT(*) FROM _orders_gho")).isZero();
            assertThat(shard.queryLong(db, "SELECT COUNT(*) FROM orders")).isEqualTo(3);
            assertThat(marks(shard)).isEqualTo(1);
            try (Connection c = shard.connect(null)) {
                assertThat(analyzer.dropGhost(c, plans[s])).isTrue();
                assertThat(analyzer.dropGhost(c, plans[s])).isFalse();
            }
            assertThat(tableExists(shard, "_orders_gho")).isFalse();
            assertThat(marks(shard)).isZero();
        }
    }

    @Test
    void wholeStatementWithQuotedNamesAndRenameColumn() throws Exception {
        server.execute(db, "CREATE TABLE `my orders` (`order id` INT NOT NULL PRIMARY KEY, `a``b` INT, c INT)",
                "INSERT INTO `my orders` VALUES (1, 2, 3)");
        try (Connection c = server.connect(null)) {
            AlterPlan plan = analyzer.analyze(c, db, "my orders", "ALTER TABLE `my orders`"
                    + " RENAME COLUMN `a``b` TO `new name`, change `order id` `the id` INT NOT NULL,"
                    + " ADD COLUMN created DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP;");
            assertThat(plan.ghost()).isEqualTo("_my orders_gho");
            assertThat(plan.mapping().shared()).containsExactly(Map.entry("order id", "the id"),
                    Map.entry("a`b", "new name"), Map.entry("c", "c"));
            assertThat(plan.mapping().added()).containsExactly("created");
            assertThat(plan.sharedKey()).containsExactly("the id");
            assertThat(plan.sharedKeySource()).containsExactly("order id");
            assertThat(plan.notes()).anyMatch(n -> n.contains("`a``b` is renamed to `new name` (RENAME COLUMN"));
        }
    }

    @Test
    void dropAndAddWithoutRenameIsReported() throws Exception {
        server.execute(db, ORDERS, ROWS);
        try (Connection c = server.connect(null)) {
            AlterPlan plan = analyzer.analyze(c, db, "orders", "DROP COLUMN note, ADD COLUMN memo TEXT,"
                    + " ADD COLUMN doubled DECIMAL(12,2) AS (amount * 2) VIRTUAL");
            assertThat(plan.mapping().dropped()).containsExactly("note");
            assertThat(plan.mapping().added()).containsExactly("memo", "doubled");
            assertThat(plan.notes()).anyMatch(n -> n.contains("`note` is dropped and `memo` added"));
        }
    }

    @Test
    void renameToIsRefusedBeforeAnythingIsCreated() throws Exception {
        server.execute(db, ORDERS);
        assertRefused("ADD COLUMN x INT, RENAME TO orders_v2", Reason.RENAMES_TABLE, "RENAME TABLE");
        assertRefused("RENAME AS orders_v2", Reason.RENAMES_TABLE, "keeps the table's name");
        assertThat(tableExists(server, "orders_v2")).isFalse();
        assertThat(tableExists(server, "orders")).isTrue();
    }

    @Test
    void foreignKeysInEitherDirectionAreRefused() throws Exception {
        server.execute(db, "CREATE TABLE customers (id INT NOT NULL PRIMARY KEY) ENGINE=InnoDB",
                "CREATE TABLE orders (id INT NOT NULL PRIMARY KEY, customer_id INT,"
                        + " CONSTRAINT fk_customer FOREIGN KEY (customer_id) REFERENCES customers (id)) ENGINE=InnoDB",
                "CREATE TABLE plain (id INT NOT NULL PRIMARY KEY, customer_id INT) ENGINE=InnoDB");
        assertRefused("orders", "ADD COLUMN x INT", Reason.FOREIGN_KEY, "`fk_customer`");
        assertRefused("customers", "ADD COLUMN x INT", Reason.FOREIGN_KEY, "Drop the foreign keys");
        assertRefused("plain", "ADD CONSTRAINT fk2 FOREIGN KEY (customer_id) REFERENCES customers (id)",
                Reason.FOREIGN_KEY, "add it afterwards");
        assertThat(tableExists(server, "_orders_gho")).isFalse();
        assertThat(tableExists(server, "_customers_gho")).isFalse();
        assertThat(tableExists(server, "_plain_gho")).isFalse();
    }

    @Test
    void triggersAreRefused() throws Exception {
        server.execute(db, ORDERS, "CREATE TABLE audit (n INT)",
                "CREATE TRIGGER orders_ai AFTER INSERT ON orders FOR EACH ROW INSERT INTO audit VALUES (NEW.k)");
        assertRefused("ADD INDEX k2 (k)", Reason.TRIGGER, "`orders_ai`");
        assertThat(tableExists(server, "_orders_gho")).isFalse();
    }

    @Test
    void aNewUniqueKeyIsRefusedUnlessAccepted() throws Exception {
        server.execute(db, ORDERS, ROWS);
        assertRefused("ADD UNIQUE KEY uv (v)", Reason.NEW_UNIQUE_KEY, "UNIQUE KEY `uv` (`v`)");
        assertThat(tableExists(server, "_orders_gho")).isFalse();
        assertThat(marks(server)).isZero();

        AlterAnalyzer accepting = AlterAnalyzer.builder("orders-ddl").allowNewUniqueKey(true).build();
        try (Connection c = server.connect(null)) {
            AlterPlan plan = accepting.analyze(c, db, "orders", "ADD UNIQUE KEY uv (v)");
            assertThat(plan.addsUniqueKey()).isTrue();
            assertThat(plan.newUniqueKeys()).containsExactly("UNIQUE KEY `uv` (`v`)");
            assertThat(plan.notes()).anyMatch(n -> n.contains("fails the migration"));
            assertThat(plan.toMigrationPlan("orders-ddl").newUniqueKey()).isTrue();
        }
        assertThat(tableExists(server, "_orders_gho")).isTrue();
    }

    @Test
    void aDroppedPrimaryKeyWithoutAnotherUniqueKeyIsRefused() throws Exception {
        server.execute(db, "CREATE TABLE orders (id BIGINT NOT NULL PRIMARY KEY, k INT NOT NULL, v VARCHAR(40),"
                + " UNIQUE KEY uv (v))", "INSERT INTO orders VALUES (1, 1, 'a')");
        assertRefused("DROP PRIMARY KEY", Reason.NO_SHARED_UNIQUE_KEY, "over NULL-able columns");
        assertThat(tableExists(server, "_orders_gho")).isFalse();
        assertThat(marks(server)).isZero();

        try (Connection c = server.connect(null)) {
            AlterPlan plan = analyzer.analyze(c, db, "orders", "DROP PRIMARY KEY, ADD PRIMARY KEY (id)");
            assertThat(plan.sharedKey()).containsExactly("id");
        }
    }

    @Test
    void notNullWithoutDefaultIsRefusedOnATableWithRows() throws Exception {
        server.execute(db, ORDERS, ROWS, "CREATE TABLE empty_orders LIKE orders");
        assertRefused("ADD COLUMN status INT NOT NULL", Reason.NOT_NULL_WITHOUT_DEFAULT, "Add a DEFAULT");
        assertThat(tableExists(server, "_orders_gho")).isFalse();

        try (Connection c = server.connect(null)) {
            AlterPlan plan = analyzer.analyze(c, db, "orders", "ADD COLUMN status INT NOT NULL DEFAULT 0");
            assertThat(plan.mapping().added()).containsExactly("status");
            AlterPlan empty = analyzer.analyze(c, db, "empty_orders", "ADD COLUMN status INT NOT NULL");
            assertThat(empty.notes()).anyMatch(n -> n.contains("NOT NULL without a DEFAULT"));
        }
    }

    @Test
    void anUnconfirmedRenameIsRefused() throws Exception {
        server.execute(db, ORDERS, ROWS);
        assertRefused("CHANGE COLUMN v v_old VARCHAR(40), ADD COLUMN v INT", Reason.UNCONFIRMED_RENAME,
                "`v` is still a column of the new table");
        assertRefused("CHANGE v note VARCHAR(40), CHANGE note v TEXT", Reason.UNCONFIRMED_RENAME,
                "swaps and chains need one migration per step");
        assertThat(tableExists(server, "_orders_gho")).isFalse();
    }

    @Test
    void theServersRefusalIsPassedOn() throws Exception {
        server.execute(db, ORDERS);
        assertRefused("DROP COLUMN no_such_column", Reason.SERVER_REJECTED, "no_such_column");
        assertRefused("ADD COLUMN", Reason.SERVER_REJECTED, "SQL syntax");
        assertThat(tableExists(server, "_orders_gho")).isFalse();
        assertThat(marks(server)).isZero();
    }

    @Test
    void aMissingTableOrAViewIsRefused() throws Exception {
        server.execute(db, ORDERS, "CREATE VIEW big_orders AS SELECT * FROM orders WHERE amount > 100");
        assertRefused("nope", "ADD COLUMN x INT", Reason.NO_SUCH_TABLE, "does not exist");
        assertRefused("big_orders", "ADD COLUMN x INT", Reason.NO_SUCH_TABLE, "VIEW");
    }

    @Test
    void aGhostNameTakenBySomeoneElseIsRefusedAndLeftAlone() throws Exception {
        server.execute(db, ORDERS, "CREATE TABLE _orders_gho (precious INT)", "INSERT INTO _orders_gho VALUES (7)");
        assertRefused("ADD INDEX k2 (k)", Reason.GHOST_EXISTS, "DROP TABLE `" + db + "`.`_orders_gho`");
        assertThat(server.queryLong(db, "SELECT precious FROM _orders_gho")).isEqualTo(7);
        try (Connection c = server.connect(null)) {
            assertThatThrownBy(() -> analyzer.dropGhost(c, db, "_orders_gho"))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("left in place");
            AlterPlan plan = AlterAnalyzer.builder("orders-ddl").ghostNamePattern("_${table}_new").build()
                    .analyze(c, db, "orders", "ADD INDEX k2 (k)");
            assertThat(plan.ghost()).isEqualTo("_orders_new");
        }
        assertThat(tableExists(server, "_orders_new")).isTrue();
    }

    @Test
    void aWorkflowReplacesItsOwnGhostButNotAnotherWorkflows() throws Exception {
        server.execute(db, ORDERS, ROWS);
        try (Connection c = server.connect(null)) {
            analyzer.analyze(c, db, "orders", "ADD INDEX k2 (k)");
            AlterPlan again = analyzer.analyze(c, db, "orders", "ADD INDEX k3 (k)");
            assertThat(again.ghostCreate()).contains("KEY `k3`").doesNotContain("KEY `k2`");
            AlterAnalyzer other = AlterAnalyzer.builder("someone-else").build();
            assertThatThrownBy(() -> other.analyze(c, db, "orders", "ADD INDEX k4 (k)"))
                    .isInstanceOf(AlterRefusedException.class).hasMessageContaining("workflow 'orders-ddl'");
            assertThatThrownBy(() -> other.dropGhost(c, again)).isInstanceOf(IllegalStateException.class);
        }
        assertThat(tableExists(server, "_orders_gho")).isTrue();
    }

    @Test
    void aLongTableNameGetsAShortenedGhostName() throws Exception {
        String table = "t".repeat(62);
        server.execute(db, "CREATE TABLE " + table + " (id INT NOT NULL PRIMARY KEY, v INT)");
        try (Connection c = server.connect(null)) {
            AlterPlan plan = analyzer.analyze(c, db, table, "ADD INDEX kv (v)");
            assertThat(plan.ghost()).hasSize(64).startsWith("_ttt").endsWith("_gho").matches("_t{50}_[0-9a-f]{8}_gho");
            assertThat(tableExists(server, plan.ghost())).isTrue();
        }
    }

    @Test
    void aLockedTableMakesTheAnalysisWaitAtMostTheLockTimeout() throws Exception {
        server.execute(db, ORDERS);
        AlterAnalyzer patient = AlterAnalyzer.builder("orders-ddl").lockWaitTimeout(Duration.ofSeconds(1)).build();
        try (Connection locker = server.connect(db); Connection c = server.connect(null)) {
            locker.createStatement().execute("LOCK TABLES orders WRITE");
            long begin = System.nanoTime();
            assertThatThrownBy(() -> patient.analyze(c, db, "orders", "ADD INDEX k2 (k)"))
                    .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getErrorCode()).isEqualTo(1205));
            assertThat(Duration.ofNanos(System.nanoTime() - begin)).isLessThan(Duration.ofSeconds(10));
            locker.createStatement().execute("UNLOCK TABLES");
        }
        assertThat(tableExists(server, "_orders_gho")).isFalse();
        assertThat(marks(server)).isZero();
    }

    @Test
    void theSessionsLockWaitTimeoutIsRestored() throws Exception {
        server.execute(db, ORDERS);
        try (Connection c = server.connect(null)) {
            c.createStatement().execute("SET SESSION lock_wait_timeout = 1234");
            analyzer.analyze(c, db, "orders", "ADD INDEX k2 (k)");
            try (var rs = c.createStatement().executeQuery("SELECT @@SESSION.lock_wait_timeout")) {
                rs.next();
                assertThat(rs.getInt(1)).isEqualTo(1234);
            }
        }
    }

    private void assertRefused(String alter, Reason reason, String messagePart) throws Exception {
        assertRefused("orders", alter, reason, messagePart);
    }

    private void assertRefused(String table, String alter, Reason reason, String messagePart) throws Exception {
        try (Connection c = server.connect(null)) {
            assertThatThrownBy(() -> analyzer.analyze(c, db, table, alter))
                    .isInstanceOfSatisfying(AlterRefusedException.class, e -> assertThat(e.reason()).isEqualTo(reason))
                    .hasMessageContaining(messagePart);
        }
    }

    private boolean tableExists(MariaDbServer shard, String table) {
        return shard.queryLong(null, "SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = ?"
                + " AND TABLE_NAME = ?", db, table) == 1;
    }

    private long marks(MariaDbServer shard) {
        if (shard.queryLong(null, "SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = '_vstream'"
                + " AND TABLE_NAME = 'ghost_tables'") == 0) {
            return 0;
        }
        return shard.queryLong(null, "SELECT COUNT(*) FROM _vstream.ghost_tables WHERE table_schema = ?", db);
    }
}
