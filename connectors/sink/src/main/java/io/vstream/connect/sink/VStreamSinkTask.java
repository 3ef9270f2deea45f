package io.vstream.connect.sink;

import io.vstream.connect.core.Version;
import io.vstream.connect.core.error.Backoff;
import io.vstream.connect.core.error.Classification;
import io.vstream.connect.core.error.ErrorClassifier;
import java.sql.SQLException;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.sink.ErrantRecordReporter;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.sink.SinkTask;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sink task's lifecycle: one {@link Applier} per assigned partition (a {@link PartitionApplier} into its target,
 * or in reshard mode a {@link ReshardApplier} into the new shards); on assignment it rewinds Kafka to
 * what the target says it holds; {@code preCommit} reports only what the target durably holds. A retriable error
 * (deadlock, lock wait timeout, lost connection) drops the uncommitted work, reloads the state from the target (a
 * lost commit's outcome is read, not assumed), rewinds and retries with backoff; a fatal one is pinned to its record
 * (one statement at a time) and then goes to the dead letter queue when one is configured, or stops the task.
 */
public class VStreamSinkTask extends SinkTask {
    private static final Logger LOG = LoggerFactory.getLogger(VStreamSinkTask.class);
    /**
     * A deadlock is retried at once (the server rolled this batch back and the other transaction, e.g. a ghost copy's
     * chunk, has its locks) up to this many times in a row; after that, and for every other retriable error, the
     * task backs off (retry.backoff.initial.ms, doubling).
     */
    static final int IMMEDIATE_DEADLOCK_RETRIES = 3;
    /**
     * For this long after a deadlock every source transaction is committed on its own instead of with the rest of its
     * batch: a batch holds its row locks until its one commit, so while another writer works on the same table (an
     * online DDL's copy chunks, which lock a key range at a time) a retried batch would meet it again, and a deadlock
     * then rolls back one transaction, not a batch.
     */
    static final long ONE_BY_ONE_AFTER_DEADLOCK_MS = 10_000;
    /** How often a ghost-mode task looks for the migration's plan while the coordinator has not written it. */
    private static final long AWAIT_PLAN_MS = 200;

    private SinkSettings settings;
    private ShardRouter router; // reshard mode
    private String connectorName;
    private final Map<TopicPartition, Applier> appliers = new HashMap<>();
    private final Set<TopicPartition> needsRecovery = new HashSet<>();
    private ErrantRecordReporter reporter;
    private Backoff backoff;
    private long failingSinceMs;
    private int deadlocksInRow; // deadlocks since the last batch that went in, retried at once
    private long oneByOneUntilMs; // until then each source transaction is committed on its own (after a deadlock)
    private final ControlCadence controlCadence = new ControlCadence();
    private final Set<TopicPartition> halted = new HashSet<>();
    private final Map<TopicPartition, ApplierMetrics> metrics = new HashMap<>();

    @Override
    public String version() {
        return Version.get();
    }

    @Override
    public void start(Map<String, String> props) {
        VStreamSinkConnectorConfig config = new VStreamSinkConnectorConfig(props);
        connectorName = props.getOrDefault("name", "vstream-sink");
        settings = SinkSettings.of(config, connectorName);
        try {
            reporter = context.errantRecordReporter();
        } catch (NoSuchMethodError | NoClassDefFoundError e) {
            reporter = null;
        }
        backoff = new Backoff(settings.backoffInitial(), settings.backoffMax());
        if (settings.reshard()) {
            try {
                router = ShardRouter.of(settings);
            } catch (IllegalArgumentException e) {
                throw new ConnectException(e.getMessage(), e);
            }
            LOG.info("Sink task applying stream '{}' to the new shards {} (vindex {})", settings.stream(),
                    settings.targets().keySet(), settings.vindex());
        } else {
            LOG.info("Sink task applying stream '{}' to {}", settings.stream(), settings.targets().isEmpty()
                    ? settings.host() + ":" + settings.port() : "the shards " + settings.targets().keySet());
        }
    }

    @Override
    public void open(Collection<TopicPartition> partitions) {
        for (TopicPartition tp : partitions) {
            Applier a = settings.reshard() ? new ReshardApplier(tp.topic(), tp.partition(), settings, router)
                    : new PartitionApplier(tp.topic(), tp.partition(), settings.forTopic(tp.topic()));
            appliers.put(tp, a);
            metrics.put(tp, ApplierMetrics.register(connectorName, a));
            try {
                long applied = a.open();
                if (applied >= 0) {
                    context.offset(tp, applied + 1);
                    LOG.info("{}: the target holds up to offset {} (position {}); resuming after it", tp, applied,
                            a.position());
                } else if (settings.reshard()) {
                    // a new shard that holds nothing needs the whole log, whatever the group committed for the others
                    context.offset(tp, 0);
                    LOG.info("{}: assigned; some new shard holds nothing of it yet: reading from the start", tp);
                } else {
                    LOG.info("{}: assigned; the target holds nothing of it yet", tp);
                }
            } catch (SQLException e) {
                LOG.warn("{}: cannot read the applied state from the target yet ({}); will retry", tp, e.toString());
                needsRecovery.add(tp);
            }
        }
        // A partition this task paused (stopped by the control) and gets back after a rebalance comes back paused:
        // Connect re-pauses what the task once paused, but the new applier is not stopped and would never resume
        // it (bench/stress saw a shard's applier stand still for minutes after a worker restart). The control,
        // read at the next put(), stops it again if it must.
        if (!partitions.isEmpty()) {
            context.resume(partitions.toArray(new TopicPartition[0]));
        }
        // A new applier starts as RUN: it must learn the control in force (a PAUSE, a STOP_AT of a cut-over's
        // checksum) before it applies anything, or it runs past the point the coordinator stopped the stream at
        // (AlterCoverageIT saw a rebalance during a checksum slice carry the ghost beyond the slice's position).
        controlCadence.readNow();
    }

    @Override
    public void close(Collection<TopicPartition> partitions) {
        for (TopicPartition tp : partitions) {
            Applier a = appliers.remove(tp);
            ApplierMetrics m = metrics.remove(tp);
            if (m != null) {
                m.close();
            }
            if (a != null) {
                a.abort();
                a.close();
            }
            needsRecovery.remove(tp);
            halted.remove(tp);
        }
    }

    @Override
    public void put(Collection<SinkRecord> records) {
        if (!records.isEmpty()) {
            LOG.debug("put: {} record(s)", records.size());
        }
        Set<TopicPartition> skip = new HashSet<>(halted);
        refreshControl();
        skip.addAll(halted);
        for (TopicPartition tp : new HashSet<>(needsRecovery)) {
            if (!recover(tp)) {
                skip.add(tp);
            }
        }
        boolean failed = false;
        boolean oneByOne = System.currentTimeMillis() < oneByOneUntilMs;
        Map<TopicPartition, SinkRecord> lastApplied = new HashMap<>();
        TopicPartition previous = null;
        for (SinkRecord r : records) {
            TopicPartition tp = new TopicPartition(r.topic(), r.kafkaPartition());
            if (skip.contains(tp)) {
                continue;
            }
            Applier a = appliers.get(tp);
            if (a == null) {
                continue;
            }
            if (previous != null && !previous.equals(tp)) {
                // commit one partition's run of records before another's: two partitions may write to the same
                // target (a merge), and one thread must never wait for a lock its other open transaction holds
                failed |= !flush(previous, lastApplied.get(previous), skip);
            }
            previous = tp;
            lastApplied.put(tp, r);
            try {
                // in ghost mode a row the ghost table cannot take fails the migration: never skip it to a DLQ
                if (!a.apply(r, reporter == null || settings.ghost() ? null : (rec, err) -> report(rec, err))) {
                    halt(tp, a);
                    skip.add(tp);
                } else if (oneByOne) {
                    failed |= !flush(tp, r, skip); // commits once a source transaction is complete (a COMMIT)
                }
            } catch (SQLException | RuntimeException e) {
                failed = true;
                skip.add(tp);
                onFailure(tp, a, r, e);
            }
        }
        // one commit per partition's run of records (group commit)
        for (Map.Entry<TopicPartition, SinkRecord> e : lastApplied.entrySet()) {
            failed |= !flush(e.getKey(), e.getValue(), skip);
        }
        if (!failed) {
            failingSinceMs = 0;
            backoff.succeeded();
            deadlocksInRow = 0;
        }
        // The coordinator's commands are read here: the worker must come back within the control interval even when
        // no record arrives (a halted partition gets none), not only at its next offset commit
        // (offset.flush.interval.ms, 60 s by default), which held a checksum slice's STOP_AT after its PAUSE.
        context.timeout(controlCadence.interval(System.currentTimeMillis()));
    }

    /**
     * Commits what the partition's applier applied since its last commit; false when that failed (handled as a
     * failure of {@code last}, the last record it applied, and the partition is skipped for the rest of the batch).
     */
    private boolean flush(TopicPartition tp, SinkRecord last, Set<TopicPartition> skip) {
        Applier a = appliers.get(tp);
        if (a == null || skip.contains(tp)) {
            return true;
        }
        try {
            a.flush();
            return true;
        } catch (SQLException | RuntimeException e) {
            skip.add(tp);
            onFailure(tp, a, last, e);
            return false;
        }
    }

    /**
     * Reads the coordinator's command for each partition's target (as often as {@link ControlCadence} says), stops
     * the partitions that have reached what it asks, and lets the others go on.
     */
    private void refreshControl() {
        long now = System.currentTimeMillis();
        if (!controlCadence.due(now)) {
            return;
        }
        for (Map.Entry<TopicPartition, Applier> e : appliers.entrySet()) {
            TopicPartition tp = e.getKey();
            Applier a = e.getValue();
            ControlStore.Control before = a.control();
            ControlStore.Control c;
            try {
                c = a.readControl();
            } catch (SQLException ex) {
                LOG.warn("{}: cannot read the control of stream '{}' ({}); keeping {}", tp, settings.stream(),
                        ex.toString(), before.command());
                continue;
            }
            if (!c.equals(before)) {
                controlCadence.changed(now);
                LOG.info("{}: control {}{}", tp, c.command(), c.stopAt() == null ? "" : " " + c.stopAt());
            }
            if (halted.contains(tp)) {
                if (c.command() == ControlStore.Command.RUN
                        || c.command() == ControlStore.Command.STOP_AT && !a.holdsStopPoint()) {
                    halted.remove(tp);
                    context.resume(tp);
                    LOG.info("{}: resumed at offset {}", tp, a.appliedOffset() + 1);
                } else {
                    acknowledge(tp, a);
                }
            } else if (!needsRecovery.contains(tp) && a.holdsStopPoint()) {
                halt(tp, a);
            }
        }
    }

    private void halt(TopicPartition tp, Applier a) {
        try {
            a.flush(); // what was applied before the stop point is kept
        } catch (SQLException e) {
            // not committed, so not acknowledged: reloaded and applied again, it reaches the stop point again
            LOG.warn("{}: could not commit before stopping ({}); applying again from what the target holds", tp,
                    e.toString());
            a.abort();
            needsRecovery.add(tp);
            rewind(tp, a);
            return;
        }
        a.abort();
        rewind(tp, a);
        if (halted.add(tp)) {
            context.pause(tp);
            controlCadence.changed(System.currentTimeMillis());
            LOG.info("{}: stopped by the control ({}) at position {}", tp, a.control().command(), a.position());
        }
        acknowledge(tp, a);
    }

    private void acknowledge(TopicPartition tp, Applier a) {
        try {
            a.acknowledge();
        } catch (SQLException e) {
            LOG.warn("{}: cannot acknowledge the control ({})", tp, e.toString());
        }
    }

    private void report(SinkRecord record, Throwable error) {
        try {
            reporter.report(record, error).get();
        } catch (Exception e) {
            throw new ConnectException("Could not send a record that cannot be applied to the dead letter queue", e);
        }
        LOG.warn("{}-{}@{}: sent to the dead letter queue: {}", record.topic(), record.kafkaPartition(),
                record.kafkaOffset(), error.getMessage());
    }

    private void onFailure(TopicPartition tp, Applier a, SinkRecord r, Exception e) {
        a.abort();
        Classification c = ErrorClassifier.classify(e);
        if (e instanceof ConnectException ce && !(e.getCause() instanceof SQLException)) {
            if (settings.ghost()) {
                a.reportFailure(ce.getMessage());
            }
            throw ce;
        }
        if (!c.isRetriable()) {
            if (a.serial()) {
                if (settings.ghost()) {
                    a.reportFailure(e.getMessage());
                }
                throw new ConnectException(e.getMessage(), e);
            }
            LOG.info("{}: error at offset {} ({}); re-applying one statement at a time to find the record", tp,
                    r.kafkaOffset(), c.reason());
            a.serialMode(true);
            rewind(tp, a);
            needsRecovery.add(tp);
            return;
        }
        long now = System.currentTimeMillis();
        if (failingSinceMs == 0) {
            failingSinceMs = now;
        } else if (now - failingSinceMs > settings.retryMaxDuration().toMillis()) {
            throw new ConnectException("The target has kept failing for longer than retry.max.duration.ms ("
                    + settings.retryMaxDuration().toMillis() + " ms); last error: " + c.reason(), e);
        }
        boolean deadlock = ErrorClassifier.isDeadlock(e);
        if (deadlock) {
            if (now >= oneByOneUntilMs) {
                LOG.info("{}: a deadlock: committing each source transaction on its own for the next {} ms", tp,
                        ONE_BY_ONE_AFTER_DEADLOCK_MS);
            }
            oneByOneUntilMs = now + ONE_BY_ONE_AFTER_DEADLOCK_MS;
        }
        boolean atOnce = deadlock && ++deadlocksInRow <= IMMEDIATE_DEADLOCK_RETRIES;
        long wait = atOnce ? 0 : backoff.failed();
        LOG.warn("{}: retriable error at offset {} ({}); retrying {}", tp, r.kafkaOffset(), c.reason(),
                atOnce ? "at once (deadlock " + deadlocksInRow + " in a row)" : "in " + wait + " ms");
        ApplierMetrics m = metrics.get(tp);
        if (m != null) {
            m.retried();
        }
        needsRecovery.add(tp);
        rewind(tp, a);
        sleep(wait);
    }

    /** Reconnects and reloads the state from the target, then rewinds Kafka to it; false when not yet possible. */
    private boolean recover(TopicPartition tp) {
        Applier a = appliers.get(tp);
        if (a == null) {
            needsRecovery.remove(tp);
            return true;
        }
        try {
            long applied = a.open();
            needsRecovery.remove(tp);
            rewind(tp, a);
            controlCadence.readNow(); // the control is read again before the next record is applied (see open)
            LOG.info("{}: recovered; the target holds up to offset {}", tp, applied);
            return false; // the records of this put() are before or after the rewind point: take them again
        } catch (PartitionApplier.AwaitingPlan e) {
            // the coordinator writes the plan moments after it created the ghost: look again soon, no backoff
            LOG.debug("{}: {}", tp, e.getMessage());
            rewind(tp, a);
            sleep(AWAIT_PLAN_MS);
            return false;
        } catch (SQLException e) {
            LOG.warn("{}: the target is still unavailable ({})", tp, e.toString());
            rewind(tp, a);
            sleep(backoff.failed());
            return false;
        }
    }

    /** Makes Kafka deliver the partition again from the record after what the target holds (offset 0 if nothing). */
    private void rewind(TopicPartition tp, Applier a) {
        context.offset(tp, a.appliedOffset() + 1);
    }

    @Override
    public Map<TopicPartition, OffsetAndMetadata> preCommit(Map<TopicPartition, OffsetAndMetadata> current) {
        Map<TopicPartition, OffsetAndMetadata> out = new HashMap<>();
        for (Map.Entry<TopicPartition, Applier> e : appliers.entrySet()) {
            long applied = e.getValue().appliedOffset();
            if (applied >= 0) {
                out.put(e.getKey(), new OffsetAndMetadata(applied + 1));
            }
        }
        return out;
    }

    @Override
    public void stop() {
        for (Applier a : appliers.values()) {
            a.abort();
            a.close();
        }
        appliers.clear();
        metrics.values().forEach(ApplierMetrics::close);
        metrics.clear();
        LOG.info("Sink task stopped");
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
