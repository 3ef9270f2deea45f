package io.vstream.connect.source;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tracks the copy of one table on one shard: rows copied, the server's estimate of the total, rows per second and an
 * ETA, logged at INFO at most every 10 seconds and when the table completes.
 */
final class CopyProgress {
    private static final Logger LOG = LoggerFactory.getLogger(CopyProgress.class);
    private static final long LOG_EVERY_NANOS = 10_000_000_000L;

    private final String shard;
    private final String table;
    private final long estimated;
    private final long startNanos = System.nanoTime();
    private long rows;
    private long lastLogNanos = startNanos;

    CopyProgress(String shard, String table, long estimated) {
        this.shard = shard;
        this.table = table;
        this.estimated = estimated;
    }

    void add(long copied) {
        rows += copied;
        long now = System.nanoTime();
        if (now - lastLogNanos >= LOG_EVERY_NANOS) {
            lastLogNanos = now;
            LOG.info("Shard {}: copying {}: {} of ~{} rows ({}%), {} rows/s, ETA {} s", shard, table, rows,
                    estimated, percent(), (long) rate(), eta());
        }
    }

    void done() {
        LOG.info("Shard {}: copied {}: {} rows in {} ms ({} rows/s)", shard, table, rows,
                (System.nanoTime() - startNanos) / 1_000_000, (long) rate());
    }

    long rows() {
        return rows;
    }

    long estimated() {
        return estimated;
    }

    double rate() {
        double secs = (System.nanoTime() - startNanos) / 1e9;
        return secs <= 0 ? 0 : rows / secs;
    }

    long percent() {
        return estimated <= 0 ? 0 : Math.min(100, rows * 100 / estimated);
    }

    long eta() {
        double r = rate();
        return r <= 0 || estimated <= rows ? 0 : (long) ((estimated - rows) / r);
    }
}
