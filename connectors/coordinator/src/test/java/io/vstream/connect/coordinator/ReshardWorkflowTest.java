package io.vstream.connect.coordinator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vstream.connect.core.reshard.Journal;
import io.vstream.connect.jdbc.AppliedTable;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Every transition of the reshard state machine (one old shard {@code -} split into {@code -80} and {@code 80-}) on
 * fake shards ({@link FakeReshardServers}): the preflight, the copy and catch-up, the switch with its retries and its
 * resumption, the cancel. No server, no Kafka.
 */
class ReshardWorkflowTest {
    private static final String WORKFLOW = "split";
    private final FakeReshardServers servers = new FakeReshardServers();
    private final CountingPace pace = new CountingPace();

    private ReshardWorkflow workflow(String... more) {
        return new ReshardWorkflow(WorkflowFixtures.config(new java.util.HashMap<>(Map.of("workflow", "reshard",
                "applier.stream", "split", "source.user", "vsc", "shards", "-=old:3306",
                "reshard.target.shards", "-80=new1:3306,80-=new2:3306", "reshard.keyspace", "commerce",
                "reshard.database", "commerce", "cutover.max.attempts", "3")), more), WORKFLOW, servers, pace);
    }

    private static WorkflowStatus at(WorkflowState state) {
        return new WorkflowStatus(state, null, 0, null);
    }

    private static WorkflowStatus switching(int attempts) {
        return new WorkflowStatus(WorkflowState.CUTTING_OVER, HandoffStep.READ_ONLY, attempts, null);
    }

    @BeforeEach
    void oldShardAt100() {
        servers.oldPositions.put("-", "MariaDB/0-1-100");
        servers.newPositions.put("-80", "MariaDB/0-2-7");
        servers.newPositions.put("80-", "MariaDB/0-3-9");
    }

    /** Each new shard's applier holds {@code position} of the old shard, with {@code copyState}. */
    private void applying(String position, String copyState) {
        for (String n : List.of("-80", "80-")) {
            servers.applied.put(n, List.of(new AppliedTable.Row("split.commerce.-", 0, position, copyState,
                    System.currentTimeMillis(), 50L)));
        }
    }

    @Test
    void thePreflightRefusesOrLetsTheCopyStart() throws Exception {
        servers.problems = List.of("new shard -80 is not empty");
        WorkflowStatus s = workflow().step(WorkflowStatus.START);
        assertThat(s.reason()).isEqualTo("preflight: new shard -80 is not empty");
        assertThat(servers.preflightSawStarted).isFalse();
        servers.problems = List.of();
        applying("MariaDB/0-1-1", null);
        assertThat(workflow().step(WorkflowStatus.START)).isEqualTo(at(WorkflowState.COPYING));
        assertThat(servers.preflightSawStarted).isTrue();
    }

    @Test
    void theWorkflowCopiesUntilEveryNewShardHearsFromEveryOldShardThenCatchesUpAndSwitches() throws Exception {
        ReshardWorkflow w = workflow("ready.max.lag.transactions", "10");
        assertThat(w.step(at(WorkflowState.COPYING))).isEqualTo(at(WorkflowState.COPYING));
        servers.applied.put("-80", List.of(new AppliedTable.Row("split.commerce.-", 0, "MariaDB/0-1-50",
                "[]", System.currentTimeMillis(), 50L)));
        assertThat(w.step(at(WorkflowState.COPYING))).isEqualTo(at(WorkflowState.COPYING)); // 80- waits
        assertThat(w.shards()).extracting(ShardStatus::state).containsExactly(ShardStatus.STREAMING,
                ShardStatus.WAITING);
        applying("MariaDB/0-1-50", "[{\"table_name\":\"commerce.orders\"}]");
        assertThat(w.step(at(WorkflowState.COPYING))).isEqualTo(at(WorkflowState.COPYING));
        assertThat(w.progress().rowsCopied()).isEqualTo(100L);
        applying("MariaDB/0-1-50", "[]");
        WorkflowStatus s = w.step(at(WorkflowState.COPYING));
        assertThat(s).isEqualTo(at(WorkflowState.CATCHING_UP));
        assertThat(w.progress().lagTransactions()).isEqualTo(50L);
        applying("MariaDB/0-1-95", "[]");
        s = w.step(s);
        assertThat(s).isEqualTo(at(WorkflowState.READY)); // published for one round
        assertThat(w.step(s)).isEqualTo(switching(0));
    }

    @Test
    void aPostponedReshardStreamsUntilReleased() throws Exception {
        applying("MariaDB/0-1-100", "[]");
        WorkflowStatus s = workflow("handoff.postpone", "true").step(at(WorkflowState.CATCHING_UP));
        assertThat(s).isEqualTo(at(WorkflowState.POSTPONED));
        assertThat(workflow().step(s)).isEqualTo(at(WorkflowState.READY));
    }

    @Test
    void aLaneADiffLeftHeldRunsAgainOncePerTask() throws Exception {
        servers.lanes.put("-80<-", "STOP_AT");
        servers.lanes.put("80-<-", "RUN");
        ReshardWorkflow w = workflow();
        w.step(at(WorkflowState.COPYING));
        assertThat(servers.lanes).containsEntry("-80<-", "RUN");
        servers.lanes.put("-80<-", "PAUSE"); // a diff of this task holds it
        w.step(at(WorkflowState.COPYING));
        assertThat(servers.lanes).containsEntry("-80<-", "PAUSE");
    }

    @Test
    void theSwitchJournalsTheOldShardsFinalPositionsAndTheNewShardsStarts() throws Exception {
        applying("MariaDB/0-1-100", "[]");
        WorkflowStatus s = workflow().step(switching(0));
        assertThat(s.state()).isEqualTo(WorkflowState.COMPLETE);
        assertThat(s.step()).isEqualTo(HandoffStep.JOURNAL);
        assertThat(s.reason()).startsWith("switched: journal " + servers.journal.id());
        assertThat(servers.readOnly).isTrue();
        Journal j = servers.journal;
        assertThat(j.keyspace()).isEqualTo("commerce");
        assertThat(j.participants()).extracting(Journal.ShardPosition::position).containsExactly("MariaDB/0-1-100");
        assertThat(j.shards()).extracting(Journal.ShardPosition::position)
                .containsExactly("MariaDB/0-2-7", "MariaDB/0-3-9");
        assertThat(servers.retired).containsExactly("-80", "80-");
    }

    @Test
    void anApplierThatDoesNotReachTheFinalPositionsMakesTheOldShardsWritableAndRetriesUpToTheLimit()
            throws Exception {
        applying("MariaDB/0-1-90", "[]");
        WorkflowStatus s = workflow("handoff.stop.timeout.ms", "1000").step(switching(0));
        assertThat(s.state()).isEqualTo(WorkflowState.READY);
        assertThat(s.attempts()).isEqualTo(1);
        assertThat(s.reason()).contains("new shard 80- holds MariaDB/0-1-90 of old shard -, needs MariaDB/0-1-100",
                "the old shards are writable again");
        assertThat(servers.readOnlySet).containsExactly(true, false);
        assertThat(pace.pauses).as("a look every 100 ms for 1 s").isEqualTo(10);
        s = workflow("handoff.stop.timeout.ms", "1000").step(switching(2));
        assertThat(s.state()).isEqualTo(WorkflowState.FAILED);
        assertThat(s.reason()).endsWith("; gave up after 3 attempts");
        assertThat(servers.readOnly).isFalse();
        assertThat(servers.journal).isNull();
    }

    @Test
    void theSwitchWaitsWhileTheNewShardsApplyUpToTheOldShardsFinalPositions() throws Exception {
        applying("MariaDB/0-1-97", "[]");
        pace.onPause = () -> applying(pace.pauses < 3 ? "MariaDB/0-1-99" : "MariaDB/0-1-100", "[]");
        WorkflowStatus s = workflow().step(switching(0));
        assertThat(s.state()).isEqualTo(WorkflowState.COMPLETE);
        assertThat(pace.pauses).isEqualTo(3);
        assertThat(servers.readOnlySet).containsExactly(true);
    }

    @Test
    void aRestartAfterTheJournalReusesItAndKeepsTheOldShardsReadOnly() throws Exception {
        applying("MariaDB/0-1-100", "[]");
        workflow().step(switching(0));
        Journal first = servers.journal;
        servers.oldPositions.put("-", "MariaDB/0-1-200"); // not read again
        servers.readOnly = false;
        WorkflowStatus s = workflow().step(switching(0));
        assertThat(s.state()).isEqualTo(WorkflowState.COMPLETE);
        assertThat(servers.journal).isSameAs(first);
        assertThat(servers.journalWrites).isEqualTo(2);
        assertThat(servers.readOnly).isTrue();
    }

    @Test
    void aCancelBeforeTheJournalRetiresTheApplierAndLeavesTheOldShardsServing() throws Exception {
        servers.readOnly = true;
        WorkflowStatus s = workflow().cancel(at(WorkflowState.CATCHING_UP));
        assertThat(s).isEqualTo(new WorkflowStatus(WorkflowState.CANCELLED, null, 0, "cancelled by the operator"));
        assertThat(servers.readOnly).isFalse();
        assertThat(servers.retired).containsExactly("-80", "80-");
        assertThat(workflow().step(s)).isSameAs(s);
    }

    @Test
    void aCancelAfterTheJournalIsRefused() throws Exception {
        applying("MariaDB/0-1-100", "[]");
        workflow().step(switching(0));
        WorkflowStatus s = workflow().cancel(switching(0));
        assertThat(s.state()).isEqualTo(WorkflowState.FAILED);
        assertThat(s.reason()).startsWith("cannot cancel: the switch has been journaled");
    }

    @Test
    void aFinalWorkflowStaysAsItIsWithoutTouchingTheShards() throws Exception {
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
    void theDiffComparesEachOverlapOnlyWhileStreaming() throws Exception {
        assertThat(workflow().diffPlan(at(WorkflowState.COPYING)).refused()).contains("still copying");
        assertThat(workflow().diffPlan(switching(0)).waiting()).contains("CUTTING_OVER");
        assertThat(workflow().diffPlan(at(WorkflowState.COMPLETE)).refused()).contains("the switch is done");
    }
}
