package io.vstream.connect.coordinator;

import static io.vstream.connect.coordinator.FakeOnlineDdlServers.GHOST;
import static io.vstream.connect.coordinator.FakeOnlineDdlServers.OLD;
import static io.vstream.connect.coordinator.FakeOnlineDdlServers.TABLE;
import static io.vstream.connect.coordinator.FakeOnlineDdlServers.applied;
import static io.vstream.connect.coordinator.WorkflowFixtures.MIGRATION;
import static io.vstream.connect.coordinator.WorkflowFixtures.WORKFLOW;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vstream.connect.coordinator.copy.GhostCopyState;
import io.vstream.connect.coordinator.ddl.AlterRefusedException;
import io.vstream.connect.jdbc.MigrationPlans;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every transition of the online-DDL state machine, on fake shards ({@link FakeOnlineDdlServers}): the start, the
 * copy and catch-up rounds, the cut-over with its retries, the revert window and the cancel. No server, no Kafka.
 */
class OnlineDdlWorkflowTest {
    private static final String A = "-80";
    private static final String B = "80-";
    private static final GhostCopyState.Summary COPYING = new GhostCopyState.Summary(true, 10, false, false);
    private static final GhostCopyState.Summary COPIED = new GhostCopyState.Summary(true, 500, true, true);

    private final FakeOnlineDdlServers servers = new FakeOnlineDdlServers(A, B);

    private OnlineDdlWorkflow workflow(String... config) {
        return new OnlineDdlWorkflow(WorkflowFixtures.onlineDdl(config), WORKFLOW, servers);
    }

    private static WorkflowStatus at(WorkflowState state) {
        return new WorkflowStatus(state, null, 0, null);
    }

    private static WorkflowStatus cuttingOver(int attempts) {
        return new WorkflowStatus(WorkflowState.CUTTING_OVER, HandoffStep.PAUSE, attempts, null);
    }

    /** Both shards started: ghosts and plans in place, as the start leaves them. */
    private void started() throws Exception {
        WorkflowStatus s = workflow("ddl.prefer.instant", "false").step(WorkflowStatus.START);
        assertThat(s.state()).isEqualTo(WorkflowState.COPYING);
    }

    /** Both appliers streaming at a position, {@code lagMs} behind, with the server copy {@code copy}. */
    private void streaming(long lagMs, GhostCopyState.Summary copy) {
        for (FakeOnlineDdlServers.Shard s : servers.shards.values()) {
            s.applied = List.of(applied("MariaDB/0-1-100", null, lagMs, 0L));
            s.copy = copy;
        }
    }

    // ---- CREATED

    @Test
    void aPreflightProblemOnAnyShardFailsBeforeAnythingIsCreated() throws Exception {
        servers.shard(B).problems = List.of("shard 80-: the account lacks ALTER on shop");
        WorkflowStatus s = workflow().step(WorkflowStatus.START);
        assertThat(s.state()).isEqualTo(WorkflowState.FAILED);
        assertThat(s.reason()).contains("preflight refused", "lacks ALTER");
        assertThat(servers.shard(A).tables).containsOnly(TABLE);
        assertThat(servers.shard(A).probes).isZero();
    }

    @Test
    void anAlterTheServerCannotRunInstantlyCreatesTheGhostsAndPlansOnEveryShard() throws Exception {
        servers.shard(A).instantRefusal = null; // the first shard could, the second cannot
        WorkflowStatus s = workflow().step(WorkflowStatus.START);
        assertThat(servers.shard(B).probes).isEqualTo(1);
        assertThat(servers.shard(A).instantAlters).isZero();
        assertThat(s).isEqualTo(WorkflowStatus.START.to(WorkflowState.COPYING));
        for (FakeOnlineDdlServers.Shard shard : servers.shards.values()) {
            assertThat(shard.tables).contains(GHOST);
            assertThat(shard.plans.get(MIGRATION).ghostTable()).isEqualTo(GHOST);
            assertThat(shard.deferred).containsExactly("note_idx"); // server copy: keys built after it
            assertThat(shard.directionPlans).isFalse(); // no revert window
        }
    }

    @Test
    void aRevertWindowSkipsTheInstantPathAndStoresTheDirectionPlans() throws Exception {
        instantOnEveryShard();
        WorkflowStatus s = workflow("ddl.revert.window.ms", "60000", "ddl.copy.method", "stream")
                .step(WorkflowStatus.START);
        assertThat(s.state()).isEqualTo(WorkflowState.COPYING);
        assertThat(servers.shard(A).probes).isZero();
        assertThat(servers.shard(B).directionPlans).isTrue();
        assertThat(servers.shard(B).deferred).isEmpty(); // the stream copy keeps every key
    }

    // ---- CREATED: the instant path (ddl.prefer.instant)

    private void instantOnEveryShard() {
        for (FakeOnlineDdlServers.Shard shard : servers.shards.values()) {
            shard.instantRefusal = null;
        }
    }

    private static SQLException busy() {
        return new SQLException("Lock wait timeout exceeded; try restarting transaction", "HY000", 1205);
    }

    @Test
    void anInstantAlterRunsOnEveryShardAndCompletesWithoutAGhost() throws Exception {
        instantOnEveryShard();
        WorkflowStatus s = workflow().step(WorkflowStatus.START);
        assertThat(s.state()).isEqualTo(WorkflowState.COMPLETE);
        assertThat(s.reason()).startsWith("applied instantly (ALGORITHM=INSTANT) on every shard");
        for (FakeOnlineDdlServers.Shard shard : servers.shards.values()) {
            assertThat(shard.instantAlters).isEqualTo(1);
            assertThat(shard.appliedInstantly).isTrue();
            assertThat(shard.tables).containsOnly(TABLE);
            assertThat(shard.plans).isEmpty();
        }
    }

    @Test
    void anAlterThatNamesItsAlgorithmIsCopiedWithoutAskingTheServer() throws Exception {
        instantOnEveryShard();
        WorkflowStatus s = workflow("ddl.alter", "ADD COLUMN note TEXT, ALGORITHM=COPY").step(WorkflowStatus.START);
        assertThat(s.state()).isEqualTo(WorkflowState.COPYING);
        assertThat(servers.shard(A).probes).isZero();
        assertThat(servers.shard(A).instantAlters).isZero();
    }

    @Test
    void anAlterThatCannotBeParsedIsRefusedBeforeAnythingRuns() throws Exception {
        WorkflowStatus s = workflow("ddl.alter", "ADD COLUMN a INT; DROP TABLE orders").step(WorkflowStatus.START);
        assertThat(s.state()).isEqualTo(WorkflowState.FAILED);
        assertThat(s.reason()).startsWith("the ALTER is refused: The ALTER holds more than one statement");
        assertThat(servers.shard(A).probes).isZero();
    }

    @Test
    void aLongTransactionMakesTheInstantAlterWaitInCreated() throws Exception {
        instantOnEveryShard();
        servers.shard(A).longTransaction = "connection 7 has had a transaction open for 40 s";
        WorkflowStatus s = workflow().step(WorkflowStatus.START);
        assertThat(s).isEqualTo(new WorkflowStatus(WorkflowState.CREATED, null, 0, "instant ALTER waits: on shard -80"
                + " connection 7 has had a transaction open for 40 s (it may hold the table); it runs once that"
                + " transaction has ended"));
        assertThat(servers.shard(A).instantAlters).isZero();
        servers.shard(A).longTransaction = null;
        assertThat(workflow().step(s).state()).isEqualTo(WorkflowState.COMPLETE);
    }

    @Test
    void aBusyTableIsTriedAgainUpToTheLimitThenFailsTheWorkflow() throws Exception {
        instantOnEveryShard();
        servers.shard(B).instantFails.addAll(List.of(busy(), busy(), busy()));
        WorkflowStatus s = workflow().step(WorkflowStatus.START);
        assertThat(s).isEqualTo(new WorkflowStatus(WorkflowState.CREATED, null, 1, "instant ALTER: the table on shard"
                + " 80- was busy (waited 3000 ms for its metadata lock, try 1 of 3); trying again"));
        assertThat(servers.shard(A).appliedInstantly).isTrue();
        s = workflow().step(s);
        assertThat(s.attempts()).isEqualTo(2);
        assertThat(servers.shard(A).instantAlters).as("a done shard is skipped").isEqualTo(1);
        s = workflow().step(s);
        assertThat(s.state()).isEqualTo(WorkflowState.FAILED);
        assertThat(s.reason()).startsWith("instant ALTER: the table on shard 80- stayed busy through 3 tries");
    }

    @Test
    void aRestartAfterSomeShardsRanTheAlterGoesOnWithTheOthersWithoutAskingAgain() throws Exception {
        servers.shard(A).appliedInstantly = true; // the shards decided before the restart
        servers.shard(B).instantRefusal = null;
        WorkflowStatus s = workflow().step(WorkflowStatus.START);
        assertThat(s.state()).isEqualTo(WorkflowState.COMPLETE);
        assertThat(servers.shard(A).probes).isZero();
        assertThat(servers.shard(B).probes).as("asked only for the definition it is to have").isEqualTo(1);
        assertThat(servers.shard(A).instantAlters).isZero();
        assertThat(servers.shard(B).instantAlters).isEqualTo(1);
    }

    private static SQLException lost() {
        return new java.sql.SQLNonTransientConnectionException("(conn=7) Connection reset", "08S01", 0);
    }

    @Test
    void anAlterAppliedByATryThatLostItsConnectionIsRecordedDoneNotRunTwice() throws Exception {
        instantOnEveryShard();
        servers.shard(B).instantFails.add(lost());
        servers.shard(B).appliedBeforeFailing = true; // the server ran it; the coordinator never heard back
        WorkflowStatus s = workflow().step(WorkflowStatus.START);
        assertThat(s.state()).isEqualTo(WorkflowState.CREATED);
        assertThat(s.attempts()).isEqualTo(1);
        assertThat(s.reason()).startsWith("instant ALTER: the connection to shard 80- failed while the ALTER ran")
                .endsWith("trying again, once it is known whether the ALTER was applied");
        assertThat(servers.shard(B).instantStarted).isEqualTo("after");
        s = workflow().step(s); // e.g. a restarted coordinator
        assertThat(s.state()).isEqualTo(WorkflowState.COMPLETE);
        assertThat(servers.shard(B).instantAlters).as("not run a second time").isEqualTo(1);
        assertThat(servers.shard(B).appliedInstantly).isTrue();
        assertThat(servers.shard(A).instantAlters).isEqualTo(1);
        assertThat(servers.shard(B).probes).as("the first round's answer is on record").isEqualTo(1);
    }

    @Test
    void anAlterNotAppliedByATryThatLostItsConnectionRunsAgain() throws Exception {
        instantOnEveryShard();
        servers.shard(A).instantFails.add(lost());
        WorkflowStatus s = workflow().step(WorkflowStatus.START);
        assertThat(s.state()).isEqualTo(WorkflowState.CREATED);
        assertThat(servers.shard(B).instantAlters).as("the next shard waits").isZero();
        s = workflow().step(s);
        assertThat(s.state()).isEqualTo(WorkflowState.COMPLETE);
        assertThat(servers.shard(A).instantAlters).isEqualTo(2);
        assertThat(servers.shard(A).definition).isEqualTo("after");
    }

    @Test
    void aConnectionThatKeepsFailingWhileTheAlterRunsFailsTheWorkflowAfterTheLimit() throws Exception {
        instantOnEveryShard();
        servers.shard(A).instantFails.addAll(List.of(lost(), lost(), lost()));
        WorkflowStatus s = WorkflowStatus.START;
        for (int i = 0; i < 3; i++) {
            s = workflow().step(s);
        }
        assertThat(s.state()).isEqualTo(WorkflowState.FAILED);
        assertThat(s.reason()).startsWith("instant ALTER: the connection to shard -80 failed while the ALTER ran, 3"
                + " tries in all").contains("not altered twice");
    }

    @Test
    void aFirstShardThatRefusesTheInstantAlterAfterAllIsCopied() throws Exception {
        instantOnEveryShard();
        servers.shard(A).instantFails.add(new SQLException("ALGORITHM=INSTANT is not supported for this operation."
                + " Try ALGORITHM=COPY", "0A000", 1846));
        WorkflowStatus s = workflow().step(WorkflowStatus.START);
        assertThat(s.state()).isEqualTo(WorkflowState.COPYING);
        assertThat(servers.shard(A).tables).contains(GHOST);
        assertThat(servers.shard(A).instantStarted).as("the copy path forgets the instant try").isNull();
    }

    @Test
    void aShardThatRefusesTheInstantAlterAfterAnotherRanItFailsTheWorkflowNamingTheMixedSchemas()
            throws Exception {
        instantOnEveryShard();
        servers.shard(B).instantFails.add(new SQLException("ALGORITHM=INSTANT is not supported for this operation",
                "0A000", 1846));
        WorkflowStatus s = workflow().step(WorkflowStatus.START);
        assertThat(s.state()).isEqualTo(WorkflowState.FAILED);
        assertThat(s.reason()).startsWith("instant ALTER failed on shard 80-: ALGORITHM=INSTANT is not supported")
                .contains("the shards that record it in _vstream.migrations have the new schema");
        assertThat(servers.shard(B).tables).containsOnly(TABLE);
    }

    @Test
    void anInstantAlterThatFailsOtherwiseFailsTheWorkflow() throws Exception {
        instantOnEveryShard();
        servers.shard(A).instantFails.add(new SQLException("Duplicate column name 'note'", "42S21", 1060));
        WorkflowStatus s = workflow().step(WorkflowStatus.START);
        assertThat(s.state()).isEqualTo(WorkflowState.FAILED);
        assertThat(s.reason()).startsWith("instant ALTER failed on shard -80: Duplicate column name 'note' (error"
                + " 1060)");
        assertThat(servers.shard(B).instantAlters).isZero();
    }

    @Test
    void aShardThatCannotBeAskedFailsTheRoundAndTheNextRoundAsksAgain() throws Exception {
        instantOnEveryShard();
        servers.shard(B).probeFails = new SQLException("Connection reset", "08S01", 0);
        assertThatThrownBy(() -> workflow().step(WorkflowStatus.START)).isSameAs(servers.shard(B).probeFails);
        assertThat(servers.shard(A).instantAlters).isZero();
        servers.shard(B).probeFails = null;
        assertThat(workflow().step(WorkflowStatus.START).state()).isEqualTo(WorkflowState.COMPLETE);
    }

    @Test
    void aShardThatRefusesTheGhostFailsTheStartAndDropsTheGhostsCreated() throws Exception {
        servers.shard(B).analyzeFails = new SQLException("Data too long for column 'note'", "22001", 1406);
        WorkflowStatus s = workflow("ddl.prefer.instant", "false").step(WorkflowStatus.START);
        assertThat(s.state()).isEqualTo(WorkflowState.FAILED);
        assertThat(s.reason()).contains("shard 80- refused the ghost table", "error 1406", "original table is"
                + " untouched");
        assertThat(servers.shard(A).dropped).containsExactly(GHOST);
        assertThat(servers.shard(A).plans).isEmpty();
    }

    @Test
    void aServerThatFailsRetriablyDuringTheStartIsRetriedWithTheRound() {
        servers.shard(B).analyzeFails = new SQLException("connection lost", "08S01", 2013);
        assertThatThrownBy(() -> workflow("ddl.prefer.instant", "false").step(WorkflowStatus.START))
                .isInstanceOf(SQLException.class);
        assertThat(servers.shard(A).dropped).isEmpty(); // the next round analyzes again
    }

    @Test
    void shardsThatMigrateDifferentlyFailTheStart() throws Exception {
        servers.shard(B).analyzed = FakeOnlineDdlServers.alterPlan("ADD COLUMN note VARCHAR(10)");
        WorkflowStatus s = workflow("ddl.prefer.instant", "false").step(WorkflowStatus.START);
        assertThat(s.state()).isEqualTo(WorkflowState.FAILED);
        assertThat(s.reason()).contains("migrates differently");
        assertThat(servers.shard(A).dropped).containsExactly(GHOST);
        assertThat(servers.shard(B).dropped).containsExactly(GHOST);
    }

    @Test
    void aRefusedAlterFailsTheStart() throws Exception {
        servers.shard(A).analyzeFails = new AlterRefusedException(AlterRefusedException.Reason.UNSUPPORTED_OPERATION, "it renames the table");
        WorkflowStatus s = workflow("ddl.prefer.instant", "false").step(WorkflowStatus.START);
        assertThat(s.state()).isEqualTo(WorkflowState.FAILED);
        assertThat(s.reason()).isEqualTo("the ALTER is refused: it renames the table");
    }

    // ---- COPYING, CATCHING_UP, READY, POSTPONED

    @Test
    void theFirstRoundLetsEveryApplierRunOnceAndWaitsForTheirPositions() throws Exception {
        started();
        OnlineDdlWorkflow w = workflow();
        assertThat(w.step(at(WorkflowState.COPYING))).isEqualTo(at(WorkflowState.COPYING));
        assertThat(servers.copies.awaiting).isTrue(); // rounds come early until the copy may start
        w.step(at(WorkflowState.COPYING));
        assertThat(servers.shard(A).told).containsExactly("RUN");
        assertThat(servers.shard(B).told).containsExactly("RUN");
        assertThat(w.shards()).extracting(ShardStatus::state).containsOnly(ShardStatus.WAITING);
    }

    @Test
    void theCopyRunsUntilEveryShardHasCopiedItsRowsThenTheWorkflowIsReadyAndCutsOver() throws Exception {
        started();
        OnlineDdlWorkflow w = workflow();
        streaming(0, COPYING);
        WorkflowStatus s = w.step(at(WorkflowState.COPYING));
        assertThat(s).isEqualTo(at(WorkflowState.COPYING));
        assertThat(servers.copies.followed).containsOnlyKeys(A, B);
        assertThat(w.progress().rowsCopied()).isEqualTo(20L);
        streaming(0, COPIED);
        s = w.step(s);
        assertThat(s).isEqualTo(at(WorkflowState.READY)); // published for one round
        s = w.step(s);
        assertThat(s).isEqualTo(cuttingOver(0));
    }

    @Test
    void anApplierTooFarBehindKeepsTheWorkflowCatchingUp() throws Exception {
        started();
        streaming(60_000, COPIED);
        WorkflowStatus s = workflow().step(at(WorkflowState.COPYING));
        assertThat(s.state()).isEqualTo(WorkflowState.CATCHING_UP);
    }

    @Test
    void anApplierBehindTheThrottleLimitHoldsTheCopyAndSaysWhy() throws Exception {
        started();
        streaming(60_000, COPYING);
        WorkflowStatus s = workflow("throttle.max.applier.lag.ms", "1000").step(at(WorkflowState.COPYING));
        assertThat(s.state()).isEqualTo(WorkflowState.COPYING);
        assertThat(s.reason()).startsWith("copy throttled: the applier on shard -80 is");
        assertThat(servers.copies.followed.get(A)).contains("ms behind (max 1000 ms)");
    }

    @Test
    void theStreamCopyIsThrottledThroughTheSource() throws Exception {
        started();
        for (FakeOnlineDdlServers.Shard shard : servers.shards.values()) {
            shard.applied = List.of(applied("MariaDB/0-1-100", "[]", 0, 0L));
        }
        WorkflowStatus s = workflow("ddl.copy.method", "stream").step(at(WorkflowState.COPYING));
        assertThat(s).isEqualTo(at(WorkflowState.READY));
        assertThat(servers.shard(A).throttled).containsExactly("null"); // go on
        assertThat(servers.copies.followed).isEmpty();
    }

    @Test
    void aPostponedWorkflowWaitsUntilReleased() throws Exception {
        started();
        streaming(0, COPIED);
        WorkflowStatus s = workflow("handoff.postpone", "true").step(at(WorkflowState.COPYING));
        assertThat(s).isEqualTo(at(WorkflowState.POSTPONED));
        assertThat(workflow("handoff.postpone", "true").step(s)).isEqualTo(s);
        // the release deploys the config again: a new task, the same persisted state
        OnlineDdlWorkflow released = workflow();
        s = released.step(s);
        assertThat(s).isEqualTo(at(WorkflowState.READY));
        assertThat(released.step(s).state()).isEqualTo(WorkflowState.CUTTING_OVER);
    }

    @Test
    void anApplierThatRecordedAFailureFailsTheWorkflow() throws Exception {
        started();
        streaming(0, COPYING);
        servers.shard(B).failure = "duplicate key in the ghost";
        WorkflowStatus s = workflow().step(at(WorkflowState.CATCHING_UP));
        assertThat(s.state()).isEqualTo(WorkflowState.FAILED);
        assertThat(s.reason()).contains("the applier on shard 80- cannot go on: duplicate key");
    }

    @Test
    void aServerCopyThatCannotGoOnFailsTheWorkflowAndStopsTheCopies() throws Exception {
        started();
        streaming(0, COPYING);
        servers.copies.fails = "disk full";
        WorkflowStatus s = workflow().step(at(WorkflowState.COPYING));
        assertThat(s.reason()).isEqualTo("the copy on shard -80 cannot go on: disk full");
        assertThat(servers.copies.closed).isTrue();
    }

    @Test
    void aSourceThatCopiesItselfBesideTheServerCopyFailsTheWorkflow() throws Exception {
        started();
        servers.shard(A).applied = List.of(applied("MariaDB/0-1-100", "[{\"table_name\":\"shop.orders\"}]", 0, 0L));
        WorkflowStatus s = workflow().step(at(WorkflowState.COPYING));
        assertThat(s.state()).isEqualTo(WorkflowState.FAILED);
        assertThat(s.reason()).contains("runs its own copy phase on shard -80");
    }

    @Test
    void aShardThatFailsInARoundIsReconnectedOnTheNext() throws Exception {
        started();
        OnlineDdlWorkflow w = workflow();
        w.step(at(WorkflowState.COPYING)); // the appliers are released
        servers.shard(B).applied = null; // reading it throws
        assertThatThrownBy(() -> w.step(at(WorkflowState.COPYING))).isInstanceOf(NullPointerException.class);
        assertThat(servers.discarded).containsExactly(B);
    }

    // ---- CUTTING_OVER

    @Test
    void theChecksumRunsInSlicesThenTheSwapCompletesTheMigration() throws Exception {
        started();
        servers.slices(MIGRATION, A, new CutOverChecksum.Slice(null, null));
        OnlineDdlWorkflow w = workflow();
        WorkflowStatus s = w.step(cuttingOver(0));
        assertThat(s).isEqualTo(cuttingOver(0)); // shard -80 has more to compare
        assertThat(servers.attempted).isEmpty();
        s = w.step(s);
        assertThat(s).isEqualTo(new WorkflowStatus(WorkflowState.COMPLETE, null, 0, null));
        assertThat(servers.attempted).containsExactly(MIGRATION + " [-80, 80-]");
        for (FakeOnlineDdlServers.Shard shard : servers.shards.values()) {
            assertThat(shard.tables).doesNotContain(GHOST);
            assertThat(shard.lastTold()).isEqualTo("HANDED_OFF");
            assertThat(shard.copyForgotten).isTrue();
        }
    }

    @Test
    void aChecksumMismatchFailsTheWorkflowAndLetsTheAppliersRun() throws Exception {
        started();
        servers.slices(MIGRATION, B, new CutOverChecksum.Slice("row 7 differs", null));
        WorkflowStatus s = workflow().step(cuttingOver(0));
        assertThat(s.state()).isEqualTo(WorkflowState.FAILED);
        assertThat(s.reason()).isEqualTo("row 7 differs");
        assertThat(servers.shard(A).lastTold()).isEqualTo("RUN");
    }

    @Test
    void aChecksumThatCannotHoldTheApplierCountsAFailedAttempt() throws Exception {
        started();
        servers.slices(MIGRATION, A, new CutOverChecksum.Slice(null, "the applier did not stop"));
        WorkflowStatus s = workflow().step(cuttingOver(1));
        assertThat(s).isEqualTo(new WorkflowStatus(WorkflowState.READY, null, 2, "checksum: the applier did not"
                + " stop"));
    }

    @Test
    void aFailedCutOverIsRetriedUpToItsLimitThenFailsWithTheOriginalsInPlace() throws Exception {
        started();
        servers.attempts.addAll(List.of("shard -80: lock wait timeout", "shard -80: lock wait timeout",
                "shard -80: lock wait timeout"));
        OnlineDdlWorkflow w = workflow();
        WorkflowStatus s = cuttingOver(0);
        for (int attempt = 1; attempt <= 3; attempt++) {
            s = w.step(s);
            assertThat(s).isEqualTo(new WorkflowStatus(WorkflowState.READY, null, attempt,
                    "shard -80: lock wait timeout"));
            assertThat(servers.shard(B).lastTold()).isEqualTo("RUN");
            s = new WorkflowStatus(WorkflowState.CUTTING_OVER, HandoffStep.PAUSE, s.attempts(), s.reason());
        }
        s = w.step(s);
        assertThat(s.state()).isEqualTo(WorkflowState.FAILED);
        assertThat(s.reason()).startsWith("the cut-over failed 3 times (last: shard -80: lock wait timeout)");
        assertThat(servers.attempted).hasSize(3);
        assertThat(servers.shard(A).tables).contains(TABLE, GHOST);
    }

    @Test
    void theSwapWaitsForTheKeysBuiltAfterTheServerCopy() throws Exception {
        started();
        for (FakeOnlineDdlServers.Shard shard : servers.shards.values()) {
            shard.copy = new GhostCopyState.Summary(true, 500, true, false); // rows copied, keys building
        }
        OnlineDdlWorkflow w = workflow();
        WorkflowStatus s = w.step(cuttingOver(0));
        assertThat(s).isEqualTo(cuttingOver(0));
        assertThat(servers.copies.followed).containsOnlyKeys(A, B);
        assertThat(servers.attempted).isEmpty();
        servers.copies.fails = "the key cannot be built: duplicate entry";
        s = w.step(s);
        assertThat(s.reason()).isEqualTo("the copy on shard -80 cannot go on: the key cannot be built: duplicate"
                + " entry");
        for (FakeOnlineDdlServers.Shard shard : servers.shards.values()) {
            shard.copy = COPIED;
        }
        assertThat(workflow().step(cuttingOver(0)).state()).isEqualTo(WorkflowState.COMPLETE); // keys built: swapped
    }

    @Test
    void aShardAnEarlierAttemptSwappedIsNeitherComparedNorSwappedAgain() throws Exception {
        started();
        servers.shard(A).tables.remove(GHOST); // swapped by an attempt that failed on the other shard (per shard)
        servers.slices(MIGRATION, A, new CutOverChecksum.Slice("not to be compared", null));
        WorkflowStatus s = workflow().step(cuttingOver(1));
        assertThat(s.state()).isEqualTo(WorkflowState.COMPLETE);
        assertThat(servers.attempted).containsExactly(MIGRATION + " [80-]");
    }

    @Test
    void aRestartAfterTheSwapCompletesWithoutAnotherAttempt() throws Exception {
        started();
        for (FakeOnlineDdlServers.Shard shard : servers.shards.values()) {
            shard.tables.remove(GHOST);
        }
        WorkflowStatus s = workflow().step(cuttingOver(2));
        assertThat(s.state()).isEqualTo(WorkflowState.COMPLETE);
        assertThat(servers.attempted).isEmpty();
    }

    // ---- REVERTIBLE, REVERTING, REVERTED

    private static final String REVERSE = MigrationPlans.revertKey(MIGRATION);
    private static final String FORWARD = MigrationPlans.forwardKey(MIGRATION);
    private static final Instant SWAPPED_AT = Instant.parse("2026-01-01T00:00:00Z");

    /** Swapped with a revert window; each shard's applier has passed the swap (the original follows as OLD). */
    private OnlineDdlWorkflow swappedWithWindow(String... more) throws Exception {
        started();
        String[] config = new String[more.length + 2];
        config[0] = "ddl.revert.window.ms";
        config[1] = "60000";
        System.arraycopy(more, 0, config, 2, more.length);
        for (FakeOnlineDdlServers.Shard shard : servers.shards.values()) {
            shard.directionPlans = true;
        }
        OnlineDdlWorkflow w = workflow(config);
        WorkflowStatus s = w.step(cuttingOver(0));
        assertThat(s.state()).isEqualTo(WorkflowState.REVERTIBLE);
        assertThat(servers.shard(A).lastTold()).isEqualTo("RUN"); // the appliers run on as the reverse stream
        assertThat(servers.shard(A).copyForgotten).isTrue();
        return w;
    }

    private void passed(String key, String follower) {
        for (FakeOnlineDdlServers.Shard shard : servers.shards.values()) {
            MigrationPlans.Plan plan = FakeOnlineDdlServers.direction(key, follower);
            shard.plans.put(key, plan);
            shard.direction = new MigrationPlans.Direction(plan, SWAPPED_AT);
            shard.tables.add(follower);
        }
    }

    @Test
    void aSwapWithoutDirectionPlansCompletesWithoutAWindow() throws Exception {
        started();
        WorkflowStatus s = workflow("ddl.revert.window.ms", "60000").step(cuttingOver(0));
        assertThat(s.state()).isEqualTo(WorkflowState.COMPLETE);
        assertThat(servers.shard(A).lastTold()).isEqualTo("HANDED_OFF");
    }

    @Test
    void theWindowWaitsForEveryApplierToPassTheSwapThenSaysUntilWhenItLasts() throws Exception {
        OnlineDdlWorkflow w = swappedWithWindow();
        WorkflowStatus s = w.step(at(WorkflowState.REVERTIBLE));
        assertThat(s.reason()).contains("waiting for the applier of shard(s) [-80, 80-]");
        passed(REVERSE, OLD);
        streaming(0, COPIED);
        s = w.step(s);
        assertThat(s.state()).isEqualTo(WorkflowState.REVERTIBLE);
        assertThat(s.reason()).startsWith("revertible until ").contains("keeps the original `" + OLD + "`");
        assertThat(w.progress().lagMs()).isNotNull();
    }

    @Test
    void theWindowEndsCompleteWhenItsTimeIsOver() throws Exception {
        OnlineDdlWorkflow w = swappedWithWindow();
        passed(REVERSE, OLD);
        servers.shard(B).now = SWAPPED_AT.plusSeconds(61);
        WorkflowStatus s = w.step(at(WorkflowState.REVERTIBLE));
        assertThat(s.state()).isEqualTo(WorkflowState.COMPLETE);
        assertThat(s.reason()).contains("is over", "the original tables are kept");
        assertThat(servers.shard(A).lastTold()).isEqualTo("HANDED_OFF");
    }

    @Test
    void aReleaseEndsTheWindowAndMayDropTheFollowers() throws Exception {
        swappedWithWindow();
        passed(REVERSE, OLD);
        WorkflowStatus s = workflow("ddl.revert.window.ms", "60000", "ddl.revert.release", "true",
                "ddl.revert.drop.on.release", "true").step(at(WorkflowState.REVERTIBLE));
        assertThat(s.state()).isEqualTo(WorkflowState.COMPLETE);
        assertThat(s.reason()).contains("released", "dropped (ddl.revert.drop.on.release): -80: " + OLD);
        assertThat(servers.shard(B).dropped).containsExactly(OLD);
    }

    @Test
    void aReverseStreamThatFailsEndsTheWindow() throws Exception {
        OnlineDdlWorkflow w = swappedWithWindow();
        passed(REVERSE, OLD);
        servers.shard(A).failure = "a value does not fit the original's column";
        WorkflowStatus s = w.step(at(WorkflowState.REVERTIBLE));
        assertThat(s.state()).isEqualTo(WorkflowState.COMPLETE);
        assertThat(s.reason()).contains("the reverse stream stopped on shard -80");
    }

    @Test
    void aRevertSwapsTheOriginalsBackAndTheWindowThenEndsReverted() throws Exception {
        swappedWithWindow();
        passed(REVERSE, OLD);
        OnlineDdlWorkflow w = workflow("ddl.revert.window.ms", "60000", "ddl.revert", "true");
        WorkflowStatus s = w.step(at(WorkflowState.REVERTIBLE));
        assertThat(s).isEqualTo(at(WorkflowState.REVERTING));
        s = w.step(s);
        assertThat(servers.attempted).last().isEqualTo(REVERSE + " [-80, 80-]");
        assertThat(s.state()).isEqualTo(WorkflowState.REVERTIBLE);
        assertThat(s.reason()).startsWith("swapped");
        passed(FORWARD, "_orders_new"); // the appliers pass the revert's swap: the ALTERed table follows
        s = w.step(s);
        assertThat(s.reason()).startsWith("reverted: the original `orders` serves again");
        s = workflow("ddl.revert.window.ms", "60000", "ddl.revert", "true", "ddl.revert.release", "true").step(s);
        assertThat(s.state()).isEqualTo(WorkflowState.REVERTED);
        assertThat(s.reason()).contains("the ALTERed tables are kept");
    }

    @Test
    void aRevertWaitsWhileTheAppliersFollowDifferentDirections() throws Exception {
        swappedWithWindow();
        passed(REVERSE, OLD);
        servers.shard(B).direction = null;
        WorkflowStatus s = workflow("ddl.revert.window.ms", "60000", "ddl.revert", "true")
                .step(at(WorkflowState.REVERTING));
        assertThat(s.state()).isEqualTo(WorkflowState.REVERTIBLE);
        assertThat(s.reason()).contains("waits for every shard's applier");
    }

    @Test
    void theWindowWaitsWhileTheShardsFollowDifferentDirections() throws Exception {
        OnlineDdlWorkflow w = swappedWithWindow();
        passed(REVERSE, OLD);
        MigrationPlans.Plan forward = FakeOnlineDdlServers.direction(FORWARD, "_orders_new");
        servers.shard(B).direction = new MigrationPlans.Direction(forward, SWAPPED_AT);
        servers.shard(B).tables.add("_orders_new");
        WorkflowStatus s = w.step(at(WorkflowState.REVERTIBLE));
        assertThat(s.state()).isEqualTo(WorkflowState.REVERTIBLE);
        assertThat(s.reason()).startsWith("the reverse stream starts: waiting for the appliers to pass the last swap")
                .contains("[" + A + "]").contains("[" + B + "]").doesNotContain("[]");
        assertThat(servers.shard(A).lastTold()).as("the window is not ended").isEqualTo("RUN");
    }

    @Test
    void aRevertsChecksumRunsInSlicesAndOneThatCannotHoldTheApplierCountsAFailedAttempt() throws Exception {
        swappedWithWindow();
        passed(REVERSE, OLD);
        servers.slices(REVERSE, A, new CutOverChecksum.Slice(null, null),
                new CutOverChecksum.Slice(null, "the applier did not stop"));
        OnlineDdlWorkflow w = workflow("ddl.revert.window.ms", "60000", "ddl.revert", "true");
        WorkflowStatus s = w.step(at(WorkflowState.REVERTING));
        assertThat(s).isEqualTo(at(WorkflowState.REVERTING)); // more of the revert's checksum on the next round
        s = w.step(s);
        assertThat(s).isEqualTo(new WorkflowStatus(WorkflowState.REVERTIBLE, null, 1, "the revert's cut-over attempt"
                + " 1 did not swap (checksum: the applier did not stop); the window stays open and the swap is tried"
                + " again"));
        assertThat(servers.attempted).doesNotContain(REVERSE + " [-80, 80-]");
    }

    @Test
    void aFailedRevertSwapKeepsTheWindowOpenAndGivesUpAtTheLimit() throws Exception {
        swappedWithWindow();
        passed(REVERSE, OLD);
        servers.attempts.add("shard 80-: lock wait timeout");
        OnlineDdlWorkflow w = workflow("ddl.revert.window.ms", "60000", "ddl.revert", "true");
        WorkflowStatus s = w.step(at(WorkflowState.REVERTING));
        assertThat(s.state()).isEqualTo(WorkflowState.REVERTIBLE);
        assertThat(s.attempts()).isEqualTo(1);
        assertThat(s.reason()).contains("attempt 1 did not swap (shard 80-: lock wait timeout)");
        s = w.step(new WorkflowStatus(WorkflowState.REVERTING, null, 3, "shard 80-: lock wait timeout"));
        assertThat(s.state()).isEqualTo(WorkflowState.REVERTIBLE);
        assertThat(s.reason()).startsWith("the revert's swap failed 3 times");
        assertThat(w.step(s)).isEqualTo(new WorkflowStatus(WorkflowState.REVERTIBLE, null, 3, s.reason()));
    }

    @Test
    void aRevertChecksumMismatchEndsTheWindow() throws Exception {
        swappedWithWindow();
        passed(REVERSE, OLD);
        servers.slices(REVERSE, A, new CutOverChecksum.Slice("row 3 differs", null));
        WorkflowStatus s = workflow("ddl.revert.window.ms", "60000", "ddl.revert", "true")
                .step(at(WorkflowState.REVERTING));
        assertThat(s.state()).isEqualTo(WorkflowState.COMPLETE);
        assertThat(s.reason()).contains("the revert is no longer possible");
    }

    // ---- cancel and the final states

    @Test
    void aCancelDropsTheGhostsAndRetiresTheAppliers() throws Exception {
        started();
        WorkflowStatus s = workflow().cancel(at(WorkflowState.CATCHING_UP));
        assertThat(s.state()).isEqualTo(WorkflowState.CANCELLED);
        assertThat(servers.copies.closed).isTrue();
        for (FakeOnlineDdlServers.Shard shard : servers.shards.values()) {
            assertThat(shard.tables).containsOnly(TABLE);
            assertThat(shard.told).containsExactly("HANDED_OFF");
            assertThat(shard.migrationForgotten).isTrue();
        }
    }

    @Test
    void aCancelInTheWindowEndsIt() throws Exception {
        OnlineDdlWorkflow w = swappedWithWindow();
        passed(REVERSE, OLD);
        WorkflowStatus s = w.cancel(at(WorkflowState.REVERTIBLE));
        assertThat(s.state()).isEqualTo(WorkflowState.COMPLETE);
        assertThat(s.reason()).contains("cancelled the workflow");
        assertThat(servers.shard(A).tables).contains(OLD);
    }

    @Test
    void aFinalWorkflowHoldsNothing() throws Exception {
        WorkflowStatus done = at(WorkflowState.COMPLETE);
        assertThat(workflow().step(done)).isSameAs(done);
        assertThat(servers.closed).isTrue();
        assertThat(servers.copies.closed).isTrue();
    }

    @Test
    void aServerThatRefusesTheConnectionFailsTheRound() {
        servers.shard(A).down = new SQLException("Access denied for user 'vsc'", "28000", 1045);
        assertThatThrownBy(() -> workflow().step(WorkflowStatus.START)).isInstanceOf(SQLException.class)
                .hasMessageContaining("Access denied");
    }

    @Test
    void theDiffComparesTheGhostOnlyWhileItStreams() throws Exception {
        OnlineDdlWorkflow w = workflow();
        assertThat(w.diffPlan(at(WorkflowState.COPYING)).refused()).contains("still being copied");
        assertThat(w.diffPlan(at(WorkflowState.READY)).parts()).hasSize(2);
        assertThat(w.diffPlan(at(WorkflowState.REVERTIBLE)).refused()).contains("swapped");
    }
}
