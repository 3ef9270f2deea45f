package io.vstream.connect.coordinator;

import io.vstream.connect.core.Version;
import io.vstream.connect.core.error.Backoff;
import io.vstream.connect.core.error.ErrorClassifier;
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
    private static final long WATCH_EVERY_MS = 3_000;
    private static final long MAX_BACKOFF_MS = 30_000;
    private static final long STALL_GRACE_MS = 15_000;

    private VStreamCoordinatorConnectorConfig config;
    private Workflow workflow;
    private StatusRecords records;
    private WorkflowStatus status;
    private String workflowName;
    private long lastEmitted;
    private StatusRecords.Progress lastProgress;
    private boolean first = true;
    private boolean immediate; // the next round runs without waiting: the workflow has just moved to a new state
    private ConnectorWatch watch;
    private long lastWatched;
    private long stalledSince;
    private String reverseStreamTrouble; // REVERTIBLE: why the reverse stream's connectors do not run, or null
    private long troubleSince;
    private int troubles;
    private Backoff serverBackoff; // the wait after each failed round: twice poll.interval.ms, doubling
    private long retryAt;
    private OnDemandDiff diff;
    private DiffStatus lastDiff;
    private final ShardsCadence shardsCadence = new ShardsCadence();
    private List<String> lastConnectors = List.of();
    private CoordinatorMetrics metrics;

    @Override
    public String version() {
        return Version.get();
    }

    @Override
    public void start(Map<String, String> props) {
        config = new VStreamCoordinatorConnectorConfig(props);
        serverBackoff = new Backoff(Math.min(MAX_BACKOFF_MS, 2 * config.pollInterval().toMillis()), MAX_BACKOFF_MS);
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
        if (System.currentTimeMillis() < retryAt) {
            return emit(status, false); // backing off after a server failed
        }
        boolean cancel = config.cancelled() && (!status.state().isFinal() || status.waitsOnConnectors());
        // after the swap (a revert window) the workflow has nothing to wait for: a stopped reverse stream is told in
        // the reason, and one that failed for good ends the window (the workflow sees its applier's failure)
        boolean swapped = status.state() == WorkflowState.REVERTIBLE || status.state() == WorkflowState.REVERTING;
        if (!cancel && watch != null && swapped) {
            ConnectorHealth.Verdict v = watchedHealth();
            if (v != null) {
                reverseStreamTrouble = v.kind() == ConnectorHealth.Kind.HEALTHY ? null : v.reason();
            }
        } else if (!cancel && watch != null && (!status.state().isFinal() || status.waitsOnConnectors())) {
            ConnectorHealth.Verdict v = watchedHealth();
            if (v != null && v.kind() == ConnectorHealth.Kind.FAILED) {
                return advance(status.waitingOnConnectors(WorkflowState.FAILED, v.reason()));
            }
            if (v != null && v.kind() == ConnectorHealth.Kind.STALLED && stalledLongEnough()) {
                return advance(status.waitingOnConnectors(WorkflowState.STALLED, v.reason()));
            }
            if (v != null && v.kind() == ConnectorHealth.Kind.HEALTHY) {
                stalledSince = 0;
            }
            if (status.waitsOnConnectors()) {
                return v == null ? emit(status, false) : advance(status.resumed());
            }
        }
        WorkflowStatus next;
        try {
            next = cancel ? workflow.cancel(status) : workflow.step(status);
        } catch (java.sql.SQLException e) {
            return serverTrouble(e);
        }
        troubleSince = 0;
        troubles = 0;
        serverBackoff.succeeded();
        if (next.state() == WorkflowState.REVERTIBLE && reverseStreamTrouble != null) {
            next = new WorkflowStatus(WorkflowState.REVERTIBLE, null, next.attempts(), "the reverse stream is not"
                    + " running (" + reverseStreamTrouble + "): the originals fall behind until it runs again; "
                    + next.reason());
        }
        List<SourceRecord> out = advance(next);
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
     * Whether the connectors have looked stalled for {@value #STALL_GRACE_MS} ms: a rebalance, a task restarting or
     * a connector deployed a moment after the coordinator is not worth a state of its own.
     */
    private boolean stalledLongEnough() {
        long now = System.currentTimeMillis();
        if (stalledSince == 0) {
            stalledSince = now;
        }
        return now - stalledSince >= STALL_GRACE_MS;
    }

    /**
     * How the workflow's connectors are ({@link ConnectorWatch}), asked at most every {@value #WATCH_EVERY_MS} ms;
     * {@code null} when not asked this round or when the Connect REST API did not answer (logged; the state stays).
     */
    private ConnectorHealth.Verdict watchedHealth() throws InterruptedException {
        long now = System.currentTimeMillis();
        if (now - lastWatched < WATCH_EVERY_MS) {
            return null;
        }
        lastWatched = now;
        try {
            return watch.check();
        } catch (java.io.IOException e) {
            LOG.warn("Workflow {}: cannot ask the Connect REST API ({}) how the workflow's connectors are: {}",
                    workflowName, config.watchUrls(), e.toString());
            return null;
        }
    }

    /**
     * A server failed this round: an account it refuses fails the workflow at once (no retry can help); anything else
     * is retried with a doubling backoff (up to {@value #MAX_BACKOFF_MS} ms) for at most {@code server.retry.max.ms},
     * then the workflow fails with the last error.
     */
    private List<SourceRecord> serverTrouble(java.sql.SQLException e) {
        if (ErrorClassifier.isAccessDenied(e)) {
            return advance(status.failed("a server refused the coordinator's account: " + e.getMessage() + " (error "
                    + e.getErrorCode() + "); fix the password, or grant what the server names to the account it"
                    + " names (docs/grants.md lists every workflow's grants), then deploy the workflow again"));
        }
        long now = System.currentTimeMillis();
        if (troubleSince == 0) {
            troubleSince = now;
        }
        troubles++;
        long limit = config.serverRetryMax().toMillis();
        if (now - troubleSince >= limit) {
            return advance(status.failed("a server failed for " + (now - troubleSince) / 1000 + " s (" + troubles
                    + " attempts; server.retry.max.ms=" + limit + "): " + e.getMessage()));
        }
        long backoff = serverBackoff.failed();
        retryAt = now + backoff;
        LOG.warn("Workflow {}: a server failed ({}); attempt {}, retrying in {} ms, failing after {} s", workflowName,
                e.toString(), troubles, backoff, limit / 1000);
        return emit(new WorkflowStatus(status.state(), status.step(), status.attempts(), "waiting for a server"
                + " (attempt " + troubles + ", the workflow fails after " + limit / 1000 + " s): " + e.getMessage(),
                status.resume()), true);
    }

    /** Moves to {@code next}, logging a change of state, and emits the status. */
    private List<SourceRecord> advance(WorkflowStatus next) {
        boolean changed = !next.equals(status);
        boolean moved = next.state() != status.state() || next.step() != status.step();
        if (moved) {
            // a step forward is followed at once; a retry (a failed cut-over attempt) or a stall waits a round
            immediate = !next.state().isFinal() && next.state() != WorkflowState.STALLED
                    && next.attempts() == status.attempts();
            LOG.info("Workflow {}: {}", workflowName, transition(next));
        } else if (changed && LOG.isDebugEnabled()) {
            LOG.debug("Workflow {}: {}", workflowName, transition(next)); // a throttle's reason changes every round
        }
        status = next;
        return emit(status, changed);
    }

    private String transition(WorkflowStatus next) {
        return status.state() + (status.step() == null ? "" : "/" + status.step()) + " -> " + next.state()
                + (next.step() == null ? "" : "/" + next.step()) + (next.reason() == null ? "" : " (" + next.reason()
                + ")");
    }

    private List<SourceRecord> emit(WorkflowStatus s, boolean changed) {
        StatusRecords.Progress p = workflow.progress();
        long now = System.currentTimeMillis();
        List<SourceRecord> out = new ArrayList<>();
        List<ShardStatus> shards = workflow.shards();
        List<String> connectors = watch == null ? List.of() : watch.summaries();
        DiffStatus d = diff.status();
        boolean shardsDue = shardsCadence.due(now, changed, shards);
        if (changed || !p.equals(lastProgress) || !java.util.Objects.equals(d, lastDiff) || shardsDue
                || !connectors.equals(lastConnectors) || now - lastEmitted >= STATUS_EVERY_MS || lastEmitted == 0) {
            out.add(records.record(s, p, d, shardsDue ? shards : List.of(), connectors));
            if (shardsDue) {
                shardsCadence.written(now, shards);
            }
            lastConnectors = connectors;
            metrics.update(s, p, d, workflow.lastWriteBlockMs());
            lastEmitted = now;
            lastProgress = p;
            lastDiff = d;
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
