package io.vstream.connect.coordinator.copy;

/**
 * Sizes the next chunk of a copy so that it takes about a target time (Spirit's dynamic chunking): after each chunk
 * the rows per millisecond it achieved give the size that would have met the target; the next size moves halfway
 * there, grows at most 2x per chunk (a fast chunk on cached pages says little about the next) and stays between
 * {@link GhostCopySettings#MIN_CHUNK_ROWS} and the configured maximum. Arithmetic only.
 */
final class ChunkSizer {
    private final long targetNanos;
    private final int max;
    private int size;

    ChunkSizer(long targetNanos, int maxRows) {
        this.targetNanos = Math.max(1, targetNanos);
        this.max = maxRows;
        this.size = Math.min(maxRows, GhostCopySettings.FIRST_CHUNK_ROWS);
    }

    /** The size of the next chunk, in rows. */
    int size() {
        return size;
    }

    /** A chunk met a row an application transaction holds: the next one is half as large (less likely to). */
    void contended() {
        size = Math.max(GhostCopySettings.MIN_CHUNK_ROWS, size / 2);
    }

    /**
     * Takes the measure of a full chunk (one that spanned {@code rows} rows of the original: the range's shorter tail
     * is no measure) that took {@code nanos}.
     */
    void observe(int rows, long nanos) {
        if (rows <= 0 || nanos <= 0) {
            return;
        }
        double ideal = rows * (double) targetNanos / nanos;
        double next = Math.min(size * 2.0, (size + ideal) / 2);
        size = (int) Math.max(GhostCopySettings.MIN_CHUNK_ROWS, Math.min(max, Math.round(next)));
    }
}
