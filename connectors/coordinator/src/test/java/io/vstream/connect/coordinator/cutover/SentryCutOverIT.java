package io.vstream.connect.coordinator.cutover;

import static io.vstream.connect.coordinator.cutover.CutOverFixture.FIRST_LOAD_ID;
import static io.vstream.connect.coordinator.cutover.CutOverFixture.connections;
import static io.vstream.connect.coordinator.cutover.CutOverFixture.exists;
import static io.vstream.connect.coordinator.cutover.CutOverFixture.hasExtraColumn;
import static io.vstream.connect.coordinator.cutover.CutOverFixture.sentries;
import static io.vstream.connect.coordinator.cutover.CutOverFixture.settings;
import static io.vstream.connect.coordinator.cutover.CutOverFixture.tables;
import static io.vstream.connect.coordinator.cutover.CutOverFixture.writeWithin1s;
import static org.assertj.core.api.Assertions.assertThat;

import io.vstream.connect.coordinator.cutover.CutOverResult.Outcome;
import io.vstream.connect.testsupport.db.MariaDbServer;
import io.vstream.connect.testsupport.db.MariaDbShards;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The sentry cut-over on one real MariaDB shard: the swap under load, every abort path, a replica's view. */
class SentryCutOverIT {

    @RegisterExtension
    static final MariaDbShards SHARDS = MariaDbShards.builder().count(1).build();

    private final MariaDbServer primary = SHARDS.server(0);

    @Test
    void swapsUnderContinuousWritesAndReadsWithoutAMissingTable() throws Exception {
        String db = SHARDS.freshDatabase();
        CutOverFixture.createTables(primary, db);
        AtomicReference<String> position = new AtomicReference<>();
        CutOverResult result;
        CutOverFixture.Load load;
        try (CutOverFixture.MirrorApplier applier = new CutOverFixture.MirrorApplier(primary, db)) {
            ApplierBarrier barrier = applier.barrier();
            SentryCutOver cutOver = new SentryCutOver("0", connections(primary), tables(db), settings(),
                    (p, timeout) -> {
                        position.set(p);
                        barrier.awaitApplied(p, timeout);
                    });
            load = new CutOverFixture.Load(primary, db, 2, 2, FIRST_LOAD_ID, applier::acked);
            try {
                load.awaitProgress();
                result = cutOver.attempt(1);
                load.awaitProgress();
            } finally {
                load.close();
            }
        }
        System.out.println("swap under load: " + result.summary() + "; steps " + result.stepDurations() + "; "
                + load.stats());

        assertThat(result.outcome()).as(result.summary()).isEqualTo(Outcome.SWAPPED);
        assertThat(result.stepDurations()).containsOnlyKeys(CutOverStep.values());
        assertThat(result.position()).startsWith("MariaDB/0-").isEqualTo(position.get());
        assertThat(result.oldTable()).isEqualTo("t_old");
        assertThat(load.errors).as(load.stats()).isEmpty();
        assertThat(load.writes.get()).isPositive();
        assertThat(load.reads.get()).isPositive();
        assertThat(result.writeBlock()).isPositive().isLessThan(settings().lockWaitTimeout());
        assertThat(Duration.ofNanos(load.maxWriteNanos.get())).isLessThan(settings().lockWaitTimeout());
        // the new table holds every row written before, during and after the cut-over
        assertThat(hasExtraColumn(primary, db, "t")).isTrue();
        assertThat(idsAtOrAbove(primary, db, "t", FIRST_LOAD_ID)).isEqualTo(load.acked);
        assertThat(primary.queryLong(db, "SELECT COUNT(*) FROM t WHERE id <= ?", CutOverFixture.ROWS))
                .isEqualTo(CutOverFixture.ROWS);
        // the original is kept for a revert; the ghost name and the sentry are gone
        assertThat(hasExtraColumn(primary, db, "t_old")).isFalse();
        assertThat(exists(primary, db, "_t_gho")).isFalse();
        assertThat(sentries(primary, db)).isZero();
    }

    /**
     * The ghost's name sorts before the table's, so the RENAME must take the ghost's metadata lock before it can queue
     * on the table. Here another session takes the ghost's lock after the attempt found the ghost idle and just before
     * the RENAME asks for it (as InnoDB's purge and statistics threads do for moments; an OnlineDdlIT run lost four
     * acknowledged writes so): the RENAME first waits for the ghost, and an unlock then would let the blocked writes
     * into the original table. The attempt must keep the lock until the RENAME holds the ghost and waits on the table.
     */
    @Test
    void aRenameWaitingForTheGhostIsNotUnlockedBeforeItHoldsIt() throws Exception {
        String db = SHARDS.freshDatabase();
        CutOverFixture.createTables(primary, db);
        AtomicBoolean applierReached = new AtomicBoolean();
        AtomicBoolean ghostTaken = new AtomicBoolean();
        AtomicReference<Thread> release = new AtomicReference<>();
        CutOverResult result;
        CutOverFixture.Load load;
        try (Connection holder = primary.connect(db);
             CutOverFixture.MirrorApplier applier = new CutOverFixture.MirrorApplier(primary, db)) {
            holder.setAutoCommit(false);
            ConnectionFactory connections = () -> {
                // the first session opened after the applier's barrier is the RENAME's (the idle probe is done)
                if (applierReached.get() && ghostTaken.compareAndSet(false, true)) {
                    try (Statement st = holder.createStatement();
                         ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM _t_gho")) {
                        rs.next(); // the ghost's metadata lock is held until the commit below
                    }
                    Thread t = new Thread(() -> {
                        try {
                            Thread.sleep(700);
                            holder.commit();
                        } catch (Exception e) {
                            throw new IllegalStateException(e);
                        }
                    }, "ghost-holder");
                    t.start();
                    release.set(t);
                }
                return primary.connect(null);
            };
            // step 5 may wait far longer than the ghost is held: a loaded machine must not turn the hold into an abort
            CutOverSettings patient = settings().withRenameLockWaitTimeout(Duration.ofSeconds(30))
                    .withMetadataLockTimeout(Duration.ofSeconds(20));
            SentryCutOver cutOver = new SentryCutOver("0", connections, tables(db), patient, applier.barrier())
                    .withListener(e -> {
                        if (e.step() == CutOverStep.AWAIT_APPLIER) {
                            applierReached.set(true);
                        }
                    });
            load = new CutOverFixture.Load(primary, db, 2, 1, FIRST_LOAD_ID, applier::acked);
            try {
                load.awaitProgress();
                result = cutOver.attempt(1);
                load.awaitProgress();
            } finally {
                load.close();
                if (release.get() != null) {
                    release.get().join();
                }
            }
        }
        System.out.println("RENAME behind a session on the ghost: " + result.summary() + "; steps "
                + result.stepDurations() + "; " + load.stats());

        assertThat(ghostTaken).as("the ghost's lock was taken before the RENAME").isTrue();
        assertThat(result.outcome()).as(result.summary()).isEqualTo(Outcome.SWAPPED);
        assertThat(load.errors).as(load.stats()).isEmpty();
        assertThat(load.writes.get()).isPositive();
        // no acknowledged write went into the original table between the unlock and the RENAME
        assertThat(hasExtraColumn(primary, db, "t")).isTrue();
        assertThat(idsAtOrAbove(primary, db, "t", FIRST_LOAD_ID)).isEqualTo(load.acked);
        assertThat(sentries(primary, db)).isZero();
    }

    @Test
    void applierBarrierFailureLeavesTheOriginalAndReleasesTheLock() throws Exception {
        String db = SHARDS.freshDatabase();
        CutOverFixture.createTables(primary, db);
        SentryCutOver cutOver = new SentryCutOver("0", connections(primary), tables(db), settings(),
                (p, timeout) -> {
                    throw new TimeoutException("the applier is stuck at MariaDB/0-1-1");
                });

        CutOverResult result = cutOver.attempt(1);

        assertThat(result.outcome()).isEqualTo(Outcome.ABORTED);
        assertThat(result.reason()).contains("applier is stuck");
        assertThat(result.stepDurations()).containsOnlyKeys(CutOverStep.CREATE_SENTRY, CutOverStep.LOCK);
        assertOriginalInPlace(db);
        writeWithin1s(primary, db, 42_000);
        assertThat(primary.queryLong(db, "SELECT COUNT(*) FROM t WHERE id = 42000")).isEqualTo(1);
    }

    @Test
    void applierBarrierTimeoutIsBounded() throws Exception {
        String db = SHARDS.freshDatabase();
        CutOverFixture.createTables(primary, db);
        CutOverSettings s = settings().withApplierTimeout(Duration.ofMillis(300));
        SentryCutOver cutOver = new SentryCutOver("0", connections(primary), tables(db), s,
                (p, timeout) -> Thread.sleep(60_000));

        long begin = System.nanoTime();
        CutOverResult result = cutOver.attempt(1);

        assertThat(Duration.ofNanos(System.nanoTime() - begin)).isLessThan(Duration.ofSeconds(5));
        assertThat(result.outcome()).isEqualTo(Outcome.ABORTED);
        assertThat(result.reason()).contains("did not report reaching");
        assertThat(result.writeBlock()).isLessThan(Duration.ofSeconds(3));
        assertOriginalInPlace(db);
        writeWithin1s(primary, db, 42_001);
    }

    @Test
    void killedLockHolderMakesTheRenameFailOnTheSentry() throws Exception {
        String db = SHARDS.freshDatabase();
        CutOverFixture.createTables(primary, db);
        AtomicReference<Long> killed = new AtomicReference<>();
        SentryCutOver cutOver = new SentryCutOver("0", connections(primary), tables(db), settings(),
                ApplierBarrier.none()).withListener(event -> {
                    if (event.step() == CutOverStep.VERIFY_RENAME_WAITING) {
                        // the RENAME is queued behind A: kill A from another connection
                        primary.execute(null, "KILL " + event.lockConnectionId());
                        killed.set(event.lockConnectionId());
                    }
                });

        CutOverResult result = cutOver.attempt(1);
        System.out.println("lock holder killed: " + result.summary());

        assertThat(killed.get()).isNotNull();
        assertThat(result.outcome()).as(result.summary()).isEqualTo(Outcome.ABORTED);
        assertThat(result.reason()).contains("step 6 failed").contains("1050");
        assertOriginalInPlace(db);
        writeWithin1s(primary, db, 42_002);
    }

    @Test
    void killedRenameSessionAbortsWithTheOriginalInPlace() throws Exception {
        String db = SHARDS.freshDatabase();
        CutOverFixture.createTables(primary, db);
        SentryCutOver cutOver = new SentryCutOver("0", connections(primary), tables(db), settings(),
                ApplierBarrier.none()).withListener(event -> {
                    if (event.step() == CutOverStep.ISSUE_RENAME) {
                        primary.execute(null, "KILL " + event.renameConnectionId());
                    }
                });

        CutOverResult result = cutOver.attempt(1);

        assertThat(result.outcome()).as(result.summary()).isEqualTo(Outcome.ABORTED);
        assertOriginalInPlace(db);
        writeWithin1s(primary, db, 42_003);
    }

    @Test
    void openTransactionOnTheGhostAbortsBeforeTheRename() throws Exception {
        String db = SHARDS.freshDatabase();
        CutOverFixture.createTables(primary, db);
        try (Connection other = primary.connect(db); Statement st = other.createStatement()) {
            other.setAutoCommit(false);
            try (ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM _t_gho")) { // holds a metadata lock
                rs.next();
            }
            CutOverResult result = new SentryCutOver("0", connections(primary), tables(db), settings(),
                    ApplierBarrier.none()).attempt(1);

            assertThat(result.outcome()).isEqualTo(Outcome.ABORTED);
            assertThat(result.reason()).contains("ghost table").contains("in use by another session");
            assertThat(result.stepDurations()).doesNotContainKey(CutOverStep.ISSUE_RENAME);
            other.rollback();
        }
        assertOriginalInPlace(db);
        writeWithin1s(primary, db, 42_004);
    }

    @Test
    void replicaNeverMissesTheTableAndGetsOneRename() throws Exception {
        MariaDbServer replica = SHARDS.startReplica(0);
        String db = SHARDS.freshDatabase();
        CutOverFixture.createTables(primary, db);
        replica.awaitCaughtUpWith(primary, Duration.ofSeconds(30));
        CutOverFixture.MirrorApplier applier = new CutOverFixture.MirrorApplier(primary, db);
        SentryCutOver cutOver = new SentryCutOver("0", connections(primary), tables(db), settings(),
                applier.barrier());

        CutOverResult result;
        CutOverFixture.Load onReplica = new CutOverFixture.Load(replica, db, 0, 3, 0);
        try (applier; CutOverFixture.Load onPrimary = new CutOverFixture.Load(primary, db, 1, 0, FIRST_LOAD_ID,
                applier::acked)) {
            onPrimary.awaitProgress();
            onReplica.awaitProgress();
            result = cutOver.attempt(1);
            onPrimary.awaitProgress();
            onPrimary.close();
            replica.awaitCaughtUpWith(primary, Duration.ofSeconds(30));
            onReplica.awaitProgress();
        } finally {
            onReplica.close();
        }
        System.out.println("replica: " + result.summary() + "; replica load " + onReplica.stats());

        assertThat(result.swapped()).as(result.summary()).isTrue();
        assertThat(onReplica.errorCount(1146)).as(onReplica.stats()).isZero();
        assertThat(onReplica.errors).as(onReplica.stats()).isEmpty();
        assertThat(onReplica.reads.get()).isPositive();
        assertThat(hasExtraColumn(replica, db, "t")).isTrue();
        assertThat(exists(replica, db, "t_old")).isTrue();
        assertThat(exists(replica, db, "_t_gho")).isFalse();
        assertThat(replica.queryLong(db, "SELECT COUNT(*) FROM t")).isEqualTo(primary.queryLong(db,
                "SELECT COUNT(*) FROM t"));
        assertThat(renamesInBinlog(primary, db)).isEqualTo(1);
    }

    @Test
    void staleSentryOfOursIsDroppedAndAForeignOldTableIsNeverTouched() throws Exception {
        String db = SHARDS.freshDatabase();
        CutOverFixture.createTables(primary, db);
        // a stale sentry left by a dead attempt under a timestamped name, and a real table under the default name
        primary.execute(db, "CREATE TABLE t_old_stale (id INT PRIMARY KEY) COMMENT = '"
                + CutOverTables.sentryComment("t") + "'",
                "CREATE TABLE t_old (id INT PRIMARY KEY, kept VARCHAR(10))",
                "INSERT INTO t_old VALUES (1, 'keep me')");

        CutOverResult result = new SentryCutOver("0", connections(primary), tables(db), settings(),
                ApplierBarrier.none()).attempt(1);

        assertThat(result.swapped()).as(result.summary()).isTrue();
        assertThat(result.oldTable()).startsWith("t_old_20").isNotEqualTo("t_old");
        assertThat(exists(primary, db, "t_old_stale")).isFalse();
        assertThat(primary.queryString(db, "SELECT kept FROM t_old WHERE id = 1")).isEqualTo("keep me");
        assertThat(hasExtraColumn(primary, db, "t")).isTrue();
        assertThat(exists(primary, db, result.oldTable())).isTrue();
    }

    @Test
    void explicitOldNameThatIsTakenFailsWithoutRetry() throws Exception {
        String db = SHARDS.freshDatabase();
        CutOverFixture.createTables(primary, db);
        primary.execute(db, "CREATE TABLE t_archive (id INT PRIMARY KEY)");

        CutOverResult result = new SentryCutOver("0", connections(primary),
                tables(db).withOldTable("t_archive"), CutOverSettings.DEFAULTS, ApplierBarrier.none()).run();

        assertThat(result.outcome()).isEqualTo(Outcome.FAILED);
        assertThat(result.attempt()).isEqualTo(1);
        assertThat(result.reason()).contains("t_archive").contains("is taken");
        assertOriginalInPlace(db);
        assertThat(exists(primary, db, "t_archive")).isTrue();
    }

    @Test
    void retriesWithBackoffUntilTheApplierCatchesUp() throws Exception {
        String db = SHARDS.freshDatabase();
        CutOverFixture.createTables(primary, db);
        int[] calls = {0};
        CutOverSettings s = settings().withRetries(3, Duration.ofMillis(50), Duration.ofMillis(200));
        CutOverResult result = new SentryCutOver("0", connections(primary), tables(db), s, (p, timeout) -> {
            if (++calls[0] < 3) {
                throw new TimeoutException("behind");
            }
        }).run();

        assertThat(result.swapped()).as(result.summary()).isTrue();
        assertThat(result.attempt()).isEqualTo(3);
        assertThat(hasExtraColumn(primary, db, "t")).isTrue();
    }

    private void assertOriginalInPlace(String db) {
        assertThat(hasExtraColumn(primary, db, "t")).as("t is still the original").isFalse();
        assertThat(exists(primary, db, "_t_gho")).as("the ghost table is still there").isTrue();
        assertThat(exists(primary, db, "t_old")).as("no old table").isFalse();
        assertThat(sentries(primary, db)).as("no sentry left").isZero();
    }

    private static Set<Long> idsAtOrAbove(MariaDbServer server, String db, String table, long from) throws Exception {
        Set<Long> ids = new HashSet<>();
        try (Connection c = server.connect(db); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT id FROM " + table + " WHERE id >= " + from)) {
            while (rs.next()) {
                ids.add(rs.getLong(1));
            }
        }
        return ids;
    }

    private static long renamesInBinlog(MariaDbServer server, String db) throws Exception {
        long n = 0;
        try (Connection c = server.connect(null); Statement st = c.createStatement()) {
            try (ResultSet logs = st.executeQuery("SHOW BINARY LOGS")) {
                java.util.List<String> files = new java.util.ArrayList<>();
                while (logs.next()) {
                    files.add(logs.getString(1));
                }
                for (String file : files) {
                    try (Statement st2 = c.createStatement();
                         ResultSet rs = st2.executeQuery("SHOW BINLOG EVENTS IN '" + file + "'")) {
                        while (rs.next()) {
                            String info = rs.getString("Info");
                            if (info != null && info.contains("RENAME TABLE `" + db + "`.`t`")) {
                                n++;
                            }
                        }
                    }
                }
            }
        }
        return n;
    }
}
