package io.vstream.connect.coordinator;

import io.vstream.connect.core.position.Flavor;
import io.vstream.connect.core.position.GtidPosition;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Step 5 of the clone's hand-off ({@link HandoffStep#VERIFY}): looks at the target's native replication every
 * {@value #LOOK_EVERY_MS} ms, for up to {@code handoff.stop.timeout.ms}, until it runs and has reached the source's
 * position read at the start; starts replication that is configured but not running (a coordinator stopped between
 * configuring and starting it); fails the workflow when replication stopped with an error; else says that it has not
 * caught up yet, and the next round looks again. Touches the source (its position) and the target (replication),
 * through {@link CloneServers.Round}.
 */
final class ReplicaCatchUp {
    private static final Logger LOG = LoggerFactory.getLogger(ReplicaCatchUp.class);
    static final long LOOK_EVERY_MS = 300;

    private final String workflow;
    private final Duration timeout;
    private final WaitPace pace;

    ReplicaCatchUp(String workflow, Duration timeout, WaitPace pace) {
        this.workflow = workflow;
        this.timeout = timeout;
        this.pace = pace;
    }

    /**
     * The status after the wait, from {@code status} (the hand-off at VERIFY, or resumed there): COMPLETE, naming the
     * tables the hand-off compared ({@code checked}; null after a restart, when this task did not compare them),
     * FAILED, or still CUTTING_OVER at VERIFY with what replication showed last.
     */
    WorkflowStatus await(WorkflowStatus status, CloneServers.Round round, List<String> checked)
            throws SQLException, InterruptedException {
        GtidPosition wanted = GtidPosition.parse(Flavor.MARIADB, round.sourcePosition());
        long deadline = pace.nanoTime() + timeout.toNanos();
        String last = "";
        boolean started = false;
        while (pace.nanoTime() < deadline) {
            CloneServers.Replica replica = round.replica();
            if (replica != null) {
                last = describe(replica);
                if ("No".equals(replica.sql()) && present(replica.error())) {
                    return status.failed("native replication stopped: " + replica.error());
                }
                if ("No".equals(replica.io()) && "No".equals(replica.sql()) && !started) {
                    // configured and handed off, but not started (a coordinator stopped between the two)
                    LOG.info("Workflow {}: replication is configured but not running; starting it", workflow);
                    round.startReplication();
                    started = true;
                }
            }
            GtidPosition replicated = GtidPosition.parse(Flavor.MARIADB, round.replicaPosition());
            if (replicated.contains(wanted) && last.startsWith("IO Yes, SQL Yes")) {
                LOG.info("Workflow {}: step 5 (verify) done: the target replicates and has reached {}; complete",
                        workflow, wanted);
                WorkflowStatus done = status.to(WorkflowState.COMPLETE);
                return checked == null ? done : new WorkflowStatus(WorkflowState.COMPLETE, null, done.attempts(),
                        "the checksum at the hand-off compared " + checked.size() + " tables: "
                                + String.join(", ", checked));
            }
            pace.pause(LOOK_EVERY_MS);
        }
        return new WorkflowStatus(WorkflowState.CUTTING_OVER, HandoffStep.VERIFY, status.attempts(),
                "replication has not caught up yet (" + last + ")");
    }

    /** E.g. {@code IO Yes, SQL No, error: Duplicate entry ...}: the threads, and the errors shown. */
    private static String describe(CloneServers.Replica r) {
        return "IO " + r.io() + ", SQL " + r.sql() + (present(r.error()) ? ", error: " + r.error() : "")
                + (present(r.ioError()) ? ", IO error: " + r.ioError() : "");
    }

    private static boolean present(String error) {
        return error != null && !error.isEmpty();
    }
}
