package io.vstream.connect.coordinator.cutover;

import java.time.Duration;

/**
 * Hears each completed step of a cut-over attempt, e.g. to publish progress to the status topic. Called on the
 * thread running the cut-over while the lock may be held: return quickly. Touches no server.
 */
@FunctionalInterface
public interface CutOverListener {

    /** A listener that ignores every event. */
    CutOverListener NONE = event -> { };

    void stepCompleted(Event event);

    /**
     * One completed step.
     *
     * @param lockConnectionId   connection A's server id ({@code CONNECTION_ID()}), 0 before step 2
     * @param renameConnectionId connection B's server id, 0 before step 4
     */
    record Event(String shard, int attempt, CutOverStep step, Duration took, long lockConnectionId,
                 long renameConnectionId) {
    }
}
