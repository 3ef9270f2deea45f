package io.vstream.connect.coordinator;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A workflow's persisted state: the coordinator task's Connect offset (partition {@code {"workflow": name}}), so a
 * restarted or moved task continues where it was. A missing offset is the normal start: CREATED.
 */
record WorkflowStatus(WorkflowState state, HandoffStep step, int attempts, String reason) {
    static final WorkflowStatus START = new WorkflowStatus(WorkflowState.CREATED, null, 0, null);

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
        return new WorkflowStatus(WorkflowState.valueOf(s), step == null ? null : HandoffStep.valueOf((String) step),
                attempts instanceof Number n ? n.intValue() : 0, (String) offset.get("reason"));
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

    WorkflowStatus retry(String why) {
        return new WorkflowStatus(WorkflowState.READY, null, attempts + 1, why);
    }
}
