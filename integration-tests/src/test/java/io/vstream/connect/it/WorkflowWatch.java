package io.vstream.connect.it;

import io.vstream.connect.core.event.EventType;
import io.vstream.connect.core.position.GtidPosition;
import io.vstream.connect.testsupport.connect.ConnectCluster;
import io.vstream.connect.testsupport.connect.TopicReader.Decoded;
import io.vstream.connect.testsupport.db.MariaDbServer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.runtime.rest.entities.ConnectorStateInfo;

/**
 * Follows the workflows of {@link TypeFidelityIT} on a Connect cluster: waits for a copy's end in a shard's log, for
 * a target's applied position, for a workflow's state, and records (rather than throws) a failed task, a failed
 * workflow or a timeout, so that the test still compares what the workflow left. Reads the cluster's topics and
 * REST status and the servers' {@code _vstream.applied}; writes nothing.
 */
final class WorkflowWatch implements AutoCloseable {
    private final ConnectCluster connect;
    private final Admin admin;
    private final MariaDbServer source;
    private final Duration wait;

    WorkflowWatch(ConnectCluster connect, MariaDbServer source, Duration wait) {
        this.connect = connect;
        this.source = source;
        this.wait = wait;
        this.admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, connect.bootstrapServers()));
    }

    /** Waits for the copy's end in the source's log; a copy that fails or never ends is recorded, the test goes on. */
    void awaitCopied(String topic, List<String> failures, String... connectors) throws InterruptedException {
        long deadline = System.nanoTime() + wait.toNanos();
        while (System.nanoTime() < deadline) {
            String failed = connectorFailures(connectors);
            if (!failed.isEmpty()) {
                failures.add("the copy did not complete: " + failed);
                return;
            }
            if (topicExists(topic) && !new ShardLog(connect.topics().readAll(topic, false))
                    .ofType(EventType.COPY_COMPLETED).isEmpty()) {
                return;
            }
            Thread.sleep(300);
        }
        failures.add("the copy did not complete in " + wait + ": " + connectorFailures(connectors));
    }

    /**
     * Waits until {@code target}'s applied position for {@code topic} holds the source's current position, or a task
     * failed, or the wait passed; the last two are recorded in {@code failures}.
     */
    void awaitApplied(MariaDbServer target, String sinkName, String topic, List<String> failures, String sourceName)
            throws InterruptedException {
        GtidPosition wanted = AppliedPosition.currentOf(source);
        AppliedPosition applied = new AppliedPosition(target, sinkName, topic);
        long deadline = System.nanoTime() + wait.toNanos();
        while (System.nanoTime() < deadline) {
            if (applied.holds(wanted)) {
                return;
            }
            String failed = connectorFailures(sinkName, sourceName);
            if (!failed.isEmpty()) {
                failures.add(target + " never applied up to " + wanted + ": " + failed);
                return;
            }
            Thread.sleep(500);
        }
        failures.add(target + " never applied up to " + wanted + "; it holds " + applied.last() + "; "
                + connectorFailures(sinkName, sourceName));
    }

    /** The last status of the workflow once it is {@code state} or FAILED (or after the wait). */
    String awaitState(String statusTopic, String state, List<String> failures, String... connectors)
            throws InterruptedException {
        long deadline = System.nanoTime() + wait.toNanos();
        Struct last = null;
        while (System.nanoTime() < deadline) {
            try {
                List<Decoded> all = topicExists(statusTopic) ? connect.topics().readAll(statusTopic, false)
                        : List.of();
                if (!all.isEmpty()) {
                    last = (Struct) all.get(all.size() - 1).value().value();
                    String now = last.getString("state");
                    if (state.equals(now)) {
                        return now;
                    }
                    if ("FAILED".equals(now)) {
                        failures.add("the workflow failed: " + last.getString("reason"));
                        return now;
                    }
                }
            } catch (RuntimeException e) {
                // the topic does not exist yet
            }
            String failed = connectorFailures(connectors);
            if (!failed.isEmpty()) {
                failures.add("the workflow never reached " + state + ": " + failed);
                return "FAILED";
            }
            Thread.sleep(300);
        }
        failures.add("the workflow never reached " + state + "; last status " + last);
        return last == null ? null : last.getString("state");
    }

    /** The traces of the failed connectors and tasks among {@code names}; empty when none failed. */
    String connectorFailures(String... names) {
        StringBuilder out = new StringBuilder();
        for (String name : names) {
            ConnectorStateInfo s;
            try {
                s = connect.status(name);
            } catch (RuntimeException e) {
                continue;
            }
            if ("FAILED".equals(s.connector().state())) {
                out.append(name).append(" failed: ").append(firstLines(s.connector().trace())).append("; ");
            }
            for (ConnectorStateInfo.TaskState t : s.tasks()) {
                if ("FAILED".equals(t.state())) {
                    out.append(name).append(" task ").append(t.id()).append(" failed: ")
                            .append(firstLines(t.trace())).append("; ");
                }
            }
        }
        return out.toString();
    }

    /** A trace without its stack frames (its messages and causes), at most 2000 characters. */
    private static String firstLines(String trace) {
        if (trace == null) {
            return "";
        }
        String[] lines = trace.split("\n");
        StringBuilder out = new StringBuilder();
        for (String line : lines) {
            if (!line.startsWith("\tat ") || out.length() < 1) {
                out.append(line.strip()).append(" | ");
            }
        }
        return out.length() > 2000 ? out.substring(0, 2000) + "…" : out.toString();
    }

    private boolean topicExists(String topic) {
        try {
            return admin.listTopics().names().get().contains(topic);
        } catch (ExecutionException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    @Override
    public void close() {
        admin.close();
    }
}
