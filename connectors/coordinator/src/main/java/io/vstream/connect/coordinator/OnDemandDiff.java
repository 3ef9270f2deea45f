package io.vstream.connect.coordinator;

import java.sql.SQLException;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The on-demand diff a coordinator task answers ({@code diff.request}, {@code vsc diff}): which request is in force
 * (a new value starts a diff; the value already answered, as the stored offset says, is not run again; one a stopped
 * task had not finished starts over), one slice per round while the workflow's state allows it
 * ({@link Workflow#diffPlan}), and what to publish ({@link #status()}). A server error is retried on the next rounds
 * without touching the workflow; the third in a row fails the diff. Runs on the task's thread.
 */
final class OnDemandDiff {
    private static final Logger LOG = LoggerFactory.getLogger(OnDemandDiff.class);
    private static final int MAX_TROUBLES = 3;

    private final String workflow;
    private final Duration slice;
    private DiffStatus status; // null: no diff asked for yet
    private DiffRun run;
    private int troubles;

    /** {@code stored}: the diff the workflow's stored offset holds (or null); {@code request}: diff.request now. */
    OnDemandDiff(String workflow, Duration slice, DiffStatus stored, String request) {
        this.workflow = workflow;
        this.slice = slice;
        this.status = stored;
        if (request != null && (stored == null || !stored.id().equals(request) || stored.running())) {
            status = DiffStatus.started(request, System.currentTimeMillis());
            LOG.info("Workflow {}: diff {} requested", workflow, request);
        }
    }

    /** The last diff asked for, as it stands; null when none was. */
    DiffStatus status() {
        return status;
    }

    boolean running() {
        return status != null && status.running();
    }

    /** One slice, or the reason it waits or cannot run, given the workflow in {@code state}. */
    void slice(Workflow w, WorkflowStatus state) throws InterruptedException {
        try {
            DiffPlan plan = w.diffPlan(state);
            if (plan.refused() != null) {
                status = status.failed(plan.refused());
            } else if (plan.waiting() != null) {
                status = status.waiting(plan.waiting());
            } else {
                if (run != null && !run.kind().equals(plan.kind())) {
                    LOG.info("Workflow {}: diff {} starts over: the workflow's target is now compared as '{}'",
                            workflow, status.id(), plan.kind());
                    status = DiffStatus.started(status.id(), System.currentTimeMillis());
                    run = null;
                }
                if (run == null) {
                    run = new DiffRun(workflow, plan, slice);
                }
                status = run.slice(status);
            }
            troubles = 0;
        } catch (SQLException e) {
            if (++troubles >= MAX_TROUBLES) {
                status = status.failed("a server failed " + troubles + " times in a row: " + e.getMessage()
                        + " (error " + e.getErrorCode() + ")");
            } else {
                status = status.waiting("a server failed (" + e.getMessage() + "); trying again");
                LOG.warn("Workflow {}: diff {}: a slice failed: {}", workflow, status.id(), e.toString());
            }
        }
        if (!status.running()) {
            run = null;
        }
    }
}
