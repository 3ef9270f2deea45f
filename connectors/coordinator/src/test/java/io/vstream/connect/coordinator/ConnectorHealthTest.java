package io.vstream.connect.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConnectorHealthTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static JsonNode status(String connectorState, String... taskStates) throws Exception {
        StringBuilder tasks = new StringBuilder();
        for (int i = 0; i < taskStates.length; i++) {
            tasks.append(i == 0 ? "" : ",").append("{\"id\":").append(i).append(",\"state\":\"").append(taskStates[i])
                    .append("\",\"worker_id\":\"w1:8083\"")
                    .append("FAILED".equals(taskStates[i]) ? ",\"trace\":\"org.apache.kafka.connect.errors."
                            + "ConnectException: boom\\n\\tat a.b.C(C.java:1)\\nCaused by: java.sql.SQLException:"
                            + " Access denied\\n\\tat d.e.F(F.java:2)\\n\\t... 5 more\"" : "")
                    .append('}');
        }
        return JSON.readTree("{\"name\":\"x\",\"connector\":{\"state\":\"" + connectorState
                + "\",\"worker_id\":\"w1:8083\"},\"tasks\":[" + tasks + "],\"type\":\"sink\"}");
    }

    private static ConnectorHealth.Verdict judge(Object... nameAndStatus) {
        Map<String, JsonNode> m = new LinkedHashMap<>();
        for (int i = 0; i < nameAndStatus.length; i += 2) {
            m.put((String) nameAndStatus[i], (JsonNode) nameAndStatus[i + 1]);
        }
        return ConnectorHealth.judge(m);
    }

    @Test
    void runningConnectorsAndTasksAreHealthy() throws Exception {
        assertThat(judge("src", status("RUNNING", "RUNNING"), "sink", status("RUNNING", "RUNNING", "RUNNING")))
                .isEqualTo(ConnectorHealth.Verdict.HEALTHY);
    }

    @Test
    void aFailedTaskFailsTheWorkflowWithItsErrorAndTheWayOn() throws Exception {
        ConnectorHealth.Verdict v = judge("src", status("RUNNING", "RUNNING"), "sink",
                status("RUNNING", "RUNNING", "FAILED"));
        assertThat(v.kind()).isEqualTo(ConnectorHealth.Kind.FAILED);
        assertThat(v.reason()).contains("sink task 1 FAILED on w1:8083")
                .contains("ConnectException: boom | Caused by: java.sql.SQLException: Access denied")
                .doesNotContain("C.java").contains("restart?includeTasks=true&onlyFailed=true");
    }

    @Test
    void aFailureOutranksAStall() throws Exception {
        ConnectorHealth.Verdict v = judge("src", status("PAUSED", "PAUSED"), "sink", status("FAILED"));
        assertThat(v.kind()).isEqualTo(ConnectorHealth.Kind.FAILED);
        assertThat(v.reason()).startsWith("connector sink FAILED");
    }

    @Test
    void pausedUnassignedMissingOrTasklessConnectorsStallIt() throws Exception {
        assertThat(judge("src", status("PAUSED", "PAUSED")).reason()).contains("connector src is PAUSED")
                .contains("/connectors/src/resume");
        assertThat(judge("src", status("RUNNING", "UNASSIGNED")).reason()).contains("src task 0 is UNASSIGNED");
        assertThat(judge("src", status("RUNNING")).reason()).contains("no tasks running");
        assertThat(judge("src", null).kind()).isEqualTo(ConnectorHealth.Kind.STALLED);
        assertThat(judge("src", null).reason()).contains("does not exist");
    }

    @Test
    void aLongTraceIsCut() {
        String trace = "x".repeat(2_000);
        assertThat(ConnectorHealth.firstLines(trace)).hasSize(603).endsWith("...");
        assertThat(ConnectorHealth.firstLines("")).isEqualTo("(no error reported)");
    }

    @Test
    void eachConnectorIsSummedUpOnOneLineForTheStatusRecord() throws Exception {
        Map<String, JsonNode> m = new LinkedHashMap<>();
        m.put("src", status("RUNNING", "RUNNING"));
        m.put("sink", status("RUNNING", "RUNNING", "FAILED"));
        m.put("gone", null);
        m.put("idle", status("RUNNING"));
        assertThat(ConnectorHealth.summaries(m)).containsExactly("src RUNNING: task 0 RUNNING on w1:8083",
                "sink RUNNING: task 0 RUNNING on w1:8083, task 1 FAILED on w1:8083",
                "gone MISSING (not on the Connect cluster)", "idle RUNNING: no tasks");
    }
}
