package io.vstream.connect.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import io.vstream.connect.core.mapping.ColumnMapping;
import io.vstream.connect.core.mapping.MigrationPlans;
import io.vstream.connect.testsupport.db.MariaDbServer;
import io.vstream.connect.testsupport.db.MariaDbShards;
import java.sql.Connection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The chunked checksum through a column mapping on a real server: equal tables compare equal in bounded slices (a
 * changed type, a renamed column, a dropped and an added column), and a missing, an extra or a changed row is found
 * and named by key.
 */
class MappedChecksumIT {
    @RegisterExtension
    static final MariaDbShards SHARDS = MariaDbShards.builder().count(1).build();

    @Test
    void comparesInSlicesThroughTheMappingAndNamesTheKeysThatDiffer() throws Exception {
        MariaDbServer server = SHARDS.server(0);
        String db = SHARDS.freshDatabase();
        server.execute(db, "CREATE TABLE t (id INT NOT NULL PRIMARY KEY, amount DECIMAL(10,2), extra VARCHAR(20),"
                        + " legacy INT)",
                "CREATE TABLE _t_gho (id INT NOT NULL PRIMARY KEY, amount DECIMAL(14,2), extra2 VARCHAR(40),"
                        + " created TIMESTAMP NULL)",
                "INSERT INTO t SELECT seq, seq / 7, IF(seq % 5 = 0, NULL, CONCAT('e', seq)), seq FROM seq_1_to_2500",
                "INSERT INTO _t_gho SELECT id, amount, extra, NULL FROM t");
        Map<String, String> shared = new LinkedHashMap<>();
        shared.put("id", "id");
        shared.put("amount", "amount");
        shared.put("extra", "extra2");
        MigrationPlans.Plan plan = new MigrationPlans.Plan("m", db, "t", "_t_gho",
                new ColumnMapping(shared, List.of("legacy"), List.of("created")), List.of("id"), false);
        try (Connection c = server.connect(db)) {
            MappedChecksum sum = MappedChecksum.prepare(c, plan, 1000);
            assertThat(sum.uncovered()).isEmpty();
            assertThat(sum.compareUntil(c, c, 0)).as("one chunk per slice when the time is up").isNull();
            assertThat(sum.done()).isFalse();
            assertThat(sum.rowsCompared()).isEqualTo(1000);
            assertThat(sum.compareUntil(c, c, Long.MAX_VALUE)).isNull();
            assertThat(sum.done()).isTrue();
            assertThat(sum.rowsCompared()).isEqualTo(2500);
            assertThat(sum.chunksCompared()).isEqualTo(3);

            server.execute(db, "DELETE FROM _t_gho WHERE id = 1500", "UPDATE _t_gho SET extra2 = 'x' WHERE id = 1502",
                    "INSERT INTO _t_gho VALUES (1999999, 1, 'y', NULL)");
            MappedChecksum again = MappedChecksum.prepare(c, plan, 1000);
            MappedChecksum.Mismatch m = again.compareUntil(c, c, Long.MAX_VALUE);
            assertThat(m).isNotNull();
            assertThat(m.range()).isEqualTo("([id]=[1000], [id]=[2000]]");
            assertThat(m.keys()).containsExactly("id=1500 missing in the ghost", "id=1502 differs");
            assertThat(again.rowsCompared()).isEqualTo(1000);
            server.execute(db, "INSERT INTO _t_gho SELECT id, amount, extra, NULL FROM t WHERE id = 1500",
                    "UPDATE _t_gho SET extra2 = 'e1502' WHERE id = 1502");
            MappedChecksum.Mismatch last = again.compareUntil(c, c, Long.MAX_VALUE);
            assertThat(last).isNotNull();
            assertThat(last.range()).isEqualTo("([id]=[2000], end]");
            assertThat(last.keys()).containsExactly("id=1999999 only in the ghost");
            assertThat(last.describe()).contains("original 500 rows, ghost 501 rows");
        }
    }
}
