package io.vstream.connect.coordinator;

import io.vstream.connect.core.keyrange.KeyRange;
import io.vstream.connect.jdbc.AppliedTable;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a reshard's round measured: per new shard (fed by each old shard its key range overlaps) its state, positions,
 * lag and rows copied; over all, the old shards' positions, the appliers' lag in transactions and ms, the tables still
 * copying and the copy's rows against the old shards' estimate (re-read every 10 s). Reads the servers through
 * {@link ReshardServers.Round}.
 */
final class ReshardProgress {
    private final Collection<String> oldShards;
    private final CopyProgressEstimator estimator = new CopyProgressEstimator(Duration.ofSeconds(30));
    private long rowsEstimate;
    private long estimateReadAt;
    private StatusRecords.Progress progress = StatusRecords.Progress.NONE;
    private List<ShardStatus> shardStatuses = List.of();

    ReshardProgress(Collection<String> oldShards) {
        this.oldShards = List.copyOf(oldShards);
    }

    StatusRecords.Progress progress() {
        return progress;
    }

    /** Each new shard, fed by the old shards its key range overlaps. */
    List<ShardStatus> shards() {
        return shardStatuses;
    }

    /** The old shards whose key range overlaps the new shard's. */
    static List<String> overlapping(Collection<String> oldShards, String newShard) {
        KeyRange range = KeyRange.parse(newShard);
        return oldShards.stream().filter(o -> KeyRange.parse(o).intersects(range)).toList();
    }

    private List<String> overlapping(String newShard) {
        return overlapping(oldShards, newShard);
    }

    private static String positionOf(AppliedTable.Row a) {
        return a == null ? null : a.position();
    }

    /** Measures a round: {@code applied} is new shard -> (old shard -> what the applier holds of it). */
    void measure(ReshardServers.Round s, Map<String, Map<String, AppliedTable.Row>> applied)
            throws SQLException {
        Map<String, String> sources = new LinkedHashMap<>();
        for (String old : oldShards) {
            sources.put(old, s.oldPosition(old));
        }
        Long lag = 0L;
        Long lagMs = 0L;
        long now = System.currentTimeMillis();
        Integer copying = 0;
        StringBuilder appliedText = new StringBuilder();
        List<ShardStatus> perShard = new ArrayList<>();
        for (Map.Entry<String, Map<String, AppliedTable.Row>> t : applied.entrySet()) {
            // a new shard: fed by each old shard its key range overlaps
            boolean waiting = false;
            boolean shardCopying = false;
            Long shardLag = 0L;
            Long shardLagMs = 0L;
            Long shardRows = 0L;
            List<String> positions = new ArrayList<>();
            for (String old : overlapping(t.getKey())) {
                AppliedTable.Row a = t.getValue().get(old);
                if (a == null || a.position() == null) {
                    waiting = true;
                    continue;
                }
                positions.add(old + "=" + a.position());
                Integer n = CloneWorkflow.tablesCopying(a.copyState());
                shardCopying |= n == null || n > 0;
                Long l = CloneWorkflow.lag(sources.get(old), a.position());
                shardLag = shardLag == null || l == null ? null : Math.max(shardLag, l);
                Long ms = ApplierLag.millis(a, now);
                shardLagMs = shardLagMs == null || ms == null ? null : Math.max(shardLagMs, ms);
                shardRows = shardRows == null || a.rowsCopied() == null ? null : shardRows + a.rowsCopied();
            }
            perShard.add(new ShardStatus(t.getKey(), waiting ? ShardStatus.WAITING : shardCopying
                    ? ShardStatus.COPYING : ShardStatus.STREAMING, positions.isEmpty() ? null
                    : String.join(" ", positions), waiting ? null : shardLagMs, waiting ? null : shardLag,
                    shardRows, null));
            for (String old : overlapping(t.getKey())) {
                String have = positionOf(t.getValue().get(old));
                appliedText.append(appliedText.length() == 0 ? "" : " ").append(t.getKey()).append('<').append(old)
                        .append('=').append(have);
                Long l = CloneWorkflow.lag(sources.get(old), have);
                lag = lag == null || l == null ? null : Math.max(lag, l);
                Long ms = ApplierLag.millis(t.getValue().get(old), now);
                lagMs = lagMs == null || ms == null ? null : Math.max(lagMs, ms);
            }
        }
        for (Map<String, AppliedTable.Row> byOld : applied.values()) {
            for (AppliedTable.Row a : byOld.values()) {
                Integer n = CloneWorkflow.tablesCopying(a.copyState());
                copying = copying == null || n == null ? null : copying + n;
            }
        }
        if (applied.values().stream().allMatch(Map::isEmpty)) {
            copying = null;
        }
        StringBuilder src = new StringBuilder();
        sources.forEach((k, v) -> src.append(src.length() == 0 ? "" : " ").append(k).append('=').append(v));
        CopyProgressEstimator.Estimate rows = rows(s, applied, copying);
        shardStatuses = List.copyOf(perShard);
        progress = new StatusRecords.Progress(src.toString(), appliedText.toString(), lag, copying,
                rows == null ? null : rows.rowsCopied(), rows == null ? null : rows.rowsTotal(),
                rows == null ? null : rows.percent(), rows == null || rows.rowsPerSecond() == null ? null
                        : Math.round(rows.rowsPerSecond() * 10) / 10.0, rows == null ? null : rows.etaMs(), null,
                lagMs);
    }

    /**
     * The copy's rows: those the appliers counted on every new shard (each chunk once), against the old shards'
     * estimate of their tables' rows (re-read every 10 s) until the copy has completed; null when an applier does not
     * count.
     */
    private CopyProgressEstimator.Estimate rows(ReshardServers.Round s,
                                                Map<String, Map<String, AppliedTable.Row>> applied,
                                                Integer copying) throws SQLException {
        long copied = 0;
        boolean any = false;
        for (Map<String, AppliedTable.Row> byOld : applied.values()) {
            for (AppliedTable.Row a : byOld.values()) {
                if (a.rowsCopied() == null) {
                    return null;
                }
                copied += a.rowsCopied();
                any = true;
            }
        }
        if (!any) {
            return null;
        }
        if (estimateReadAt == 0 || System.nanoTime() - estimateReadAt > 10_000_000_000L) {
            rowsEstimate = s.estimateRows();
            estimateReadAt = System.nanoTime();
        }
        boolean done = copying != null && copying == 0;
        return estimator.observe(System.nanoTime(), copied, CopyProgressEstimator.shardTotal(copied, rowsEstimate,
                done), done);
    }
}
