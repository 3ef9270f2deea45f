package io.vstream.connect.testsupport.compare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vstream.connect.local.compare.ComparisonResult;
import io.vstream.connect.local.compare.RowDifference;
import io.vstream.connect.testsupport.db.MariaDbServer;
import io.vstream.connect.testsupport.db.MariaDbShards;
import java.sql.Connection;
import java.sql.SQLException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The comparator against two real servers: the source on shard 0, the target on shard 1. */
class TableComparatorIT {

    @RegisterExtension
    static final MariaDbShards SHARDS = MariaDbShards.start(2);

    private static final String TABLE_DDL = "CREATE TABLE t (id BIGINT PRIMARY KEY, k INT, v VARCHAR(64), "
            + "amount DECIMAL(12,2), note VARCHAR(20) NULL)";
    private static final String ROWS = "INSERT INTO t SELECT seq, seq % 7, CONCAT('v-', seq), seq * 1.25, "
            + "IF(seq % 3 = 0, NULL, 'n') FROM seq_1_to_2500";

    private MariaDbServer sourceServer;
    private MariaDbServer targetServer;
    private String sourceDb;
    private String targetDb;
    private Connection source;
    private Connection target;

    @BeforeEach
    void createTables() throws SQLException {
        sourceServer = SHARDS.server(0);
        targetServer = SHARDS.server(1);
        sourceDb = sourceServer.freshDatabase("source");
        targetDb = targetServer.freshDatabase("target");
        sourceServer.execute(sourceDb, TABLE_DDL, ROWS);
        source = sourceServer.connect(sourceDb);
        target = targetServer.connect(targetDb);
    }

    @AfterEach
    void closeConnections() throws SQLException {
        source.close();
        target.close();
    }

    private ComparisonResult compare(ColumnMapping mapping) {
        return TableComparator.builder().source(source, sourceDb, "t").target(target, targetDb, "t")
                .mapping(mapping).chunkSize(1000).build().compare();
    }

    private void copyToTarget() {
        targetServer.execute(targetDb, TABLE_DDL, ROWS);
    }

    @Test
    void equalTablesOnTwoServers() {
        copyToTarget();

        ComparisonResult result = compare(ColumnMapping.byName());

        assertThat(result.isEqual()).as(result.toString()).isTrue();
        assertThat(result.rowsCompared()).isEqualTo(2500);
        assertThat(result.chunks()).isEqualTo(3);
        assertThat(result.differences()).isEmpty();
        assertThat(result.toString()).startsWith("EQUAL: ");
    }

    @Test
    void changedRowIsReportedWithColumnAndValues() {
        copyToTarget();
        targetServer.execute(targetDb, "UPDATE t SET v = 'changed', note = NULL WHERE id = 1501");

        ComparisonResult result = compare(ColumnMapping.byName());

        assertThat(result.isEqual()).isFalse();
        assertThat(result.mismatchedChunks()).isEqualTo(1);
        assertThat(result.differences()).singleElement().satisfies(d -> {
            assertThat(d.kind()).isEqualTo(RowDifference.Kind.DIFFERENT);
            assertThat(d.key()).containsEntry("id", "1501");
            assertThat(d.columns()).containsExactly(
                    new RowDifference.ColumnDifference("v", "v-1501", "changed"),
                    new RowDifference.ColumnDifference("note", "n", null));
        });
        assertThat(result.toString()).contains("different (id='1501'): v: 'v-1501' -> 'changed'; note: 'n' -> NULL");
    }

    @Test
    void missingRowIsReported() {
        copyToTarget();
        targetServer.execute(targetDb, "DELETE FROM t WHERE id = 1");

        ComparisonResult result = compare(ColumnMapping.byName());

        assertThat(result.differences()).containsExactly(RowDifference.missing(java.util.Map.of("id", "1")));
    }

    @Test
    void extraRowsAreReportedInsideAndBeyondTheSourceRange() {
        copyToTarget();
        sourceServer.execute(sourceDb, "DELETE FROM t WHERE id = 10");
        targetServer.execute(targetDb, "INSERT INTO t VALUES (9999, 1, 'beyond', 1.00, NULL)");

        ComparisonResult result = compare(ColumnMapping.byName());

        assertThat(result.differenceCount()).isEqualTo(2);
        assertThat(result.differences()).extracting(RowDifference::kind).containsOnly(RowDifference.Kind.EXTRA_IN_TARGET);
        assertThat(result.differences()).extracting(d -> d.key().get("id")).containsExactly("10", "9999");
    }

    @Test
    void mappingWithRenamedDroppedAndAddedColumns() {
        targetServer.execute(targetDb,
                "CREATE TABLE t (id BIGINT PRIMARY KEY, k INT, val VARCHAR(64), note VARCHAR(20) NULL, "
                        + "status VARCHAR(8) NOT NULL DEFAULT 'new', created_by VARCHAR(20) NULL)",
                "INSERT INTO t (id, k, val, note, created_by) SELECT seq, seq % 7, CONCAT('v-', seq), "
                        + "IF(seq % 3 = 0, NULL, 'n'), CONCAT('u', seq) FROM seq_1_to_2500");
        ColumnMapping mapping = ColumnMapping.byName()
                .renamed("v", "val")
                .computed("status", "'new'")
                .excluded("created_by");

        ComparisonResult equal = compare(mapping);
        targetServer.execute(targetDb, "UPDATE t SET val = 'x', status = 'old' WHERE id = 7");
        ComparisonResult changed = compare(mapping);

        assertThat(equal.isEqual()).as(equal.toString()).isTrue();
        assertThat(changed.differences()).singleElement().satisfies(d -> assertThat(d.columns())
                .extracting(RowDifference.ColumnDifference::column).containsExactly("val", "status"));
    }

    @Test
    void unmappedAddedColumnIsAnErrorThatSaysHowToMapIt() {
        targetServer.execute(targetDb, TABLE_DDL, "ALTER TABLE t ADD COLUMN extra INT");

        assertThatThrownBy(() -> compare(ColumnMapping.byName()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("extra").hasMessageContaining("excluded(target)");
    }

    @Test
    void compositeKeysAndEmptyTables() {
        String ddl = "CREATE TABLE c (a INT, b VARCHAR(10), x INT, PRIMARY KEY (a, b))";
        sourceServer.execute(sourceDb, ddl, "INSERT INTO c SELECT seq % 5, CONCAT('b', seq), seq FROM seq_1_to_50");
        targetServer.execute(targetDb, ddl, "INSERT INTO c SELECT seq % 5, CONCAT('b', seq), seq FROM seq_1_to_50",
                "UPDATE c SET x = -1 WHERE a = 2 AND b = 'b7'",
                "CREATE TABLE e (id INT PRIMARY KEY)");
        sourceServer.execute(sourceDb, "CREATE TABLE e (id INT PRIMARY KEY)");

        ComparisonResult composite = TableComparator.builder().source(source, sourceDb, "c")
                .target(target, targetDb, "c").chunkSize(7).build().compare();
        ComparisonResult empty = TableComparator.builder().source(source, sourceDb, "e")
                .target(target, targetDb, "e").build().compare();

        assertThat(composite.chunks()).isEqualTo(8);
        assertThat(composite.differences()).singleElement().hasToString("different (a='2', b='b7'): x: '7' -> '-1'");
        assertThat(empty.isEqual()).isTrue();
        assertThat(empty.rowsCompared()).isZero();
    }
}
