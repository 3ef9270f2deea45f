package io.vstream.connect.coordinator;

/**
 * The numbered steps of a workflow's last phase, persisted so a restart resumes at the right one: the clone hand-off
 * (docs/clone.md) and the reshard switch (docs/reshard.md).
 */
public enum HandoffStep {
    /** 1. Pause the applier at its next transaction boundary. */
    PAUSE,
    /** 2. Open a consistent snapshot of the source at an exact position S; let the applier run to exactly S. */
    STOP_AT_SNAPSHOT,
    /** 3. Compare every cloned table, source (in the snapshot) against target (stopped at S), by checksum. */
    CHECKSUM,
    /** 4. Retire the applier and make the target a native replica of the source from S. */
    REPLICATE,
    /** 5. Check that replication runs and catches up with the source. */
    VERIFY,
    /** Reshard 1. Make the old shards read-only. */
    READ_ONLY,
    /** Reshard 2. Wait until every new shard holds each old shard's final position; build the journal. */
    WAIT_APPLIED,
    /** Reshard 3. Write the journal into every old and new shard; retire the applier. */
    JOURNAL
}
