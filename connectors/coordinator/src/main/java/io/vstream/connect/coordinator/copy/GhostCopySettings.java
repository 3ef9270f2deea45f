package io.vstream.connect.coordinator.copy;

import java.time.Duration;

/**
 * How the server copy of an online ALTER runs on each shard: how many key ranges it copies at once (each on its own
 * connection), the time a chunk should take (its size adapts to it), the largest chunk, and an optional cap on the
 * rows copied per second on the shard (0: none).
 */
public record GhostCopySettings(int threads, Duration chunkTarget, int maxChunkRows, long maxRowsPerSecond) {
    /** The smallest chunk: below it the statement's own cost dominates. */
    public static final int MIN_CHUNK_ROWS = 50;
    /** The first chunk's size, before any chunk has been timed. */
    public static final int FIRST_CHUNK_ROWS = 1_000;

    public GhostCopySettings {
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be at least 1");
        }
        if (maxChunkRows < MIN_CHUNK_ROWS) {
            throw new IllegalArgumentException("maxChunkRows must be at least " + MIN_CHUNK_ROWS);
        }
    }
}
