package io.vstream.connect.source;

import io.vstream.connect.core.topology.ShardAddress;
import java.time.Duration;
import java.util.List;

/** The copy phase's knobs, resolved once from the configuration. */
record CopySettings(
        boolean copyOnStart,
        TableFilter tables,
        boolean skipKeylessTables,
        Duration chunkTarget,
        int chunkMaxRows,
        int rowsPerRecord,
        Duration cycleMax,
        long maxRowsPerSecond,
        List<ShardAddress> throttleReplicas,
        Duration maxReplicaLag,
        String throttleStateDatabase) {

    static final int FIRST_CHUNK_ROWS = 1000;
    static final int MIN_CHUNK_ROWS = 100;
    /** The most rows one ROWS record may carry. */
    static final int MAX_ROWS_PER_RECORD = 10_000;

    /** The same settings with the copy phase on (a shard that must be copied whatever start.mode says). */
    CopySettings forcingCopy() {
        return new CopySettings(true, tables, skipKeylessTables, chunkTarget, chunkMaxRows, rowsPerRecord, cycleMax, maxRowsPerSecond,
                throttleReplicas, maxReplicaLag, throttleStateDatabase);
    }
}
