package io.vstream.connect.coordinator;

import io.vstream.connect.core.Version;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.source.SourceRecord;
import org.apache.kafka.connect.source.SourceTask;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The coordinator's single task: loads the workflow's state from its Connect offset, advances the state machine
 * every {@code poll.interval.ms}, and writes a status record (which also persists the state) whenever the state or
 * the measured progress changes, and at least every 30 seconds.
 */
public class VStreamCoordinatorTask extends SourceTask {
    private static final Logger LOG = LoggerFactory.getLogger(VStreamCoordinatorTask.class);
    private static final long STATUS_EVERY_MS = 30_000;

    private VStreamCoordinatorConnectorConfig config;
    private Workflow workflow;
    private StatusRecords records;
    private WorkflowStatus status;
    private String workflowName;
    private long lastEmitted;
    private StatusRecords.Progress lastProgress;
    private boolean first = true;

    @Override
    public String version() {
        return Version.get();
    }

    @Override
    public void start(Map<String, String> props) {
        config = new VStreamCoordinatorConnectorConfig(props);
        workflowName = config.workflowName(props.getOrDefault("name", "vstream-coordinator"));
        workflow = switch (config.workflowType()) {
            case "online-ddl" -> new OnlineDdlWorkflow(config, workflowName);
            case "reshard" -> new ReshardWorkflow(config, workflowName);
            default -> new CloneWorkflow(config, workflowName);
        };
        records = new StatusRecords(config.statusTopic(), workflowName, workflow.type());
        status = WorkflowStatus.fromOffset(context.offsetStorageReader().offset(WorkflowStatus.partition(workflowName)));
        LOG.info("Coordinator of workflow '{}' starting in state {}{}", workflowName, status.state(),
                status.step() == null ? "" : " at step " + status.step());
    }

    @Override
    public List<SourceRecord> poll() throws InterruptedException {
        if (first) {
            first = false;
            return emit(status, true); // the state the workflow (re)starts in
        }
        Thread.sleep(config.pollInterval().toMillis());
        WorkflowStatus next;
        try {
            next = config.cancelled() && !status.state().isFinal() ? workflow.cancel(status) : workflow.step(status);
        } catch (java.sql.SQLException e) {
            LOG.warn("Workflow {}: cannot reach a server ({}); trying again", workflowName, e.toString());
            return emit(new WorkflowStatus(status.state(), status.step(), status.attempts(),
                    "waiting for a server: " + e.getMessage()), false);
        }
        boolean changed = !next.equals(status);
        if (changed) {
            LOG.info("Workflow {}: {}{} -> {}{}{}", workflowName, status.state(),
                    status.step() == null ? "" : "/" + status.step(), next.state(),
                    next.step() == null ? "" : "/" + next.step(), next.reason() == null ? "" : " (" + next.reason() + ")");
        }
        status = next;
        return emit(status, changed);
    }

    private List<SourceRecord> emit(WorkflowStatus s, boolean changed) {
        StatusRecords.Progress p = workflow.progress();
        long now = System.currentTimeMillis();
        List<SourceRecord> out = new ArrayList<>();
        if (changed || !p.equals(lastProgress) || now - lastEmitted >= STATUS_EVERY_MS || lastEmitted == 0) {
            out.add(records.record(s, p));
            lastEmitted = now;
            lastProgress = p;
        }
        return out;
    }

    @Override
    public void stop() {
        LOG.info("Coordinator of workflow '{}' stopping in state {}", workflowName, status == null ? "?" : status.state());
    }
}
