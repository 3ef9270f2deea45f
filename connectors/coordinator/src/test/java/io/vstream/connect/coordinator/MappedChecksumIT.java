package io.vstream.connect.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import io.vstream.connect.core.mapping.ColumnMapping;
import io.vstream.connect.jdbc.MigrationPlans;
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
    static final MariaDbShards SHARDS = MariaDbShards.builder().count(2).build();

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

    /**
     * A reshard pair's comparison: the old shard (the full key range) against a new shard that holds only the rows
     * whose hash keyspace id lies in -80, filtered on both sides in Java: equal in chunks although the two tables hold
     * different rows; a difference on a row of the range is named, one outside it is not compared.
     */
    @Test
    void comparesOnlyTheRowsOfAKeyRangeOnBothSides() throws Exception {
        MariaDbServer oldShard = SHARDS.server(0);
        MariaDbServer newShard = SHARDS.server(1);
        String db = SHARDS.freshDatabase();
        io.vstream.connect.core.vindex.Vindex hash = io.vstream.connect.core.vindex.Vindexes.named("hash");
        io.vstream.connect.core.keyrange.KeyRange low = io.vstream.connect.core.keyrange.KeyRange.parse("-80");
        String table = "CREATE TABLE t (id BIGINT NOT NULL PRIMARY KEY, note VARCHAR(20) CHARACTER SET utf8mb4)";
        oldShard.execute(db, table, "INSERT INTO t SELECT seq, CONCAT('n', seq) FROM seq_1_to_3000");
        newShard.execute(db, table);
        List<Long> inRange = new java.util.ArrayList<>();
        List<Long> outside = new java.util.ArrayList<>();
        for (long id = 1; id <= 3000; id++) {
            (low.contains(hash.keyspaceId(id)) ? inRange : outside).add(id);
        }
        assertThat(inRange).hasSizeGreaterThan(1000);
        assertThat(outside).hasSizeGreaterThan(1000);
        try (Connection c = newShard.connect(db); java.sql.PreparedStatement ps = c.prepareStatement(
                "INSERT INTO t VALUES (?, CONCAT('n', ?))")) {
            for (long id : inRange) {
                ps.setLong(1, id);
                ps.setLong(2, id);
                ps.addBatch();
            }
            ps.executeBatch();
        }
        ReshardDiff.ShareFilter filter = new ReshardDiff.ShareFilter("id", hash, low);
        try (Connection src = oldShard.connect(db); Connection tgt = newShard.connect(db)) {
            MappedChecksum sum = MappedChecksum.prepareSame(src, db, "t", tgt, db, "t", 1000).filtered(filter);
            assertThat(sum.compareUntil(src, tgt, Long.MAX_VALUE)).isNull();
            assertThat(sum.done()).isTrue();
            assertThat(sum.rowsCompared()).isEqualTo(inRange.size());
            assertThat(sum.chunksCompared()).as("1,000 rows of the old shard each, and the empty rest").isEqualTo(4);

            long changed = inRange.get(inRange.size() / 2);
            long ignored = outside.get(outside.size() / 2);
            newShard.execute(db, "UPDATE t SET note = 'x' WHERE id = " + changed,
                    "INSERT INTO t VALUES (" + ignored + ", 'another shard''s 🙂')");
            MappedChecksum again = MappedChecksum.prepareSame(src, db, "t", tgt, db, "t", 1000).filtered(filter);
            MappedChecksum.Mismatch m = again.compareUntil(src, tgt, Long.MAX_VALUE);
            assertThat(m).isNotNull();
            assertThat(m.keys()).containsExactly("id=" + changed + " differs");
            again.skipMismatch(m);
            assertThat(again.compareUntil(src, tgt, Long.MAX_VALUE)).as("the row outside the range").isNull();
            assertThat(again.done()).isTrue();
        }
    }

    /**
     * The on-demand diff's comparison of a table with its copy on another server: same columns by name, the source's
     * primary key orders and names the rows, a difference is named and skipped (the diff goes on), columns on one side
     * only are named, and a table without a key is one chunk whose difference names no row.
     */
    @Test
    void comparesATableWithItsCopyOnAnotherServerAndGoesOnPastADifference() throws Exception {
        MariaDbServer source = SHARDS.server(0);
        MariaDbServer target = SHARDS.server(1);
        String db = SHARDS.freshDatabase();
        String table = "CREATE TABLE t (id INT NOT NULL PRIMARY KEY, name VARCHAR(20) CHARACTER SET utf8mb4,"
                + " born DATE, score DOUBLE)";
        String rows = "INSERT INTO t SELECT seq, IF(seq % 7 = 0, NULL, CONCAT('n', seq, '\uD83D\uDE00')),"
                + " IF(seq % 11 = 0, NULL, DATE('2000-01-01') + INTERVAL seq DAY), seq / 3 FROM seq_0_to_2999";
        for (MariaDbServer s : List.of(source, target)) {
            s.execute(db, table, rows, "CREATE TABLE nokey (a INT, b VARCHAR(10))",
                    "INSERT INTO nokey VALUES (1, 'x'), (2, NULL), (2, NULL)");
        }
        try (Connection s = source.connect(db); Connection t = target.connect(db)) {
            MappedChecksum equal = MappedChecksum.prepareSame(s, db, "t", t, db, "t", 1000);
            assertThat(equal.uncovered()).isEmpty();
            assertThat(equal.compareUntil(s, t, Long.MAX_VALUE)).isNull();
            assertThat(equal.rowsCompared()).isEqualTo(3000);
            assertThat(equal.chunksCompared()).as("three full chunks and the empty rest").isEqualTo(4);

            target.execute(db, "UPDATE t SET name = 'changed' WHERE id = 10", "DELETE FROM t WHERE id = 2500",
                    "INSERT INTO t VALUES (5000, 'extra', NULL, 1)", "UPDATE t SET born = NULL WHERE id = 1");
            MappedChecksum diff = MappedChecksum.prepareSame(s, db, "t", t, db, "t", 1000);
            MappedChecksum.Mismatch first = diff.compareUntil(s, t, Long.MAX_VALUE);
            assertThat(first.keys()).containsExactly("id=1 differs", "id=10 differs");
            assertThat(first.describe()).contains("source 1000 rows, target 1000 rows");
            diff.skipMismatch(first);
            assertThat(diff.done()).isFalse();
            MappedChecksum.Mismatch third = diff.compareUntil(s, t, Long.MAX_VALUE);
            assertThat(third.range()).as("the equal second chunk passed, the third differs")
                    .isEqualTo("([id]=[1999], [id]=[2999]]");
            assertThat(third.keys()).containsExactly("id=2500 missing in the target");
            assertThat(diff.rowsCompared()).isEqualTo(2000);
            diff.skipMismatch(third);
            MappedChecksum.Mismatch rest = diff.compareUntil(s, t, Long.MAX_VALUE);
            assertThat(rest.range()).isEqualTo("([id]=[2999], end]");
            assertThat(rest.keys()).containsExactly("id=5000 only in the target");
            diff.skipMismatch(rest);
            assertThat(diff.done()).isTrue();

            target.execute(db, "ALTER TABLE t ADD COLUMN note VARCHAR(5) NULL", "UPDATE nokey SET b = 'y' WHERE a = 1");
            assertThat(MappedChecksum.prepareSame(s, db, "t", t, db, "t", 1000).uncovered())
                    .containsExactly("note (target only)");
            MappedChecksum nokey = MappedChecksum.prepareSame(s, db, "nokey", t, db, "nokey", 1000);
            MappedChecksum.Mismatch whole = nokey.compareUntil(s, t, Long.MAX_VALUE);
            assertThat(whole.range()).isEqualTo("(start, end]");
            assertThat(whole.keys()).as("no key to name the rows by").isEmpty();
            assertThat(whole.describe()).contains("same keys, different values");
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> MappedChecksum.prepareSame(s, db, "t", t, db,
                    "missing", 1000)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("the target table " + db + ".missing does not exist");
        }
    }
}
