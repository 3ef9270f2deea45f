package io.vstream.connect.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import io.vstream.connect.jdbc.AppliedTable;
import io.vstream.connect.jdbc.MigrationPlans;
import io.vstream.connect.jdbc.StateTables;
import io.vstream.connect.jdbc.StreamPartition;
import io.vstream.connect.jdbc.ThrottleTable;
import io.vstream.connect.testsupport.db.MariaDbServer;
import io.vstream.connect.testsupport.db.MariaDbShards;
import java.sql.Connection;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The shared state tables on a real server, from jdbc's one home of each (the sink, the coordinator and the source
 * use the same statements): an {@code applied} and a {@code migrations} table of an earlier version get the column
 * they lack, and the coordinator reads the older one meanwhile; the coordinator's throttle is seen by the copy's read
 * until it expires or is cleared, and clearing one that was never set is no error.
 */
class StateTablesIT {
    @RegisterExtension
    static final MariaDbShards SHARDS = MariaDbShards.builder().count(1).build();

    @Test
    void tablesOfAnEarlierVersionGetTheColumnTheyLack() throws Exception {
        MariaDbServer server = SHARDS.server(0);
        String state = SHARDS.freshDatabase();
        server.execute(state, "CREATE TABLE applied (stream VARCHAR(128) NOT NULL, topic VARCHAR(249) NOT NULL,"
                        + " kafka_partition INT NOT NULL, kafka_offset BIGINT NOT NULL, keyspace VARCHAR(128),"
                        + " shard VARCHAR(64), position TEXT, copy_state MEDIUMTEXT, source_ts_ms BIGINT,"
                        + " updated_at TIMESTAMP(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6) ON UPDATE"
                        + " CURRENT_TIMESTAMP(6), PRIMARY KEY (stream, topic, kafka_partition)) ENGINE=InnoDB",
                "INSERT INTO applied (stream, topic, kafka_partition, kafka_offset, position, source_ts_ms)"
                        + " VALUES ('s', 't', 0, 41, 'MariaDB/0-1-5', 1000)",
                "CREATE TABLE migrations (migration VARCHAR(128) NOT NULL PRIMARY KEY, database_name VARCHAR(64)"
                        + " NOT NULL, table_name VARCHAR(64) NOT NULL, ghost_table VARCHAR(64) NOT NULL, mapping"
                        + " MEDIUMTEXT NOT NULL, key_columns TEXT NOT NULL, new_unique_key TINYINT NOT NULL DEFAULT 0,"
                        + " created_at TIMESTAMP(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6)) ENGINE=InnoDB",
                "INSERT INTO migrations (migration, database_name, table_name, ghost_table, mapping, key_columns)"
                        + " VALUES ('m', 'd', 't', '_t_gho', '{}', 'id')");
        try (Connection c = server.connect(state)) {
            assertThat(AppliedTable.read(c, state, "s")).as("an applier that does not count copied rows")
                    .containsExactly(new AppliedTable.Row("t", 0, "MariaDB/0-1-5", null, 1000L, null));

            AppliedTable.ensure(c, state);
            AppliedTable.ensure(c, state); // once there, the column is not added again
            MigrationPlans.ensure(c, state);
            StateTables.addColumnIfMissing(c, "coordinator", state, "migrations", "method",
                    "VARCHAR(16) NOT NULL DEFAULT 'copy'");

            assertThat(server.queryString(state, "SELECT COLUMN_TYPE FROM information_schema.COLUMNS"
                    + " WHERE TABLE_SCHEMA = ? AND TABLE_NAME = 'applied' AND COLUMN_NAME = 'rows_copied'", state))
                    .isEqualTo("bigint(20)");
            assertThat(server.queryString(state, "SELECT method FROM migrations WHERE migration = 'm'"))
                    .as("a migration of an earlier version copied").isEqualTo("copy");
            StreamPartition partition = new StreamPartition("s", "t", 0);
            AppliedTable.save(c, state, partition, new AppliedTable.Applied(42, "ks", "-80", "MariaDB/0-1-6", "[]",
                    2000L, 7L));
            assertThat(AppliedTable.load(c, state, partition)).isEqualTo(new AppliedTable.Applied(42, "ks", "-80",
                    "MariaDB/0-1-6", "[]", null, 7L));
            assertThat(AppliedTable.read(c, state, "s"))
                    .containsExactly(new AppliedTable.Row("t", 0, "MariaDB/0-1-6", "[]", 2000L, 7L));
            AppliedTable.overwriteOffset(c, state, partition, 10L);
            assertThat(AppliedTable.load(c, state, partition).kafkaOffset()).isEqualTo(9);
            AppliedTable.overwriteOffset(c, state, partition, null);
            assertThat(AppliedTable.load(c, state, partition)).isNull();
        }
    }

    @Test
    void theCopySeesTheCoordinatorsThrottleUntilItIsClearedOrExpires() throws Exception {
        MariaDbServer server = SHARDS.server(0);
        String state = SHARDS.freshDatabase();
        server.execute(state, "DROP DATABASE " + state); // no state database yet: no coordinator has throttled
        try (Connection c = server.connect(null)) {
            ThrottleTable.clear(c, state, "shop");
            assertThat(ThrottleTable.exists(c, state)).isFalse();
            assertThat(ThrottleTable.reason(c, state, "shop")).isNull();

            ThrottleTable.set(c, state, "shop", "applier lags 12 s", Duration.ofMinutes(1));
            assertThat(ThrottleTable.exists(c, state)).isTrue();
            ThrottleTable.checkReadable(c, state);
            assertThat(ThrottleTable.reason(c, state, "shop")).isEqualTo("applier lags 12 s");
            assertThat(ThrottleTable.reason(c, state, "other")).as("another database's copy").isNull();

            ThrottleTable.clear(c, state, "shop");
            assertThat(ThrottleTable.reason(c, state, "shop")).isNull();

            ThrottleTable.set(c, state, "shop", "expires at once", Duration.ZERO);
            assertThat(ThrottleTable.reason(c, state, "shop")).as("expired").isNull();
        }
    }
}
