package io.vstream.connect.source;

import io.vstream.connect.core.Version;
import io.vstream.connect.core.position.OffsetCodec;
import io.vstream.connect.core.position.ShardGtid;
import io.vstream.connect.core.topology.ShardAddress;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.source.SourceRecord;
import org.apache.kafka.connect.source.SourceTask;
import org.apache.kafka.connect.source.TransactionContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Streams this task's shards: one {@link ShardStreamer} thread per shard, each feeding its own bounded queue, and a
 * poll() that drains them one shard at a time, switching shards only at source transaction boundaries. With
 * exactly-once support and {@code transaction.boundary=connector}, the Kafka transaction is committed at the last
 * boundary of each batch (so it only ever holds whole source transactions) and aborted when a shard's reader has to
 * replay a transaction it had started to emit.
 */
public class VStreamSourceTask extends SourceTask {
    private static final Logger LOG = LoggerFactory.getLogger(VStreamSourceTask.class);

    private final List<ShardStreamer> streamers = new ArrayList<>();
    private final List<Thread> threads = new ArrayList<>();
    private final List<StreamMetrics> metrics = new ArrayList<>();
    private VStreamSourceTaskConfig config;
    private SourceRecord pendingTopology;
    private SourceRecord pendingFallback;
    private int cursor;
    private ShardStreamer current; // non-null while the shard at cursor is inside a transaction
    private long pollIntervalMs;
    private boolean keyspaceOwner;
    private boolean copyOnStart;
    private boolean keyspaceCopyCompleted;
    private long nextKeyspaceCheck;
    private int maxBatch;

    @Override
    public String version() {
        return Version.get();
    }

    @Override
    public void start(Map<String, String> props) {
        config = new VStreamSourceTaskConfig(props);
        String name = props.getOrDefault("name", "vstream-source");
        List<ShardAddress> all = config.topology();
        List<ShardAddress> mine = config.taskShards();
        pollIntervalMs = config.pollInterval().toMillis();
        maxBatch = config.maxBatchSize();
        copyOnStart = config.copySettings().copyOnStart();
        ReshardPlan plan = config.reshardPlan();
        if (mine.stream().anyMatch(s -> s.name().equals(all.get(0).name()))) {
            TopologyGuard.check(context.offsetStorageReader(), name, config.keyspace(), all, plan.retired);
            keyspaceCopyCompleted = TopologyGuard.copyCompleted(context.offsetStorageReader(), config.keyspace());
            keyspaceOwner = true;
            pendingTopology = TopologyGuard.record(config.topicPrefix(), config.keyspace(), all,
                    keyspaceCopyCompleted, plan);
            pendingFallback = TopologyGuard.fallbackRecord(context.offsetStorageReader(), config.topicPrefix(),
                    config.keyspace(), all, keyspaceCopyCompleted, plan);
        }
        StreamSettings settings = new StreamSettings(name, config.keyspace(), config.database(), config.topicPrefix(),
                config.avroFieldNames(), config.user(), config.password().value(), config.connectTimeout(), config.retryBackoffInitial(),
                config.retryBackoffMax(), config.retryMaxDuration(), config.heartbeatInterval(),
                config.maxQueueSize(), config.tableFilter(), config.journalDatabase(), config.reshardFallbackCopy(),
                RecordSizeLimit.of(config.originals()), config.tls(), config.migrationStart());
        List<Map<String, String>> partitions = new ArrayList<>();
        mine.forEach(s -> partitions.add(OffsetCodec.partition(config.keyspace(), s.name())));
        Map<Map<String, String>, Map<String, Object>> stored = context.offsetStorageReader().offsets(partitions);
        for (ShardAddress shard : mine) {
            Map<String, Object> offset = stored.get(OffsetCodec.partition(config.keyspace(), shard.name()));
            io.vstream.connect.core.reshard.Journal ended = JournalMarks.journalOf(offset);
            if (ended != null) {
                LOG.info("Shard {}: its stream ended at reshard journal {}; waiting for the connector to move to {}",
                        shard.name(), ended.id(), ended.shardNames());
                continue;
            }
            boolean copyNew = offset == null && plan.copy.contains(shard.name());
            ShardGtid start = copyNew ? null : startOf(shard, offset, plan);
            int index = indexOf(all, shard);
            StreamMetrics m = StreamMetrics.register(name, config.keyspace(), shard.name());
            CopySettings copy = copyNew ? config.copySettings().forcingCopy() : config.copySettings();
            if (copyNew) {
                LOG.warn("Shard {}: copying it afresh (reshard fallback after journal {})", shard.name(),
                        plan.fallbackJournal);
            }
            ShardStreamer s = new ShardStreamer(shard, settings, copy, config.serverId(name, index), start,
                    plan.epochOf(shard.name()), m, plan.drain.get(shard.name()));
            metrics.add(m);
            streamers.add(s);
        }
        for (ShardStreamer s : streamers) {
            Thread t = new Thread(s, "vstream-source-" + name + "-" + s.shard().name());
            t.setDaemon(true);
            threads.add(t);
            t.start();
        }
        LOG.info("Task streaming shards {} of keyspace '{}'", mine.stream().map(ShardAddress::name).toList(),
                config.keyspace());
    }

    private ShardGtid startOf(ShardAddress shard, Map<String, Object> offset, ReshardPlan plan) {
        if (offset != null) {
            ShardGtid stored = OffsetCodec.fromOffset(OffsetCodec.partition(config.keyspace(), shard.name()), offset);
            LOG.info("Shard {}: resuming from stored offset {}", shard.name(), stored.gtidText());
            return stored;
        }
        String journaled = plan.starts.get(shard.name());
        if (journaled != null) {
            LOG.info("Shard {}: starting from its position in reshard journal {}: {}", shard.name(),
                    plan.epochOf(shard.name()), journaled);
            return ShardGtid.of(config.keyspace(), shard.name(),
                    io.vstream.connect.core.position.GtidPosition.parse(journaled));
        }
        return switch (config.startMode()) {
            case COPY, CURRENT, MIGRATION -> null; // MIGRATION: StreamStart reads the recorded position
            case POSITION -> {
                Optional<ShardGtid> p = StartPositions.forShard(config.startPosition(), config.keyspace(), shard.name());
                yield p.orElseThrow(() -> new ConnectException("start.position has no entry for shard " + shard.name()));
            }
        };
    }

    private static int indexOf(List<ShardAddress> all, ShardAddress shard) {
        for (int i = 0; i < all.size(); i++) {
            if (all.get(i).name().equals(shard.name())) {
                return i;
            }
        }
        return all.size();
    }

    @Override
    public List<SourceRecord> poll() throws InterruptedException {
        for (ShardStreamer s : streamers) {
            Throwable f = s.failure();
            if (f != null) {
                throw f instanceof ConnectException ce ? ce : new ConnectException(f.getMessage(), f);
            }
        }
        List<SourceRecord> batch = new ArrayList<>();
        TransactionContext txn = context.transactionContext();
        SourceRecord lastBoundary = null;
        if (pendingTopology != null) {
            batch.add(pendingTopology);
            lastBoundary = pendingTopology;
            pendingTopology = null;
        }
        if (pendingFallback != null) {
            batch.add(pendingFallback);
            lastBoundary = pendingFallback;
            pendingFallback = null;
        }
        if (streamers.isEmpty()) {
            Thread.sleep(pollIntervalMs); // every shard of this task has ended at a journal: the connector moves on
            if (txn != null && lastBoundary != null) {
                txn.commitTransaction(lastBoundary);
            }
            return batch;
        }
        SourceRecord keyspaceCopy = keyspaceCopyCompleted();
        if (keyspaceCopy != null) {
            batch.add(keyspaceCopy);
            lastBoundary = keyspaceCopy;
        }
        SourceRecord lastInTxn = null;
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(pollIntervalMs);
        int idle = 0;
        while (batch.size() < maxBatch) {
            ShardStreamer s = current != null ? current : streamers.get(cursor % streamers.size());
            QueuedRecord q = s.queue().poll();
            if (q == null) {
                if (current != null) {
                    // mid-transaction: never switch shards; wait for the rest of it (or return what we have)
                    if (!batch.isEmpty() || System.nanoTime() > deadline) {
                        break;
                    }
                    QueuedRecord next = s.queue().poll(20, TimeUnit.MILLISECONDS);
                    if (next == null) {
                        continue;
                    }
                    q = next;
                } else {
                    cursor++;
                    if (++idle >= streamers.size()) {
                        if (!batch.isEmpty() || System.nanoTime() > deadline) {
                            break;
                        }
                        Thread.sleep(5);
                        idle = 0;
                    }
                    continue;
                }
            }
            idle = 0;
            if (q.abort()) {
                if (txn != null) {
                    if (lastInTxn != null) {
                        txn.abortTransaction(lastInTxn);
                    } else {
                        txn.abortTransaction();
                    }
                }
                lastInTxn = null;
                current = null;
                cursor++;
                continue;
            }
            batch.add(q.record());
            if (q.boundary()) {
                lastBoundary = q.record();
                lastInTxn = null;
                current = null;
                cursor++;
            } else {
                lastInTxn = q.record();
                current = s;
            }
        }
        if (txn != null && lastBoundary != null) {
            txn.commitTransaction(lastBoundary);
        }
        return batch;
    }

    /**
     * The task that owns the keyspace topic emits one COPY_COMPLETED for the whole stream once every shard's stored
     * offset shows its copy done (checked every heartbeat interval until then).
     */
    private SourceRecord keyspaceCopyCompleted() {
        if (!keyspaceOwner || keyspaceCopyCompleted || !copyOnStart
                || System.currentTimeMillis() < nextKeyspaceCheck) {
            return null;
        }
        nextKeyspaceCheck = System.currentTimeMillis() + config.heartbeatInterval().toMillis();
        if (!TopologyGuard.allShardsCopied(context.offsetStorageReader(), config.keyspace(), config.topology())) {
            return null;
        }
        keyspaceCopyCompleted = true;
        LOG.info("The copy of keyspace '{}' has completed on every shard", config.keyspace());
        return TopologyGuard.copyCompletedRecord(config.topicPrefix(), config.keyspace(), config.topology(),
                config.reshardPlan());
    }

    @Override
    public void stop() {
        for (ShardStreamer s : streamers) {
            s.stop();
        }
        for (Thread t : threads) {
            try {
                t.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        metrics.forEach(StreamMetrics::close);
        LOG.info("Task stopped");
    }

    /** For tests and metrics: the number of shards this task streams. */
    Collection<ShardStreamer> streamers() {
        return streamers;
    }

}
