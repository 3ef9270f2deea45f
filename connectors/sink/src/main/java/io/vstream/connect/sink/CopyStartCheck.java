package io.vstream.connect.sink;

import io.vstream.connect.core.event.EventType;
import io.vstream.connect.core.position.GtidPosition;

/**
 * Ghost mode, when the coordinator's server copy started at once ({@code ddl.copy.start=at-once}) from a position it
 * recorded with the migration's plan: the stream must start at or before that position, or a change committed in
 * between, after a chunk had read its row, would be in neither the copy nor the stream. A new stream's first
 * record is the source's start HEARTBEAT, carrying exactly where it starts (a source with {@code start.mode=migration}
 * starts at the recorded position); any other first record, or a start past the copy's, stops the applier with the
 * reason, which fails the workflow with the original table untouched. Pure logic; the applier asks it about the first
 * record of a stream the target holds nothing of.
 */
final class CopyStartCheck {
    private CopyStartCheck() {
    }

    /**
     * Why the stream whose first record is of {@code type} (at {@code position}, for a HEARTBEAT or VGTID) cannot feed
     * a ghost whose copy started at {@code copyStart}; null when it starts at or before it.
     */
    static String refusal(String migration, String shardTopic, String copyStart, EventType type, String position) {
        String fix = " Deploy the source with start.mode=migration and start.migration=" + migration
                + " (with no offsets stored under its name from an earlier run), or the coordinator with"
                + " ddl.copy.start=after-applier; then cancel the workflow and start it again.";
        if ((type != EventType.HEARTBEAT && type != EventType.VGTID) || position == null) {
            return "the copy of migration " + migration + " started at once from " + copyStart + ", but the stream "
                    + shardTopic + " does not begin with its start position (its first record is a " + type
                    + "): it cannot show that it holds every change made after the copy's start." + fix;
        }
        GtidPosition start;
        try {
            start = GtidPosition.parse(position);
        } catch (RuntimeException e) {
            return "the stream " + shardTopic + " begins at a position that cannot be read (" + position + "): "
                    + e.getMessage();
        }
        if (GtidPosition.parse(copyStart).contains(start)) {
            return null;
        }
        return "the copy of migration " + migration + " started at once from " + copyStart + ", but the stream "
                + shardTopic + " starts later, at " + position + ": a change committed in between, after a chunk had read"
                + " its row, is in neither the copy nor the stream." + fix;
    }
}
