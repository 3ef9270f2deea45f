package io.vstream.connect.source;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ends a binlog connection that has gone silent. The client asks the server for a heartbeat event whenever it has
 * nothing to send, so a live connection delivers something at least every heartbeat period; one that delivers
 * nothing for {@link #limit(Duration) many periods} is dead although its socket is open (seen under load after a
 * worker restart: the server's dump thread waited for updates that the connection never received, and the stream
 * stood still with no error). The watch then calls {@code onSilence}, which disconnects; the streamer resumes from its
 * committed position, as after any interruption.
 * <p>
 * Time spent handling an event (which includes waiting for room in a full queue) is not silence: the watch only
 * counts time with no event in hand. One daemon thread per connection; {@link #close()} ends it.
 */
final class BinlogSilenceWatch implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(BinlogSilenceWatch.class);
    /** The least silence that ends a connection, whatever the heartbeat period. */
    static final Duration MIN_LIMIT = Duration.ofSeconds(15);
    /** Heartbeat periods without an event that end a connection. */
    static final int PERIODS = 20;

    private final String shard;
    private final long limitNanos;
    private final Runnable onSilence;
    private final Thread thread;
    private volatile long lastEventEndNanos = System.nanoTime();
    private volatile boolean busy;
    private volatile boolean closed;

    BinlogSilenceWatch(String shard, Duration limit, Runnable onSilence) {
        this.shard = shard;
        this.limitNanos = limit.toNanos();
        this.onSilence = onSilence;
        this.thread = new Thread(this::watch, "vstream-binlog-watch-" + shard);
        this.thread.setDaemon(true);
    }

    /** The silence that ends a connection whose server sends a heartbeat every {@code serverHeartbeat}. */
    static Duration limit(Duration serverHeartbeat) {
        Duration periods = serverHeartbeat.multipliedBy(PERIODS);
        return periods.compareTo(MIN_LIMIT) > 0 ? periods : MIN_LIMIT;
    }

    BinlogSilenceWatch start() {
        lastEventEndNanos = System.nanoTime();
        thread.start();
        return this;
    }

    /** An event arrived and is being handled. */
    void eventStarts() {
        busy = true;
    }

    /** The event is handled; silence counts from now. */
    void eventEnds() {
        lastEventEndNanos = System.nanoTime();
        busy = false;
    }

    /** Whether the connection has been silent for longer than the limit at {@code nowNanos} (no I/O). */
    boolean silentAt(long nowNanos) {
        return !busy && nowNanos - lastEventEndNanos > limitNanos;
    }

    private void watch() {
        long pollMillis = Math.max(100, TimeUnit.NANOSECONDS.toMillis(limitNanos) / 10);
        while (!closed) {
            try {
                Thread.sleep(pollMillis);
            } catch (InterruptedException e) {
                return;
            }
            if (!closed && silentAt(System.nanoTime())) {
                LOG.warn("Shard {}: the binlog connection delivered nothing, not even the server's heartbeat, for {}"
                        + " ms; closing it to resume from the committed position", shard,
                        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - lastEventEndNanos));
                closed = true;
                onSilence.run();
                return;
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        thread.interrupt();
    }
}
