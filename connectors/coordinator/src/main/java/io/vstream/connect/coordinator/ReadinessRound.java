package io.vstream.connect.coordinator;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * What one round of an online DDL learnt of its shards, and what the workflow's state is then: {@code copying} while
 * some shard has no applied position yet or has rows left to copy, {@code catching up} while the slowest applier is
 * more than {@code ready.max.lag.ms} behind (or its lag is unknown), then {@code postponed} or {@code ready}. The
 * round's reads (one connection per shard) feed it shard by shard; it keeps the per-shard entries of the status
 * record, the copy's totals and the throttle reasons. Arithmetic only: {@code ReadinessRoundTest} runs it over 256
 * shards.
 */
final class ReadinessRound {
    private final List<ShardStatus> shards = new ArrayList<>();
    private final List<String> applied = new ArrayList<>();
    private final List<String> throttled = new ArrayList<>();
    private long maxLag;
    private Long maxLagMs = 0L;
    private int copying;
    private boolean unknown;
    private boolean counted = true;
    private long copied;
    private long total;

    /** A shard whose applier has not recorded a position yet (its copy waits for it). */
    void waiting(String shard) {
        unknown = true;
        counted = false;
        shards.add(new ShardStatus(shard, ShardStatus.WAITING, null, null, null, null, null));
    }

    /**
     * A shard whose copy started at once from the position recorded with the plan ({@code ddl.copy.start=at-once})
     * while its applier has not recorded a position yet: its rows count toward the progress; its lag is unknown.
     */
    void copyingBeforeApplier(String shard, long rowsCopied, long estimate, String throttle) {
        unknown = true;
        copying += 1;
        if (throttle != null && !throttled.contains(throttle)) {
            throttled.add(throttle);
        }
        copied += rowsCopied;
        total += CopyProgressEstimator.shardTotal(rowsCopied, estimate, false);
        shards.add(new ShardStatus(shard, ShardStatus.COPYING, null, null, null, rowsCopied, throttle));
    }

    /**
     * A shard whose applier holds {@code position}.
     *
     * @param copyingLeft     what is left to copy (the server copy: 1 until the shard's rows are copied, then 0; the
     *                        stream copy: the tables still copying); null when the applier has not said (the stream
     *                        copy's state is blank)
     * @param rowsCopied      rows copied so far; null when the applier does not count them
     * @param estimate        the server's estimate of the table's rows on the shard
     * @param lagTransactions transactions the server has that the applier has not applied; null when unknown
     * @param lagMs           how far behind the applier is in time ({@link ApplierLag}); null when unknown
     * @param throttle        why the shard's copy waits, or null
     */
    void shard(String shard, String position, Integer copyingLeft, Long rowsCopied, long estimate,
               Long lagTransactions, Long lagMs, String throttle) {
        applied.add(shard + ":" + position);
        boolean done = copyingLeft != null && copyingLeft == 0;
        if (copyingLeft == null) {
            unknown = true;
        } else {
            copying += copyingLeft;
        }
        if (rowsCopied == null) {
            counted = false;
        }
        long shardCopied = rowsCopied == null ? 0 : rowsCopied;
        if (throttle != null && !throttled.contains(throttle)) {
            throttled.add(throttle);
        }
        copied += shardCopied;
        total += CopyProgressEstimator.shardTotal(shardCopied, estimate, done);
        maxLag = Math.max(maxLag, lagTransactions == null ? Long.MAX_VALUE : lagTransactions);
        maxLagMs = lagMs == null || maxLagMs == null ? null : Math.max(maxLagMs, lagMs);
        shards.add(new ShardStatus(shard, done ? ShardStatus.STREAMING : ShardStatus.COPYING, position, lagMs,
                lagTransactions, shardCopied, throttle));
    }

    /** The state the workflow is in after this round, from {@code status} (which it returns when unchanged). */
    WorkflowStatus decide(WorkflowStatus status, Duration readyMaxLag, boolean postponed) {
        if (unknown || copying > 0) {
            return status.state() == WorkflowState.COPYING ? status : status.to(WorkflowState.COPYING);
        }
        if (maxLagMs == null || maxLagMs > readyMaxLag.toMillis()) {
            return status.state() == WorkflowState.CATCHING_UP ? status : status.to(WorkflowState.CATCHING_UP);
        }
        if (postponed) {
            return status.state() == WorkflowState.POSTPONED ? status : status.to(WorkflowState.POSTPONED);
        }
        if (status.state() != WorkflowState.READY) {
            return status.to(WorkflowState.READY);
        }
        return status.at(HandoffStep.PAUSE);
    }

    /** Whether the next state is catching up (for the progress log). */
    boolean catchingUp(Duration readyMaxLag) {
        return !unknown && copying == 0 && (maxLagMs == null || maxLagMs > readyMaxLag.toMillis());
    }

    List<ShardStatus> shards() {
        return List.copyOf(shards);
    }

    /** Every shard's applied position, as {@code shard:position} separated by spaces. */
    String applied() {
        return String.join(" ", applied);
    }

    /** Why the copy waits ("copy throttled: ..."), or null. */
    String throttleReason() {
        return throttled.isEmpty() ? null : "copy throttled: " + String.join("; ", throttled);
    }

    boolean unknown() {
        return unknown;
    }

    boolean counted() {
        return counted;
    }

    /** What is left to copy over every shard (see {@link #shard}). */
    int copying() {
        return copying;
    }

    long copied() {
        return copied;
    }

    long total() {
        return total;
    }

    /** The largest lag in transactions (Long.MAX_VALUE when some shard's is unknown). */
    long maxLag() {
        return maxLag;
    }

    /** The largest lag in ms; null when some shard's is unknown. */
    Long maxLagMs() {
        return maxLagMs;
    }
}
