package io.vstream.connect.coordinator.cutover;

import static io.vstream.connect.coordinator.cutover.CutOverFixture.FIRST_LOAD_ID;
import static io.vstream.connect.coordinator.cutover.CutOverFixture.connections;
import static io.vstream.connect.coordinator.cutover.CutOverFixture.hasExtraColumn;
import static io.vstream.connect.coordinator.cutover.CutOverFixture.sentries;
import static io.vstream.connect.coordinator.cutover.CutOverFixture.settings;
import static io.vstream.connect.coordinator.cutover.CutOverFixture.tables;
import static org.assertj.core.api.Assertions.assertThat;

import io.vstream.connect.testsupport.db.MariaDbServer;
import io.vstream.connect.testsupport.db.MariaDbShards;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What the RENAME waits for, read from performance_schema on a real MariaDB: it takes its exclusive metadata locks
 * in name order, so with the default old name ({@code t_old}, after {@code t}) it queues on {@code t} itself, while
 * with gh-ost-style {@code _t_old} it holds the ghost's lock and waits on the sentry. The cut-over then checks the
 * queue after dropping the sentry and still swaps without losing a write.
 */
class MetadataLockOrderIT {

    @RegisterExtension
    static final MariaDbShards SHARDS = MariaDbShards.builder().count(1)
            .extraConfig("performance_schema=ON", "performance_schema_instrument='wait/lock/metadata/sql/mdl=ON'")
            .build();

    private final MariaDbServer primary = SHARDS.server(0);

    @Test
    void withTheDefaultOldNameTheRenameQueuesOnTheTableItself() throws Exception {
        String db = SHARDS.freshDatabase();
        CutOverFixture.createTables(primary, db);
        AtomicReference<List<String>> locks = new AtomicReference<>();
        AtomicReference<List<Long>> renames = new AtomicReference<>();
        long[] renameId = {0};
        CutOverResult result = new SentryCutOver("0", connections(primary), tables(db), settings(),
                ApplierBarrier.none()).withListener(e -> {
                    if (e.step() == CutOverStep.VERIFY_RENAME_WAITING) {
                        locks.set(locksOf(primary, e.renameConnectionId(), db));
                        renameId[0] = e.renameConnectionId();
                        try (Connection c = primary.connect(null)) {
                            renames.set(ServerTables.runningRenames(c, db, "t"));
                        } catch (SQLException ex) {
                            throw new IllegalStateException(ex);
                        }
                    }
                }).attempt(1);
        System.out.println("default old name: RENAME's metadata locks while waiting: " + locks.get());

        assertThat(result.swapped()).as(result.summary()).isTrue();
        assertThat(locks.get()).contains("_t_gho EXCLUSIVE GRANTED", "t EXCLUSIVE PENDING")
                .noneMatch(l -> l.startsWith("t_old "));
        // a later attempt would see this RENAME in the processlist and wait for it to end
        assertThat(renames.get()).containsExactly(renameId[0]);
    }

    @Test
    void withAnOldNameSortingFirstTheRenameWaitsOnTheSentryAndTheCheckStillSwapsSafely() throws Exception {
        String db = SHARDS.freshDatabase();
        CutOverFixture.createTables(primary, db);
        AtomicReference<List<String>> locks = new AtomicReference<>();
        CutOverResult result;
        CutOverFixture.Load load;
        try (CutOverFixture.MirrorApplier applier = new CutOverFixture.MirrorApplier(primary, db)) {
            SentryCutOver cutOver = new SentryCutOver("0", connections(primary), tables(db).withOldTable("_t_old"),
                    settings(), applier.barrier()).withListener(e -> {
                        if (e.step() == CutOverStep.VERIFY_RENAME_WAITING) {
                            locks.set(locksOf(primary, e.renameConnectionId(), db));
                        }
                    });
            load = new CutOverFixture.Load(primary, db, 2, 1, FIRST_LOAD_ID, applier::acked);
            try {
                load.awaitProgress();
                result = cutOver.attempt(1);
                load.awaitProgress();
            } finally {
                load.close();
            }
        }
        System.out.println("_t_old: RENAME's metadata locks while waiting: " + locks.get() + "; " + result.summary()
                + "; " + load.stats());

        assertThat(locks.get()).contains("_t_gho EXCLUSIVE GRANTED", "_t_old EXCLUSIVE PENDING")
                .noneMatch(l -> l.startsWith("t "));
        assertThat(result.swapped()).as(result.summary()).isTrue();
        assertThat(load.errors).as(load.stats()).isEmpty();
        assertThat(hasExtraColumn(primary, db, "t")).isTrue();
        assertThat(primary.queryLong(db, "SELECT COUNT(*) FROM t WHERE id >= ?", FIRST_LOAD_ID))
                .isEqualTo(load.acked.size());
        assertThat(sentries(primary, db)).isZero();
    }

    private static List<String> locksOf(MariaDbServer server, long connectionId, String db) {
        List<String> locks = new ArrayList<>();
        try (Connection c = server.connect(null); PreparedStatement ps = c.prepareStatement(
                "SELECT ml.OBJECT_NAME, ml.LOCK_TYPE, ml.LOCK_STATUS FROM performance_schema.metadata_locks ml"
                        + " JOIN performance_schema.threads th ON th.THREAD_ID = ml.OWNER_THREAD_ID"
                        + " WHERE th.PROCESSLIST_ID = ? AND ml.OBJECT_SCHEMA = ? AND ml.OBJECT_TYPE = 'TABLE'")) {
            ps.setLong(1, connectionId);
            ps.setString(2, db);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    locks.add(rs.getString(1) + " " + rs.getString(2) + " " + rs.getString(3));
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        return locks;
    }
}
