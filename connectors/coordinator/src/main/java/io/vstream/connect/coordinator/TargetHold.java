package io.vstream.connect.coordinator;

import io.vstream.connect.core.position.GtidPosition;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * How an on-demand diff holds a target still at an exact source position while it compares: first {@link #hold}
 * stops the target's changes, then the diff opens a consistent snapshot of the source at S, {@link #reach} lets the
 * target run to exactly S and stop, and after the comparison {@link #release} lets it go on. Two kinds: the
 * workflow's applier ({@link ApplierHold}) and native replication after a hand-off ({@link ReplicaHold}).
 */
interface TargetHold {
    /** What is held, for messages: {@code the applier stream 'x'}, {@code native replication}. */
    String describe();

    /**
     * Stops the target's changes at their next transaction boundary; null when held, else why not (try later), having
     * left the target as it was.
     */
    String hold(Connection target) throws SQLException, InterruptedException;

    /** Lets the target run to exactly {@code s} and stop; null when it holds {@code s}, else why not (try later). */
    String reach(Connection target, GtidPosition s) throws SQLException, InterruptedException;

    /** Lets the target go on as it did before {@link #hold}. */
    void release(Connection target) throws SQLException;
}
