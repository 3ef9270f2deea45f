package io.vstream.connect.coordinator.ddl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vstream.connect.jdbc.MigrationPlans;
import io.vstream.connect.testsupport.db.MariaDbServer;
import io.vstream.connect.testsupport.db.MariaDbShards;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The instant path on a real server: the server is asked on an empty probe table (left behind never), an ALTER it
 * can run instantly runs on the table, one it cannot is refused with its reason and the table is untouched, a long
 * transaction is seen, and a metadata lock held by another session makes the ALTER give up after its lock timeout.
 */
class InstantAlterIT {
    @RegisterExtension
    static final MariaDbShards SHARDS = MariaDbShards.builder().count(1).build();

    @Test
    void asksTheServerOnAProbeThenRunsInstantlyOrSaysWhyNot() throws Exception {
        MariaDbServer server = SHARDS.server(0);
        String db = SHARDS.freshDatabase();
        server.execute(db, "CREATE TABLE orders (id INT PRIMARY KEY, amount DECIMAL(10,2), v VARCHAR(20))",
                "INSERT INTO orders SELECT seq, seq / 3, 'v' FROM seq_1_to_1000");
        try (Connection c = server.connect(db)) {
            InstantAlter.Probe can = InstantAlter.probe(c, db, "orders", "ADD COLUMN note VARCHAR(32) NULL");
            assertThat(can.refusal()).isNull();
            assertThat(can.definition()).contains("`note` varchar(32) DEFAULT NULL").doesNotContain("_orders_ins");
            assertThat(InstantAlter.probe(c, db, "orders", "MODIFY amount DECIMAL(14,2)").refusal())
                    .as("a type change copies").isNotNull().contains("error");
            assertThat(server.queryLong(db, "SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = ?"
                    + " AND TABLE_NAME = '_orders_ins'", db)).as("the probe is gone").isZero();
            InstantAlter.apply(c, db, "orders", "ADD COLUMN note VARCHAR(32) NULL", Duration.ofSeconds(1));
            assertThat(server.queryString(db, "SELECT COLUMN_TYPE FROM information_schema.COLUMNS WHERE"
                    + " TABLE_SCHEMA = ? AND TABLE_NAME = 'orders' AND COLUMN_NAME = 'note'", db))
                    .isEqualTo("varchar(32)");
            assertThat(SchemaReader.definition(c, db, "orders")).as("the table as the probe said it would be")
                    .isEqualTo(can.definition());
            assertThatThrownBy(() -> InstantAlter.apply(c, db, "orders", "MODIFY amount DECIMAL(14,2)",
                    Duration.ofSeconds(1))).isInstanceOfSatisfying(SQLException.class,
                            e -> assertThat(InstantAlter.notInstant(e)).isTrue());
            assertThat(server.queryString(db, "SELECT COLUMN_TYPE FROM information_schema.COLUMNS WHERE"
                    + " TABLE_SCHEMA = ? AND TABLE_NAME = 'orders' AND COLUMN_NAME = 'amount'", db))
                    .isEqualTo("decimal(10,2)");
        }
    }

    @Test
    void theDefinitionRecordedBeforeATryIsReadBackUntilTheShardIsRecordedDone() throws Exception {
        MariaDbServer server = SHARDS.server(0);
        String db = SHARDS.freshDatabase();
        String state = db + "_state";
        try (Connection c = server.connect(db)) {
            assertThat(MigrationPlans.instantStarted(c, state, "m")).as("no state database yet").isNull();
            MigrationPlans.saveInstantStarted(c, state, "m", db, "orders", "(\n  `id` int(11) NOT NULL\n)");
            assertThat(MigrationPlans.instantStarted(c, state, "m")).isEqualTo("(\n  `id` int(11) NOT NULL\n)");
            assertThat(MigrationPlans.appliedInstantly(c, state, "m")).isFalse();
            assertThat(MigrationPlans.load(c, state, "m")).as("no plan for an applier").isNull();
            MigrationPlans.saveInstant(c, state, "m", db, "orders");
            assertThat(MigrationPlans.instantStarted(c, state, "m")).isNull();
            assertThat(MigrationPlans.appliedInstantly(c, state, "m")).isTrue();
            MigrationPlans.saveInstantStarted(c, state, "n", db, "orders", "x");
            MigrationPlans.forgetInstantStarted(c, state, "n");
            assertThat(MigrationPlans.instantStarted(c, state, "n")).isNull();
        }
    }

    @Test
    void aLongTransactionIsSeenAndAHeldMetadataLockEndsTheTryAfterTheTimeout() throws Exception {
        MariaDbServer server = SHARDS.server(0);
        String db = SHARDS.freshDatabase();
        server.execute(db, "CREATE TABLE t (id INT PRIMARY KEY, v INT)", "INSERT INTO t VALUES (1, 1)");
        try (Connection holder = server.connect(db); Statement st = holder.createStatement();
             Connection c = server.connect(db)) {
            assertThat(InstantAlter.longTransaction(c, Duration.ofSeconds(1))).isNull();
            st.execute("START TRANSACTION WITH CONSISTENT SNAPSHOT");
            st.executeQuery("SELECT * FROM t").close();
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            String seen = null;
            while (seen == null && System.nanoTime() < deadline) {
                Thread.sleep(200);
                seen = InstantAlter.longTransaction(c, Duration.ofSeconds(1));
            }
            assertThat(seen).contains("has had a transaction open for");
            assertThatThrownBy(() -> InstantAlter.apply(c, db, "t", "ADD COLUMN note INT NULL", Duration.ofSeconds(1)))
                    .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getErrorCode()).isEqualTo(1205));
            st.execute("COMMIT");
            InstantAlter.apply(c, db, "t", "ADD COLUMN note INT NULL", Duration.ofSeconds(1));
        }
    }

    @Test
    void anAlterThatChoosesItsAlgorithmIsLeftToIt() {
        assertThat(InstantAlter.choosesAlgorithm("ADD COLUMN x INT, ALGORITHM=COPY")).isTrue();
        assertThat(InstantAlter.choosesAlgorithm("add column x int, lock = none")).isTrue();
        assertThat(InstantAlter.choosesAlgorithm("ADD COLUMN algorithm_name INT")).isFalse();
    }
}
