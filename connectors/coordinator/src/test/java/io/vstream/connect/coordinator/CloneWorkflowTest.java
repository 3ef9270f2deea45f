package io.vstream.connect.coordinator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vstream.connect.jdbc.AppliedTable;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The coordinator's pure logic (lag between positions and the persisted state's codec), and every transition of the
 * clone's state machine on a fake source and target ({@link FakeCloneServers}): no server, no Kafka.
 */
class CloneWorkflowTest {
    private final FakeCloneServers servers = new FakeCloneServers();
    private final CountingPace pace = new CountingPace();

    private CloneWorkflow workflow(String... config) {
        return new CloneWorkflow(WorkflowFixtures.clone(config), "shop-clone", servers, pace);
    }

    private static WorkflowStatus at(WorkflowState state) {
        return new WorkflowStatus(state, null, 0, null);
    }

    /** The applier streaming at {@code position}, its copy {@code copyState}, {@code lagMs} behind. */
    private void applying(String position, String copyState, long lagMs) {
        servers.applied = List.of(new AppliedTable.Row("shop-clone.shop.0", 0, position, copyState,
                System.currentTimeMillis() - lagMs, 10L));
    }

    @Test
    void thePreflightRefusesOrLetsTheCopyStart() throws Exception {
        servers.problems = List.of("the source's binlog_format is STATEMENT; set it to ROW");
        WorkflowStatus s = workflow().step(WorkflowStatus.START);
        assertThat(s.state()).isEqualTo(WorkflowState.FAILED);
        assertThat(s.reason()).isEqualTo("preflight: the source's binlog_format is STATEMENT; set it to ROW");
        servers.problems = List.of();
        assertThat(workflow().step(WorkflowStatus.START)).isEqualTo(at(WorkflowState.COPYING));
    }

    @Test
    void theWorkflowCopiesUntilTheApplierHasAPositionAndItsCopyIsDone() throws Exception {
        CloneWorkflow w = workflow("ready.max.lag.transactions", "10");
        assertThat(w.step(at(WorkflowState.COPYING))).isEqualTo(at(WorkflowState.COPYING));
        applying("MariaDB/0-1-50", "[{\"table_name\":\"shop.orders\"}]", 0);
        assertThat(w.step(at(WorkflowState.CATCHING_UP))).isEqualTo(at(WorkflowState.COPYING));
        assertThat(w.shards()).extracting(ShardStatus::state).containsExactly(ShardStatus.COPYING);
        applying("MariaDB/0-1-50", "[]", 60_000);
        assertThat(w.step(at(WorkflowState.COPYING))).isEqualTo(at(WorkflowState.CATCHING_UP));
        assertThat(w.progress().lagTransactions()).isEqualTo(50L);
        applying("MariaDB/0-1-100", "[]", 0);
        WorkflowStatus s = w.step(at(WorkflowState.CATCHING_UP));
        assertThat(s).isEqualTo(at(WorkflowState.READY)); // published for one round
        assertThat(w.step(s)).isEqualTo(s.at(HandoffStep.PAUSE));
    }

    @Test
    void aPostponedCloneStreamsUntilReleased() throws Exception {
        applying("MariaDB/0-1-100", "[]", 0);
        WorkflowStatus s = workflow("handoff.postpone", "true").step(at(WorkflowState.CATCHING_UP));
        assertThat(s).isEqualTo(at(WorkflowState.POSTPONED));
        assertThat(workflow("handoff.postpone", "true").step(s)).isEqualTo(s);
        assertThat(workflow().step(s)).isEqualTo(at(WorkflowState.READY));
    }

    @Test
    void aStreamOfSeveralSourceShardsCannotBeHandedOff() throws Exception {
        servers.applied = List.of(new AppliedTable.Row("t.-80", 0, "MariaDB/0-1-1", "[]", null, null),
                new AppliedTable.Row("t.80-", 1, "MariaDB/0-2-1", "[]", null, null));
        WorkflowStatus s = workflow().step(at(WorkflowState.COPYING));
        assertThat(s.state()).isEqualTo(WorkflowState.FAILED);
        assertThat(s.reason()).contains("applies 2 partitions");
    }

    @Test
    void theHandOffComparesAtTheSnapshotAndHandsTheTargetToReplication() throws Exception {
        applying("MariaDB/0-1-100", "[]", 0);
        WorkflowStatus s = workflow().step(at(WorkflowState.READY).at(HandoffStep.PAUSE));
        assertThat(s).isEqualTo(new WorkflowStatus(WorkflowState.COMPLETE, null, 0, "the checksum at the hand-off"
                + " compared 2 tables: shop.orders, shop.items"));
        assertThat(servers.told).containsExactly("PAUSE", "STOP_AT MariaDB/0-1-100", "HANDED_OFF");
        assertThat(servers.replicated).containsExactly("shop");
        assertThat(servers.replicatedFrom.format()).isEqualTo("MariaDB/0-1-100");
        assertThat(servers.starts).isEqualTo(1);
        assertThat(servers.snapshotsOpen).isZero();
    }

    @Test
    void anApplierThatDoesNotPauseOrStopInTimeAbortsTheAttemptAndRunsAgain() throws Exception {
        applying("MariaDB/0-1-100", "[]", 0);
        servers.pauses = false;
        WorkflowStatus s = workflow("handoff.stop.timeout.ms", "1000").step(at(WorkflowState.READY)
                .at(HandoffStep.PAUSE));
        assertThat(s).isEqualTo(new WorkflowStatus(WorkflowState.READY, null, 1, "the applier did not pause within"
                + " 1000 ms"));
        assertThat(servers.told).containsExactly("PAUSE", "RUN");
        servers.pauses = true;
        servers.reachesStop = false;
        s = workflow("handoff.stop.timeout.ms", "1000").step(s.at(HandoffStep.PAUSE));
        assertThat(s.state()).isEqualTo(WorkflowState.READY);
        assertThat(s.attempts()).isEqualTo(2);
        assertThat(s.reason()).startsWith("the applier did not reach MariaDB/0-1-100");
        assertThat(servers.command).isEqualTo("RUN");
        assertThat(servers.configured).isFalse();
    }

    @Test
    void theLastAbandonedAttemptFailsTheWorkflowWithTheApplierRunning() throws Exception {
        applying("MariaDB/0-1-100", "[]", 0);
        servers.pauses = false;
        CloneWorkflow w = workflow("handoff.stop.timeout.ms", "1000", "cutover.max.attempts", "2");
        WorkflowStatus s = w.step(at(WorkflowState.READY).at(HandoffStep.PAUSE));
        assertThat(s.state()).as("one attempt left").isEqualTo(WorkflowState.READY);
        s = w.step(w.step(s));
        assertThat(s.state()).isEqualTo(WorkflowState.FAILED);
        assertThat(s.attempts()).isEqualTo(2);
        assertThat(s.reason()).startsWith("the hand-off was abandoned 2 times (last: the applier did not pause within"
                + " 1000 ms)").contains("raise handoff.stop.timeout.ms or cutover.max.attempts");
        assertThat(servers.command).isEqualTo("RUN");
        assertThat(servers.configured).isFalse();
    }

    @Test
    void aChecksumDifferenceFailsTheHandOffAndTheApplierKeepsRunning() throws Exception {
        applying("MariaDB/0-1-100", "[]", 0);
        servers.comparison = new CloneComparison(List.of(), List.of(), "shop.orders: 10 rows on the source, 9 on"
                + " the target");
        WorkflowStatus s = workflow().step(at(WorkflowState.READY).at(HandoffStep.PAUSE));
        assertThat(s.state()).isEqualTo(WorkflowState.FAILED);
        assertThat(s.reason()).startsWith("checksum at MariaDB/0-1-100: shop.orders: 10 rows");
        assertThat(servers.command).isEqualTo("RUN");
    }

    @Test
    void aComparisonOrAReplicationSetUpThatFailsLetsTheApplierRunAgain() {
        applying("MariaDB/0-1-100", "[]", 0);
        servers.compareFails = new IllegalStateException("the target lost a table");
        assertThatThrownBy(() -> workflow().step(at(WorkflowState.READY).at(HandoffStep.PAUSE)))
                .hasMessage("the target lost a table");
        assertThat(servers.command).isEqualTo("RUN");
        servers.compareFails = null;
        servers.configureFails = new SQLException("CHANGE MASTER refused", "HY000", 1198);
        assertThatThrownBy(() -> workflow().step(at(WorkflowState.READY).at(HandoffStep.PAUSE)))
                .isInstanceOf(SQLException.class);
        assertThat(servers.told).endsWith("HANDED_OFF", "RUN");
        assertThat(servers.starts).isZero();
        assertThat(servers.snapshotsOpen).isZero();
    }

    @Test
    void replicationThatHasNotCaughtUpIsVerifiedAgainOnTheNextRound() throws Exception {
        servers.configured = true;
        servers.command = "HANDED_OFF";
        servers.replica = new CloneServers.Replica("Yes", "Yes", "", "");
        servers.replicaPosition = "0-1-90";
        WorkflowStatus verifying = at(WorkflowState.READY).at(HandoffStep.VERIFY);
        WorkflowStatus s = workflow("handoff.stop.timeout.ms", "1000").step(verifying);
        assertThat(s).isEqualTo(new WorkflowStatus(WorkflowState.CUTTING_OVER, HandoffStep.VERIFY, 0,
                "replication has not caught up yet (IO Yes, SQL Yes)"));
        servers.replicaPosition = "0-1-100";
        assertThat(workflow().step(s)).isEqualTo(at(WorkflowState.COMPLETE)); // a restart: no tables named
    }

    @Test
    void aRestartAfterTheHandOffStartsReplicationThatWasNotStarted() throws Exception {
        servers.configured = true;
        servers.command = "HANDED_OFF";
        servers.replica = new CloneServers.Replica("No", "No", "", "");
        WorkflowStatus s = workflow().step(at(WorkflowState.READY).at(HandoffStep.PAUSE));
        assertThat(s).isEqualTo(at(WorkflowState.COMPLETE));
        assertThat(servers.starts).isEqualTo(1);
        assertThat(servers.told).isEmpty(); // the applier was not paused again
    }

    @Test
    void replicationThatStopsWithAnErrorFailsTheWorkflow() throws Exception {
        servers.configured = true;
        servers.command = "HANDED_OFF";
        servers.replica = new CloneServers.Replica("No", "No", "", "");
        servers.replicationError = "Duplicate entry '7' for key 'PRIMARY'";
        WorkflowStatus s = workflow().step(at(WorkflowState.READY).at(HandoffStep.VERIFY));
        assertThat(s.state()).isEqualTo(WorkflowState.FAILED);
        assertThat(s.reason()).isEqualTo("native replication stopped: Duplicate entry '7' for key 'PRIMARY'");
    }

    @Test
    void aCancelRetiresTheApplierAndAFinalWorkflowStays() throws Exception {
        WorkflowStatus s = workflow().cancel(at(WorkflowState.CATCHING_UP));
        assertThat(s).isEqualTo(new WorkflowStatus(WorkflowState.CANCELLED, null, 0, "cancelled by the operator"));
        assertThat(servers.retired).isTrue();
        assertThat(workflow().step(s)).isSameAs(s);
    }

    @Test
    void aFinalWorkflowStaysAsItIsWithoutTouchingTheServers() throws Exception {
        servers.down = new SQLException("not to be opened");
        for (WorkflowState done : new WorkflowState[] {WorkflowState.COMPLETE, WorkflowState.CANCELLED,
                WorkflowState.FAILED}) {
            WorkflowStatus s = new WorkflowStatus(done, null, 1, "why");
            assertThat(workflow().step(s)).isSameAs(s);
        }
    }

    @Test
    void aServerThatRefusesTheRoundFailsIt() {
        servers.down = new SQLException("Access denied for user 'vsc'", "28000", 1045);
        assertThatThrownBy(() -> workflow().step(at(WorkflowState.COPYING))).isSameAs(servers.down);
    }

    @Test
    void lagCountsTransactionsPerDomain() {
        assertThat(CloneWorkflow.lag("MariaDB/0-1-100,1-2-50", "MariaDB/0-1-90,1-2-45")).isEqualTo(15L);
        assertThat(CloneWorkflow.lag("MariaDB/0-1-100", "MariaDB/0-1-100")).isZero();
        assertThat(CloneWorkflow.lag("MariaDB/0-1-100", "MariaDB/0-1-120")).isZero();
        assertThat(CloneWorkflow.lag("MariaDB/0-1-100,1-2-5", "MariaDB/0-1-100")).isEqualTo(5L);
        assertThat(CloneWorkflow.lag(null, "MariaDB/0-1-1")).isNull();
    }

    @Test
    void replicationCarriesExactlyTheClonesDatabasesWithTheirNamesEscaped() {
        assertThat(CloneWorkflow.wildDoTable(java.util.List.of("commerce", "vs_db1")))
                .isEqualTo("commerce.%,vs\\_db1.%");
        assertThat(CloneWorkflow.wildDoTable(java.util.List.of("a%b"))).isEqualTo("a\\%b.%");
    }

    @Test
    void statusRoundTripsThroughTheOffset() {
        WorkflowStatus s = new WorkflowStatus(WorkflowState.CUTTING_OVER, HandoffStep.CHECKSUM, 2, "why");
        Map<String, Object> offset = s.toOffset();
        assertThat(WorkflowStatus.fromOffset(offset)).isEqualTo(s);
        assertThat(WorkflowStatus.fromOffset(null)).isEqualTo(WorkflowStatus.START);
        assertThat(s.retry("again")).extracting(WorkflowStatus::state, WorkflowStatus::attempts)
                .containsExactly(WorkflowState.READY, 3);
    }
}
