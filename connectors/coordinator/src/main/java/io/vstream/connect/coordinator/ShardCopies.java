package io.vstream.connect.coordinator;

import io.vstream.connect.coordinator.copy.GhostCopyState;
import java.sql.SQLException;

/**
 * The online DDL's server copies as the workflow drives them, one per shard ({@link ServerCopies} runs them on the
 * shards' servers).
 */
interface ShardCopies {
    /** A round of the workflow starts. */
    void roundStarts();

    /** Whether some shard's applier has not recorded a position yet (the copy or the readiness waits for it). */
    void awaitingApplier(boolean awaiting);

    /**
     * Follows one shard's copy this round ({@code why}: the reason to wait, null: go on); why the copy cannot go on,
     * or null.
     */
    String follow(String shard, GhostCopyState.Summary copy, String why) throws SQLException;

    /** Why the operator or a replica holds every shard's copy back this round, or null. */
    String hold();

    /** Stops every shard's copy. */
    void close();

    /** Whether a round should run now (a copy has just ended). */
    boolean wantsRound();
}
