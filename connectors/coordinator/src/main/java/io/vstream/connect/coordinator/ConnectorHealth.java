package io.vstream.connect.coordinator;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * Decides from the Connect REST status of a workflow's connectors ({@code GET /connectors/{name}/status}) whether
 * the workflow can make progress: a FAILED connector or task stops it with the task's error; one that is not running
 * for another reason (paused, unassigned, restarting, no tasks, deleted) stalls it; otherwise it is healthy. Each
 * verdict carries the sentence the status shows. Measuring (the REST calls, {@link ConnectorWatch}) is separate from
 * this deciding. No I/O.
 */
final class ConnectorHealth {
    /** How the workflow's connectors are. */
    enum Kind {
        HEALTHY,
        STALLED,
        FAILED
    }

    /** A verdict and its reason ({@code null} when healthy). */
    record Verdict(Kind kind, String reason) {
        static final Verdict HEALTHY = new Verdict(Kind.HEALTHY, null);
    }

    private static final int TRACE_CHARS = 600;

    private ConnectorHealth() {
    }

    /**
     * The verdict over every connector: {@code statuses} holds, per connector name in order, its status document, or
     * {@code null} when Connect does not know the connector.
     */
    static Verdict judge(java.util.Map<String, JsonNode> statuses) {
        List<String> failed = new ArrayList<>();
        List<String> stalled = new ArrayList<>();
        for (var e : statuses.entrySet()) {
            String name = e.getKey();
            JsonNode s = e.getValue();
            if (s == null) {
                stalled.add("connector " + name + " does not exist on the Connect cluster (deploy it again, or"
                        + " cancel the workflow)");
                continue;
            }
            JsonNode connector = s.path("connector");
            String state = connector.path("state").asText("");
            if ("FAILED".equals(state)) {
                failed.add("connector " + name + " FAILED on " + connector.path("worker_id").asText("?") + ": "
                        + firstLines(connector.path("trace").asText("")));
                continue;
            }
            if ("PAUSED".equals(state) || "STOPPED".equals(state)) {
                stalled.add("connector " + name + " is " + state + " (resume it: PUT /connectors/" + name
                        + "/resume)");
                continue;
            }
            if (!"RUNNING".equals(state)) {
                stalled.add("connector " + name + " is " + (state.isEmpty() ? "in no known state" : state));
                continue;
            }
            JsonNode tasks = s.path("tasks");
            if (!tasks.isArray() || tasks.isEmpty()) {
                stalled.add("connector " + name + " has no tasks running");
                continue;
            }
            for (JsonNode t : tasks) {
                String ts = t.path("state").asText("");
                String id = name + " task " + t.path("id").asText("?");
                if ("FAILED".equals(ts)) {
                    failed.add(id + " FAILED on " + t.path("worker_id").asText("?") + ": "
                            + firstLines(t.path("trace").asText("")));
                } else if (!"RUNNING".equals(ts)) {
                    stalled.add(id + " is " + (ts.isEmpty() ? "in no known state" : ts));
                }
            }
        }
        if (!failed.isEmpty()) {
            return new Verdict(Kind.FAILED, String.join("; ", failed) + ". Fix the cause, then restart it (POST"
                    + " /connectors/<name>/restart?includeTasks=true&onlyFailed=true): the workflow goes on from"
                    + " where it stopped");
        }
        if (!stalled.isEmpty()) {
            return new Verdict(Kind.STALLED, String.join("; ", stalled));
        }
        return Verdict.HEALTHY;
    }

    /**
     * One line per connector for the status record: its state and each task's, with the worker running it, e.g.
     * {@code orders-src RUNNING: task 0 RUNNING on 10.0.0.5:8083, task 1 FAILED on 10.0.0.6:8083}. No traces (the
     * verdict's reason has the failure's first lines).
     */
    static List<String> summaries(java.util.Map<String, JsonNode> statuses) {
        List<String> out = new ArrayList<>();
        for (var e : statuses.entrySet()) {
            JsonNode s = e.getValue();
            if (s == null) {
                out.add(e.getKey() + " MISSING (not on the Connect cluster)");
                continue;
            }
            StringBuilder line = new StringBuilder(e.getKey()).append(' ')
                    .append(s.path("connector").path("state").asText("?"));
            JsonNode tasks = s.path("tasks");
            if (!tasks.isArray() || tasks.isEmpty()) {
                line.append(": no tasks");
            }
            String sep = ": ";
            for (JsonNode t : tasks) {
                line.append(sep).append("task ").append(t.path("id").asText("?")).append(' ')
                        .append(t.path("state").asText("?")).append(" on ").append(t.path("worker_id").asText("?"));
                sep = ", ";
            }
            out.add(line.toString());
        }
        return out;
    }

    /**
     * The exception lines of a Java stack trace (its first line and each "Caused by"), without the frames, cut to a
     * few hundred characters: the error a person reads first.
     */
    static String firstLines(String trace) {
        if (trace == null || trace.isBlank()) {
            return "(no error reported)";
        }
        StringBuilder out = new StringBuilder();
        for (String line : trace.split("\n")) {
            String l = line.strip();
            if (l.isEmpty() || l.startsWith("at ") || l.startsWith("...")) {
                continue;
            }
            if (out.length() > 0) {
                out.append(" | ");
            }
            out.append(l);
            if (out.length() >= TRACE_CHARS) {
                break;
            }
        }
        return out.length() > TRACE_CHARS ? out.substring(0, TRACE_CHARS) + "..." : out.toString();
    }
}
