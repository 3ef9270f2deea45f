package io.vstream.connect.coordinator;

import java.util.List;
import java.util.Objects;

/**
 * When a status record carries each shard's entry ({@code shards}): when the workflow's state changed, when a shard's
 * state or throttle reason changed, and every {@value #EVERY_MS} ms; not in every record, where positions and lags
 * move every round while writes flow (at 256 shards the entries are ~50 KB, which every round would make ~4.5 GB of
 * status topic a day). {@code vsc status} shows a record without them with the last ones written. Arithmetic only.
 */
final class ShardsCadence {
    static final long EVERY_MS = 10_000;

    private long writtenAt;
    private List<String> writtenShape = List.of();

    /** Whether the record written at {@code now} carries {@code shards}. */
    boolean due(long now, boolean stateChanged, List<ShardStatus> shards) {
        if (shards.isEmpty()) {
            return false;
        }
        return stateChanged || writtenAt == 0 || now - writtenAt >= EVERY_MS || !shape(shards).equals(writtenShape);
    }

    /** The record written at {@code now} carried {@code shards}. */
    void written(long now, List<ShardStatus> shards) {
        writtenAt = now;
        writtenShape = shape(shards);
    }

    /** What must show at once when it changes: each shard's name, state and throttle reason. */
    private static List<String> shape(List<ShardStatus> shards) {
        return shards.stream().map(s -> s.shard() + "|" + s.state() + "|" + Objects.toString(s.throttle(), ""))
                .toList();
    }
}
