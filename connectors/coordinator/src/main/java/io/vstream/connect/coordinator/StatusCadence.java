package io.vstream.connect.coordinator;

import java.util.List;
import java.util.Objects;

/**
 * When the coordinator task writes a status record (which also persists the workflow's state as its offset): at the
 * first, whenever the status changed, whenever the measured progress, the diff, the connectors' Connect status or the
 * shards' entries ({@link ShardsCadence}) changed, and at least every {@value #EVERY_MS} ms. Arithmetic only.
 */
final class StatusCadence {
    static final long EVERY_MS = 30_000;

    private long writtenAt;
    private StatusRecords.Progress progress;
    private DiffStatus diff;
    private List<String> connectors = List.of();

    /** Whether a record is due at {@code now}, with what the task measured this round. */
    boolean due(long now, boolean changed, StatusRecords.Progress progress, DiffStatus diff, List<String> connectors,
                boolean shardsDue) {
        return changed || !progress.equals(this.progress) || !Objects.equals(diff, this.diff) || shardsDue
                || !connectors.equals(this.connectors) || now - writtenAt >= EVERY_MS || writtenAt == 0;
    }

    /** A record with these was written at {@code now}. */
    void written(long now, StatusRecords.Progress progress, DiffStatus diff, List<String> connectors) {
        this.writtenAt = now;
        this.progress = progress;
        this.diff = diff;
        this.connectors = connectors;
    }
}
