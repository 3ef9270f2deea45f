package io.vstream.connect.source;

import com.github.shyiko.mysql.binlog.BinaryLogClient;
import com.github.shyiko.mysql.binlog.event.Event;
import com.github.shyiko.mysql.binlog.network.ServerException;
import io.vstream.connect.core.error.Backoff;
import io.vstream.connect.core.position.Flavor;
import io.vstream.connect.core.position.GtidPosition;
import io.vstream.connect.core.position.ShardGtid;
import io.vstream.connect.core.reshard.Journal;
import io.vstream.connect.core.topology.ShardAddress;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.connect.errors.ConnectException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Streams one shard's binlog from a GTID position into a bounded queue of records, on its own thread: resolves the
 * start ({@link StreamStart}), runs the copy phase while one is due ({@link CopyPhase}), then runs the binlog client
 * ({@link BinlogConnection}) and hands each event to the shard's {@link BinlogEventSequence}, which decides the
 * records and the position. Touches the shard's binlog over the replication protocol. A lost connection is retried
 * with backoff from the last transaction boundary (the partial transaction is marked aborted); a position the server
 * no longer has, or an event that cannot be decoded, fails the shard with the reason.
 */
final class ShardStreamer implements Runnable {
    private static final Logger LOG = LoggerFactory.getLogger(ShardStreamer.class);

    private final ShardAddress shard;
    private final StreamSettings settings;
    private final long serverId;
    private final RecordFactory records;
    private final BlockingQueue<QueuedRecord> queue;
    private final StreamMetrics metrics;
    private final CopySettings copy;
    private final Journal drainJournal; // the journal a resumed stream must reach
    private final TableDefinitions definitions; // used by this shard's thread only
    private final BinlogEventSequence sequence;

    private volatile boolean running = true;
    private volatile boolean targetReached;
    private volatile Throwable failure;
    private volatile BinaryLogClient client;
    private volatile BinlogSilenceWatch silenceWatch; // of the connection in client
    private volatile Exception clientFailure;
    private boolean receivedSinceConnect;
    private Flavor flavor;
    private Charsets charsets;

    ShardStreamer(ShardAddress shard, StreamSettings settings, CopySettings copy, long serverId, ShardGtid start,
                  long epoch, StreamMetrics metrics) {
        this(shard, settings, copy, serverId, start, epoch, metrics, null);
    }

    /**
     * @param drainJournal when this shard is a participant of a journal the connector knows of (a stream resumed after
     *                     a reshard): if the shard cannot be streamed up to it (gone, binlogs purged), the stream ends
     *                     at it with the fallback mark (or fails, as reshard.fallback says)
     */
    ShardStreamer(ShardAddress shard, StreamSettings settings, CopySettings copy, long serverId, ShardGtid start,
                  long epoch, StreamMetrics metrics, Journal drainJournal) {
        this.drainJournal = drainJournal;
        this.shard = shard;
        this.copy = copy;
        this.settings = settings;
        this.serverId = serverId;
        this.records = new RecordFactory(settings.connectorName(), settings.topicPrefix(), settings.keyspace(),
                shard.name(), epoch, settings.recordSizeLimit());
        this.queue = new LinkedBlockingQueue<>(settings.maxQueueSize());
        this.metrics = metrics;
        this.definitions = new TableDefinitions(shard, this::connect, () -> flavor);
        this.sequence = new BinlogEventSequence(shard.name(), settings, records, metrics, definitions, this::enqueue,
                BinlogEventSequence.Clock.SYSTEM, start);
        metrics.positionSupplier(() -> {
            ShardGtid at = sequence.position();
            return at == null ? "" : at.gtidText();
        });
    }

    ShardAddress shard() {
        return shard;
    }

    BlockingQueue<QueuedRecord> queue() {
        return queue;
    }

    /** Whether the shard's stream has ended at a reshard journal (its last record is the JOURNAL). */
    boolean ended() {
        return sequence.ended();
    }

    /** The reason the shard stopped streaming for good, or {@code null}. */
    Throwable failure() {
        return failure;
    }

    void stop() {
        running = false;
        disconnectQuietly();
    }

    @Override
    public void run() {
        Backoff backoff = new Backoff(settings.backoffInitial(), settings.backoffMax());
        long downSince = 0;
        while (running && !ended()) {
            try {
                streamOnce();
            } catch (FatalStreamException e) {
                if (!giveUpToJournal(e.getMessage())) {
                    failure = e;
                }
                break;
            } catch (ConnectException e) {
                failure = e; // refused by a check (uncopyable table, copy that cannot continue): the message says why
                break;
            } catch (Exception e) {
                if (running) {
                    LOG.warn("Shard {}: stream interrupted ({}); resuming from {}", shard.name(), e.toString(),
                            position() == null ? "the start position" : position().gtidText());
                }
            }
            if (!running || ended()) {
                break;
            }
            sequence.abortOpenTransaction();
            metrics.reconnected();
            if (receivedSinceConnect) {
                downSince = 0;
                backoff.succeeded();
            }
            long now = System.nanoTime();
            if (downSince == 0) {
                downSince = now;
            } else if (now - downSince > settings.retryMaxDuration().toNanos()) {
                if (giveUpToJournal("unreachable for longer than retry.max.duration.ms")) {
                    break;
                }
                failure = new ConnectException("Shard " + shard.name() + " (" + shard.host() + ":" + shard.port()
                        + ") has been unreachable for longer than retry.max.duration.ms ("
                        + settings.retryMaxDuration().toMillis() + " ms); last position "
                        + (position() == null ? "none" : position().gtidText()));
                break;
            }
            sleep(backoff.failed());
        }
        disconnectQuietly();
        definitions.close();
    }

    private ShardGtid position() {
        return sequence.position();
    }

    /** Connects, copies what is left to copy, then streams the binlog; returns or throws when that ends. */
    private void streamOnce() throws Exception {
        receivedSinceConnect = false;
        StreamStart.Resolved start = StreamStart.resolve(shard, settings, copy, position(), this::connect,
                () -> running);
        flavor = start.flavor();
        charsets = start.charsets();
        sequence.position(start.position());
        // every (re)start is announced: a consumer learns the position the log resumes from, and that a run of copy
        // rows cut short before it was abandoned (docs/copy.md)
        sequence.announceStart();
        if (position().isCopying()) {
            CopyPhase phase = new CopyPhase(shard, settings, copy, records, charsets, flavor, copyStream(), metrics);
            while (running && position().isCopying()) {
                phase.runCycle();
            }
        }
        if (running && !ended()) {
            binlogUntil(null);
        }
    }

    /**
     * A resumed stream that cannot reach its journal (the old shard is gone or has purged its binlogs): ends at the
     * journal with the fallback mark when reshard.fallback=copy, so the connector copies the new shards; returns false
     * (the caller fails the shard) when there is no such journal, or with reshard.fallback=fail, after saying why.
     */
    private boolean giveUpToJournal(String why) {
        Journal j = drainJournal;
        if (j == null) {
            return false;
        }
        if (!settings.reshardFallbackCopy()) {
            failure = new ConnectException("Shard " + shard.name() + " was retired by reshard journal " + j.id()
                    + ", but this stream cannot read it up to the journal (" + why + "), and reshard.fallback=fail."
                    + " Either bring the old shard back (with its binlogs) and restart the task, or set"
                    + " reshard.fallback=copy to copy the new shards " + j.shardNames() + " afresh");
            return true;
        }
        LOG.warn("Shard {}: cannot stream up to reshard journal {} ({}); falling back to a fresh copy of the new"
                + " shards {} (reshard.fallback=copy)", shard.name(), j.id(), why, j.shardNames());
        sequence.endAtJournal(j, true, System.currentTimeMillis());
        disconnectQuietly();
        return true;
    }

    private Connection connect() throws SQLException {
        return ShardConnections.open(shard, settings.user(), settings.password(),
                (int) settings.connectTimeout().toMillis(), settings.tls());
    }

    private CopyPhase.Stream copyStream() {
        return new CopyPhase.Stream() {
            @Override
            public boolean running() {
                return running && !ended();
            }

            @Override
            public ShardGtid position() {
                return sequence.position();
            }

            @Override
            public void position(ShardGtid next) {
                sequence.position(next);
            }

            @Override
            public void catchUp(GtidPosition target) throws Exception {
                binlogUntil(target);
            }

            @Override
            public void emit(QueuedRecord record) {
                sequence.emit(record);
            }

            @Override
            public void fieldIfChanged(TableDecoder decoder, long tsMs) {
                sequence.fieldIfChanged(decoder, tsMs);
            }

            @Override
            public void heartbeat() {
                sequence.maybeHeartbeat(System.currentTimeMillis(), false);
            }

            @Override
            public Connection connect() throws SQLException {
                return ShardStreamer.this.connect();
            }

            @Override
            public GtidPosition currentServerPosition() throws SQLException {
                try (Connection c = ShardStreamer.this.connect()) {
                    return GtidPosition.parse(flavor, ServerPreflight.currentPosition(c, flavor));
                }
            }
        };
    }

    /**
     * Streams the binlog from the committed position: until it contains {@code target} (then returns), or, with no
     * target, until the connection ends (then throws, so the caller reconnects).
     */
    private void binlogUntil(GtidPosition target) throws Exception {
        if (target != null && position().gtid().contains(target)) {
            return;
        }
        clientFailure = null;
        targetReached = false;
        Duration serverHeartbeat = serverHeartbeat(settings.heartbeatInterval());
        BinaryLogClient c = BinlogConnection.client(shard, settings, serverId, position(), serverHeartbeat);
        c.registerEventListener(this::onEventSafely);
        c.registerLifecycleListener(new BinaryLogClient.AbstractLifecycleListener() {
            @Override
            public void onCommunicationFailure(BinaryLogClient client, Exception ex) {
                clientFailure = ex;
            }

            @Override
            public void onEventDeserializationFailure(BinaryLogClient client, Exception ex) {
                failure = new ConnectException("Shard " + shard.name() + ": a binlog event after "
                        + position().gtidText() + " could not be decoded; stopping rather than skipping it", ex);
                running = false;
                disconnectQuietly();
            }
        });
        sequence.connecting(charsets, target);
        client = c;
        if (!running) {
            return;
        }
        LOG.info("Shard {}: streaming the binlog of {}:{} from {}{} (server_id {})", shard.name(), shard.host(),
                shard.port(), position().gtidText(), target == null ? "" : " to " + target, serverId);
        BinlogSilenceWatch watch = new BinlogSilenceWatch(shard.name(), BinlogSilenceWatch.limit(serverHeartbeat),
                this::disconnectQuietly);
        silenceWatch = watch.start();
        try {
            c.connect();
        } catch (ServerException e) {
            throw BinlogConnection.classify(e, shard, position(), settings.user());
        } finally {
            watch.close();
        }
        if (targetReached || ended()) {
            return;
        }
        Exception f = clientFailure;
        if (f instanceof ServerException se) {
            throw BinlogConnection.classify(se, shard, position(), settings.user());
        }
        if (f != null) {
            throw f;
        }
        if (running) {
            throw new java.io.EOFException("the server closed the binlog connection");
        }
    }

    private void onEventSafely(Event event) {
        if (!running) {
            disconnectQuietly(); // stopped while this connection was being opened
            return;
        }
        BinlogSilenceWatch watch = silenceWatch;
        watch.eventStarts();
        try {
            receivedSinceConnect = true;
            BinlogEventSequence.Step step = sequence.onEvent(event);
            if (step == BinlogEventSequence.Step.TARGET_REACHED) {
                targetReached = true;
            }
            if (step != BinlogEventSequence.Step.READ_ON) {
                disconnectQuietly();
            }
        } catch (RuntimeException e) {
            if (!running) {
                return;
            }
            failure = e instanceof ConnectException ? e : new ConnectException("Shard " + shard.name()
                    + ": cannot process the binlog event after " + position().gtidText() + ": " + e.getMessage(), e);
            running = false;
            disconnectQuietly();
        } finally {
            watch.eventEnds();
        }
    }

    /**
     * How long the binlog must stay idle before the server sends its heartbeat event: an eighth of the heartbeat
     * interval, between 20 and 100 ms (an idle server then sends a few dozen bytes some 10-50 times a second).
     */
    static Duration serverHeartbeat(Duration heartbeatInterval) {
        return Duration.ofMillis(Math.max(20, Math.min(100, heartbeatInterval.toMillis() / 8)));
    }

    /** Puts a record on the queue, waiting for room while the stream runs; false if stopped first. */
    private boolean enqueue(QueuedRecord r) {
        try {
            while (running) {
                if (queue.offer(r, 200, TimeUnit.MILLISECONDS)) {
                    return true;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            running = false;
        }
        return false;
    }

    private void disconnectQuietly() {
        BinaryLogClient c = client;
        if (c != null && c.isConnected()) {
            try {
                c.disconnect();
            } catch (Exception e) {
                LOG.debug("Shard {}: disconnect failed", shard.name(), e);
            }
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
