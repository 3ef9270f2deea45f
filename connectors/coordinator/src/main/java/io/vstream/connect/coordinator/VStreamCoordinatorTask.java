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
 * every {@code poll.interval.ms}, and writes a status record (which also persists the state) when {@link StatusCadence}
 * says. What the workflow's connectors do to it is {@link ConnectorGate}'s decision, what a failing server does
 * {@link ServerRetry}'s, how a round's move is followed {@link StatusChange}'s; the task asks and obeys.
 */
public class VStreamCoordinatorTask extends SourceTask {
    private static final Logger LOG = LoggerFactory.getLogger(VStreamCoordinatorTask.class);

    private VStreamCoordinatorConnectorConfig config;
    private Workflow workflow;
    private StatusRecords records;
    private WorkflowStatus status;
    private String workflowName;
    private boolean first = true;
    private boolean immediate; // the next round runs without waiting: the workflow has just moved to a new state
    private ConnectorWatch watch;
    private final ConnectorGate gate = new ConnectorGate();
    private ServerRetry serverRetry;
    private OnDemandDiff diff;
    private final StatusCadence statusCadence = new StatusCadence();
    private final ShardsCadence shardsCadence = new ShardsCadence();
    private CoordinatorMetrics metrics;

    @Override
    public String version() {
        return Version.get();
    }

    @Override
    public void start(Map<String, String> props) {
        config = new VStreamCoordinatorConnectorConfig(props);
        serverRetry = new ServerRetry(config.pollInterval(), config.serverRetryMax());
        workflowName = config.workflowName(props.getOrDefault("name", "vstream-coordinator"));
        workflow = switch (config.workflowType()) {
            case ONLINE_DDL -> new OnlineDdlWorkflow(config, workflowName,
                    new JdbcOnlineDdlServers(config, workflowName));
            case RESHARD -> new ReshardWorkflow(config, workflowName, new JdbcReshardServers(config));
            case CLONE -> new CloneWorkflow(config, workflowName, new JdbcCloneServers(config, workflowName));
        };
        String definition = WorkflowDefinition.of(config);
        records = new StatusRecords(config.statusTopic(), workflowName, workflow.type().label(), definition);
        if (!config.watchUrls().isEmpty() && !config.watchConnectors().isEmpty()) {
            watch = new ConnectorWatch(config.watchUrls(), config.watchConnectors(), config.watchAuthorization());
        } else {
            LOG.warn("Workflow {}: watch.connect.url and watch.connectors are not set: a failed task of the"
                    + " workflow's source or sink will not show in its status", workflowName);
        }
        Map<String, Object> stored = context.offsetStorageReader().offset(WorkflowStatus.partition(workflowName));
        WorkflowDefinition.check(stored, definition, workflowName, props.getOrDefault("name", workflowName));
        status = WorkflowStatus.fromOffset(stored);
        diff = new OnDemandDiff(workflowName, config.diffSlice(), DiffStatus.fromOffset(stored),
                config.diffRequest());
        metrics = CoordinatorMetrics.register(workflowName);
        LOG.info("Coordinator of workflow '{}' starting in state {}{}", workflowName, status.state(),
                status.step() == null ? "" : " at step " + status.step());
    }

    @Override
    public List<SourceRecord> poll() throws InterruptedException {
        if (first) {
            first = false;
            immediate = true; // the first round runs at once
            return emit(status, true); // the state the workflow (re)starts in
        }
        if (!immediate) {
            pause();
        }
        immediate = false;
        if (!serverRetry.due(System.currentTimeMillis())) {
            return emit(status, false); // backing off after a server failed
        }
        boolean cancel = config.cancelled() && status.canMove();
        if (!cancel && watch != null && status.canMove()) {
            ConnectorHealth.Verdict v = watchedHealth();
            ConnectorGate.Decision d = gate.before(status, v, System.currentTimeMillis());
            if (d.action() == ConnectorGate.Action.MOVE) {
                return advance(d.status());
            }
            if (d.action() == ConnectorGate.Action.WAIT) {
                return emit(status, false);
            }
        }
        WorkflowStatus next;
        try {
            next = cancel ? workflow.cancel(status) : workflow.step(status);
        } catch (java.sql.SQLException e) {
            return serverTrouble(e);
        }
        serverRetry.succeeded();
        List<SourceRecord> out = advance(gate.told(next));
        if (!cancel && diff.running()) {
            diff.slice(workflow, status);
            out = new ArrayList<>(out);
            out.addAll(emit(status, false));
        }
        return out;
    }

    /** Waits the poll interval, or less when the workflow has news for a round (a shard's copy has just ended). */
    private void pause() throws InterruptedException {
        long until = System.nanoTime() + config.pollInterval().toNanos();
        long left;
        while ((left = until - System.nanoTime()) > 0 && !workflow.wantsRound()) {
            Thread.sleep(Math.max(1, Math.min(50, left / 1_000_000)));
        }
    }

    /**
     * How the workflow's connectors are ({@link ConnectorWatch}), asked when the gate says it is time; {@code null}
     * when not asked this round or when the Connect REST API did not answer (logged; the state stays).
     */
    private ConnectorHealth.Verdict watchedHealth() throws InterruptedException {
        if (!gate.due(System.currentTimeMillis())) {
            return null;
        }
        try {
            return watch.check();
        } catch (java.io.IOException e) {
            LOG.warn("Workflow {}: cannot ask the Connect REST API ({}) how the workflow's connectors are: {}",
                    workflowName, config.watchUrls(), e.toString());
            return null;
        }
    }

    /** A server failed this round: the workflow fails, or waits and tries again ({@link ServerRetry}). */
    private List<SourceRecord> serverTrouble(java.sql.SQLException e) {
        ServerRetry.Outcome o = serverRetry.failed(status, e, System.currentTimeMillis());
        if (o.fails()) {
            return advance(o.status());
        }
        LOG.warn("Workflow {}: a server failed ({}); attempt {}, retrying in {} ms, failing after {} s", workflowName,
                e.toString(), o.attempt(), o.waitMs(), config.serverRetryMax().toMillis() / 1000);
        return emit(o.status(), true);
    }

    /** Moves to {@code next}, logging a change of state, and emits the status. */
    private List<SourceRecord> advance(WorkflowStatus next) {
        StatusChange change = new StatusChange(status, next);
        if (change.moved()) {
            immediate = change.followsAtOnce();
            LOG.info("Workflow {}: {}", workflowName, change.describe());
        } else if (change.changed() && LOG.isDebugEnabled()) {
            LOG.debug("Workflow {}: {}", workflowName, change.describe()); // a throttle's reason changes every round
        }
        status = next;
        return emit(status, change.changed());
    }

    private List<SourceRecord> emit(WorkflowStatus s, boolean changed) {
        StatusRecords.Progress p = workflow.progress();
        long now = System.currentTimeMillis();
        List<SourceRecord> out = new ArrayList<>();
        List<ShardStatus> shards = workflow.shards();
        List<String> connectors = watch == null ? List.of() : watch.summaries();
        DiffStatus d = diff.status();
        boolean shardsDue = shardsCadence.due(now, changed, shards);
        if (statusCadence.due(now, changed, p, d, connectors, shardsDue)) {
            out.add(records.record(s, p, d, shardsDue ? shards : List.of(), connectors));
            if (shardsDue) {
                shardsCadence.written(now, shards);
            }
            metrics.update(s, p, d, workflow.lastWriteBlockMs());
            statusCadence.written(now, p, d, connectors);
        }
        return out;
    }

    @Override
    public void stop() {
        if (workflow != null) {
            workflow.close();
        }
        if (metrics != null) {
            metrics.close();
        }
        LOG.info("Coordinator of workflow '{}' stopping in state {}", workflowName, status == null ? "?" : status.state());
    }
}
