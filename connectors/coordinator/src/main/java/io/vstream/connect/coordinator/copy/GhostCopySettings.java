package io.vstream.connect.coordinator.copy;

import java.time.Duration;

/**
 * How the server copy of an online ALTER runs on each shard: how many key ranges it copies at once (each on its own
 * connection; 0: one per processor of the shard's server, at most {@value #AUTO_MAX_THREADS}), the time a chunk should
 * take (its size adapts to it), the largest chunk, and an optional cap on the rows copied per second on the shard (0:
 * none).
 */
public record GhostCopySettings(int threads, Duration chunkTarget, int maxChunkRows, long maxRowsPerSecond) {
    /** The most copy threads the automatic count ({@code threads = 0}) gives. */
    public static final int AUTO_MAX_THREADS = 4;
    /** The smallest chunk: below it the statement's own cost dominates. */
    public static final int MIN_CHUNK_ROWS = 50;
    /** The first chunk's size, before any chunk has been timed. */
    public static final int FIRST_CHUNK_ROWS = 1_000;

    public GhostCopySettings {
        if (threads < 0) {
            throw new IllegalArgumentException("threads must be at least 0 (0: automatic)");
        }
        if (maxChunkRows < MIN_CHUNK_ROWS) {
            throw new IllegalArgumentException("maxChunkRows must be at least " + MIN_CHUNK_ROWS);
        }
    }

    /** The most threads a copy may use: the configured count, or for the automatic one its cap. */
    public int mostThreads() {
        return threads == 0 ? AUTO_MAX_THREADS : threads;
    }

    /**
     * The threads of a copy on a server with {@code processors} processors (0 or less: unknown): the configured count,
     * or one per processor, at least 1 and at most {@value #AUTO_MAX_THREADS}.
     */
    public int threadsFor(int processors) {
        if (threads > 0) {
            return threads;
        }
        return processors <= 0 ? AUTO_MAX_THREADS : Math.max(1, Math.min(AUTO_MAX_THREADS, processors));
    }
}
