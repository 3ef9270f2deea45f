package io.vstream.connect.coordinator;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A workflow's persisted state: the coordinator task's Connect offset (partition {@code {"workflow": name}}), so a
 * restarted or moved task continues where it was. A missing offset is the normal start: CREATED.
 */
record WorkflowStatus(WorkflowState state, HandoffStep step, int attempts, String reason, WorkflowState resume) {
    static final WorkflowStatus START = new WorkflowStatus(WorkflowState.CREATED, null, 0, null);

    /** A status that does not wait on a connector ({@code resume} is null). */
    WorkflowStatus(WorkflowState state, HandoffStep step, int attempts, String reason) {
        this(state, step, attempts, reason, null);
    }

    static Map<String, String> partition(String workflow) {
        return Map.of("workflow", workflow);
    }

    Map<String, Object> toOffset() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("v", 1L);
        m.put("state", state.name());
        if (step != null) {
            m.put("step", step.name());
        }
        m.put("attempts", (long) attempts);
        if (reason != null) {
            m.put("reason", reason);
        }
        if (resume != null) {
            m.put("resume", resume.name());
        }
        return m;
    }

    static WorkflowStatus fromOffset(Map<String, Object> offset) {
        if (offset == null) {
            return START;
        }
        Object state = offset.get("state");
        if (!(state instanceof String s)) {
            throw new IllegalStateException("The coordinator's stored offset " + offset + " has no 'state': delete"
                    + " the connector's offsets to start the workflow over");
        }
        Object step = offset.get("step");
        Object attempts = offset.get("attempts");
        Object resume = offset.get("resume");
        return new WorkflowStatus(WorkflowState.valueOf(s), step == null ? null : HandoffStep.valueOf((String) step),
                attempts instanceof Number n ? n.intValue() : 0, (String) offset.get("reason"),
                resume == null ? null : WorkflowState.valueOf((String) resume));
    }

    WorkflowStatus to(WorkflowState next) {
        return new WorkflowStatus(next, null, attempts, null);
    }

    WorkflowStatus at(HandoffStep next) {
        return new WorkflowStatus(WorkflowState.CUTTING_OVER, next, attempts, null);
    }

    WorkflowStatus failed(String why) {
        return new WorkflowStatus(WorkflowState.FAILED, step, attempts, why);
    }

    /**
     * Waiting on the workflow's connectors ({@code next} is STALLED or FAILED), keeping the step and remembering the
     * state to go on from.
     */
    WorkflowStatus waitingOnConnectors(WorkflowState next, String why) {
        return new WorkflowStatus(next, step, attempts, why, resume != null ? resume : state);
    }

    /** Whether this status waits on the workflow's connectors (and goes on once they run). */
    boolean waitsOnConnectors() {
        return resume != null;
    }

    /**
     * Whether a round can still move it (and the operator cancel it): a state that is not final, or one that waits on
     * the workflow's connectors (FAILED by a task, it goes on once the task runs again).
     */
    boolean canMove() {
        return !state.isFinal() || waitsOnConnectors();
    }

    /** Back to the state it waited in, the connectors running again. */
    WorkflowStatus resumed() {
        return new WorkflowStatus(resume, step, attempts, null, null);
    }

    WorkflowStatus retry(String why) {
        return new WorkflowStatus(WorkflowState.READY, null, attempts + 1, why);
    }
}
