package io.vstream.connect.coordinator;

/**
 * One shard of a workflow as the coordinator measured it in its last round: where its applier is, how far behind, how
 * much of the shard is copied, and why its copy waits. Any value may be null (not known, or not part of this
 * workflow). Published in the status records' {@code shards} field. No I/O.
 *
 * @param shard           the shard's name ({@code -80}), or the stream's for a clone ({@code -})
 * @param state           {@code waiting} (its applier has no position yet), {@code copying}, {@code streaming}
 * @param appliedPosition the applier's position on the shard's target
 * @param lagMs           how far the applier is behind what its source has read
 * @param lagTransactions the source's transactions the applier has not applied yet
 * @param rowsCopied      rows copied into the shard's target (online DDL, reshard)
 * @param throttle        why the shard's copy waits, or null
 */
record ShardStatus(String shard, String state, String appliedPosition, Long lagMs, Long lagTransactions,
                   Long rowsCopied, String throttle) {
    static final String WAITING = "waiting";
    static final String COPYING = "copying";
    static final String STREAMING = "streaming";
}
