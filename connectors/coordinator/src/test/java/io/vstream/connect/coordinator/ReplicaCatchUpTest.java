package io.vstream.connect.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Step 5 of the clone's hand-off ({@link ReplicaCatchUp}) on a fake target ({@link FakeCloneServers}) and a pace that
 * does not sleep ({@link CountingPace}): complete once replication runs and has reached the source, a start of
 * replication left configured, a replication error, and a wait that runs out.
 */
class ReplicaCatchUpTest {
    private static final WorkflowStatus VERIFYING = new WorkflowStatus(WorkflowState.CUTTING_OVER, HandoffStep.VERIFY,
            1, null);
    private static final List<String> CHECKED = List.of("shop.orders", "shop.items");

    private final FakeCloneServers servers = new FakeCloneServers();
    private final CountingPace pace = new CountingPace();
    private final ReplicaCatchUp catchUp = new ReplicaCatchUp("shop-clone", Duration.ofSeconds(3), pace);

    private WorkflowStatus await(List<String> checked) throws Exception {
        try (CloneServers.Round round = servers.open()) {
            return catchUp.await(VERIFYING, round, checked);
        }
    }

    @Test
    void replicationThatRunsAndHasReachedTheSourceCompletesTheCloneNamingTheTablesCompared() throws Exception {
        servers.replica = new CloneServers.Replica("Yes", "Yes", "", "");
        servers.replicaPosition = "0-1-100";
        assertThat(await(CHECKED)).isEqualTo(new WorkflowStatus(WorkflowState.COMPLETE, null, 1, "the checksum at the"
                + " hand-off compared 2 tables: shop.orders, shop.items"));
        assertThat(pace.pauses).isZero();
        assertThat(await(null)).as("after a restart: the tables are not known")
                .isEqualTo(new WorkflowStatus(WorkflowState.COMPLETE, null, 1, null));
    }

    @Test
    void replicationIsLookedAtAgainUntilItHasCaughtUp() throws Exception {
        servers.replica = new CloneServers.Replica("Yes", "Yes", "", "");
        servers.replicaPosition = "0-1-90";
        pace.onPause = () -> servers.replicaPosition = pace.pauses < 3 ? "0-1-95" : "0-1-100,1-2-7";
        assertThat(await(CHECKED).state()).isEqualTo(WorkflowState.COMPLETE);
        assertThat(pace.pauses).isEqualTo(3);
    }

    @Test
    void aReplicaThatHasReachedThePositionButDoesNotRunBothThreadsIsNotDone() throws Exception {
        servers.replica = new CloneServers.Replica("Connecting", "Yes", "", "error connecting to master");
        servers.replicaPosition = "0-1-100";
        WorkflowStatus s = await(CHECKED);
        assertThat(s).isEqualTo(new WorkflowStatus(WorkflowState.CUTTING_OVER, HandoffStep.VERIFY, 1, "replication has"
                + " not caught up yet (IO Connecting, SQL Yes, IO error: error connecting to master)"));
        assertThat(pace.pauses).isEqualTo(10); // 3 s, a look every 300 ms
    }

    @Test
    void aTargetThatShowsNoReplicationIsNotDone() throws Exception {
        servers.replicaPosition = "0-1-100";
        assertThat(await(CHECKED).reason()).isEqualTo("replication has not caught up yet ()");
    }

    @Test
    void replicationConfiguredButNotStartedIsStartedOnce() throws Exception {
        servers.replica = new CloneServers.Replica("No", "No", "", "");
        WorkflowStatus s = await(CHECKED);
        assertThat(servers.starts).isEqualTo(1);
        assertThat(s.state()).isEqualTo(WorkflowState.COMPLETE);
        servers.replica = new CloneServers.Replica("No", "No", "", "");
        servers.replicaPosition = "";
        pace.onPause = () -> servers.replica = new CloneServers.Replica("No", "No", "", "");
        s = await(CHECKED);
        assertThat(servers.starts).as("once per wait, however often it shows stopped").isEqualTo(2);
        assertThat(s.reason()).isEqualTo("replication has not caught up yet (IO No, SQL No)");
    }

    @Test
    void replicationThatStoppedWithAnErrorFailsTheClone() throws Exception {
        servers.replica = new CloneServers.Replica("Yes", "No", "Duplicate entry '7' for key 'PRIMARY'", "");
        WorkflowStatus s = await(CHECKED);
        assertThat(s).isEqualTo(new WorkflowStatus(WorkflowState.FAILED, HandoffStep.VERIFY, 1, "native replication"
                + " stopped: Duplicate entry '7' for key 'PRIMARY'"));
        assertThat(servers.starts).isZero();
    }
}
