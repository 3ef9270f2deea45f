package io.vstream.connect.coordinator;

import io.vstream.connect.coordinator.copy.GhostCopyState;
import io.vstream.connect.core.position.OffsetCodec;
import io.vstream.connect.jdbc.AppliedTable;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The rounds of an online DDL while its appliers copy and catch up (COPYING, CATCHING_UP, READY, POSTPONED): every
 * shard's applier progress read through the round's kept connection, the copy throttled (the server copy told
 * directly, the source's copy through {@code _vstream.throttle}), the copy's progress published (rows copied,
 * estimated total, percent, rate, ETA) and logged, the state decided by the slowest shard ({@link ReadinessRound}).
 * Touches every shard, through {@link OnlineDdlServers}.
 */
final class OnlineDdlWatch {
    private static final Logger LOG = LoggerFactory.getLogger(OnlineDdlWatch.class);
    private static final long ESTIMATE_EVERY_NANOS = 10_000_000_000L;
    private static final long LOG_PROGRESS_EVERY_NANOS = 10_000_000_000L;

    private final VStreamCoordinatorConnectorConfig config;
    private final String workflow;
    private final List<String> shards;
    private final OnlineDdlServers servers;
    private final ShardCopies copies;
    private final CopyProgressEstimator estimator = new CopyProgressEstimator(Duration.ofSeconds(30));
    private final Map<String, Long> estimates = new HashMap<>(); // per shard: the server's estimate of the table's rows
    private long estimatesReadAt;
    private long progressLoggedAt;
    private boolean copyDoneLogged;
    private boolean appliersReleased;
    private StatusRecords.Progress progress = StatusRecords.Progress.NONE;
    private List<ShardStatus> shardStatuses = List.of();

    OnlineDdlWatch(VStreamCoordinatorConnectorConfig config, String workflow, OnlineDdlServers servers) {
        this.config = config;
        this.workflow = workflow;
        this.shards = List.copyOf(config.shards().keySet());
        this.servers = servers;
        this.copies = servers.copies();
    }

    StatusRecords.Progress progress() {
        return progress;
    }

    List<ShardStatus> shards() {
        return shardStatuses;
    }

    /** Looks at every shard's applier progress; the slowest shard decides the state. */
    WorkflowStatus round(WorkflowStatus status) throws SQLException {
        copies.roundStarts();
        boolean awaiting = false;
        if (!appliersReleased) {
            // A coordinator that died in a checksum slice left its applier paused (or stopping at a position): its
            // successor, which lost the slice with its memory, lets every applier run before it waits on them.
            for (String shard : shards) {
                try (OnlineDdlShard s = servers.open(shard)) {
                    s.tellApplier("RUN"); // a failure is retried with the round (nothing released yet)
                }
            }
            appliersReleased = true;
        }
        boolean refreshEstimates = System.nanoTime() - estimatesReadAt > ESTIMATE_EVERY_NANOS || estimates.isEmpty();
        ReadinessRound round = new ReadinessRound();
        String hold = config.serverCopy() ? copies.hold() : null; // holds every shard's server copy
        for (String shard : shards) {
            OnlineDdlShard s = servers.round(shard);
            try {
                String failure = s.applierFailure();
                if (failure != null) {
                    return status.failed("the applier on shard " + shard + " cannot go on: " + failure
                            + "; the original table is untouched (cancel the workflow to drop the ghost tables)");
                }
                if (refreshEstimates) {
                    estimates.put(shard, s.estimateRows());
                }
                List<AppliedTable.Row> rows = s.applied();
                if (rows.size() != 1 || rows.get(0).position() == null) {
                    // rounds come early until the applier has a position: the copy (or, started at once, the
                    // readiness) waits for it
                    awaiting = true;
                    if (config.copyStartsAtOnce()) {
                        // the copy starts from the position recorded with the plan, the stream's start (the
                        // applier checks that): it need not wait for the applier, which has no lag to throttle on yet
                        GhostCopyState.Summary copy = s.copySummary();
                        String stopped = copies.follow(shard, copy, copy.done() ? null : hold);
                        if (stopped != null) {
                            copies.close();
                            return status.failed("the copy on shard " + shard + " cannot go on: " + stopped);
                        }
                        round.copyingBeforeApplier(shard, copy.rowsCopied(), estimates.getOrDefault(shard, 0L),
                                copy.done() ? null : hold);
                    } else {
                        round.waiting(shard); // the copy starts once this shard's applier has a position
                    }
                    continue;
                }
                AppliedTable.Row a = rows.get(0);
                String why;
                Integer copyingLeft;
                Long rowsCopied;
                if (config.serverCopy()) {
                    String refused = ServerCopies.refuseSourceCopy(shard, a);
                    if (refused != null) {
                        return status.failed(refused);
                    }
                    GhostCopyState.Summary copy = s.copySummary();
                    why = copy.done() ? null : hold != null ? hold : throttleReason(shard, a, true);
                    String stopped = copies.follow(shard, copy, why);
                    if (stopped != null) {
                        copies.close();
                        return status.failed("the copy on shard " + shard + " cannot go on: " + stopped);
                    }
                    rowsCopied = copy.rowsCopied();
                    // the deferred keys are built while the checksum runs (it reads by the shared key only); the
                    // swap waits for them (cutOver)
                    copyingLeft = copy.rowsDone() ? 0 : 1;
                } else {
                    String copy = a.copyState();
                    why = throttleReason(shard, a, copy == null || !"[]".equals(copy.trim()));
                    s.throttle(why);
                    copyingLeft = copy == null || copy.isBlank() ? null : OffsetCodec.copyStateFromJson(copy).size();
                    rowsCopied = a.rowsCopied();
                }
                String src = "MariaDB/" + s.binlogPosition();
                round.shard(shard, a.position(), copyingLeft, rowsCopied, estimates.getOrDefault(shard, 0L),
                        CloneWorkflow.lag(src, a.position()), ApplierLag.millis(a, System.currentTimeMillis()), why);
            } catch (SQLException | RuntimeException failed) {
                servers.discardRound(shard); // the next round reconnects
                throw failed;
            }
        }
        shardStatuses = round.shards();
        copies.awaitingApplier(awaiting && config.serverCopy());
        if (refreshEstimates) {
            estimatesReadAt = System.nanoTime();
        }
        String reason = round.throttleReason();
        boolean unknown = round.unknown();
        CopyProgressEstimator.Estimate estimate = round.counted()
                ? estimator.observe(System.nanoTime(), round.copied(), round.total(), !unknown && round.copying() == 0)
                : null;
        progress = new StatusRecords.Progress(null, round.applied(), unknown ? null : round.maxLag(),
                unknown ? null : round.copying(), estimate == null ? null : estimate.rowsCopied(),
                estimate == null ? null : estimate.rowsTotal(), estimate == null ? null : estimate.percent(),
                estimate == null || estimate.rowsPerSecond() == null ? null
                        : Math.round(estimate.rowsPerSecond() * 10) / 10.0,
                estimate == null ? null : estimate.etaMs(), reason, unknown ? null : round.maxLagMs());
        logProgress(estimate, reason);
        if (!Objects.equals(reason, status.reason()) && status.state() != WorkflowState.CREATED) {
            status = new WorkflowStatus(status.state(), status.step(), status.attempts(), reason);
        }
        if (round.catchingUp(config.readyMaxLagTime())) {
            long now = System.nanoTime();
            if (now - progressLoggedAt >= LOG_PROGRESS_EVERY_NANOS) {
                progressLoggedAt = now;
                Long maxLagMs = round.maxLagMs();
                LOG.info("Workflow {}: catching up: the slowest applier is {} behind (ready within {} ms); applied"
                        + " {}", workflow, maxLagMs == null ? "an unknown time" : maxLagMs + " ms",
                        config.readyMaxLagTime().toMillis(), round.applied());
            }
        }
        return round.decide(status, config.readyMaxLagTime(), config.postponed());
    }

    /** Logs the copy's progress at INFO every 10 seconds while it runs, and once when it has completed. */
    private void logProgress(CopyProgressEstimator.Estimate estimate, String throttled) {
        if (estimate == null) {
            return;
        }
        boolean done = estimate.etaMs() != null && estimate.etaMs() == 0 && estimate.percent() >= 100.0;
        if (done) {
            if (!copyDoneLogged) {
                copyDoneLogged = true;
                LOG.info("Workflow {}: copy completed on every shard: {} rows copied", workflow,
                        estimate.rowsCopied());
            }
            return;
        }
        copyDoneLogged = false;
        long now = System.nanoTime();
        if (now - progressLoggedAt >= LOG_PROGRESS_EVERY_NANOS) {
            progressLoggedAt = now;
            LOG.info("Workflow {}: copying: {}{}", workflow, estimate.describe(),
                    throttled == null ? "" : " (" + throttled + ")");
        }
    }

    /**
     * Why the copy on a shard must wait: its applier lags more than the configured time ({@link ApplierLag}) while
     * the copy runs; null when it may go on. The server copy is told directly, the source's copy through
     * {@code _vstream.throttle} on the shard.
     */
    private String throttleReason(String shard, AppliedTable.Row a, boolean copying) {
        long max = config.throttleMaxApplierLag().toMillis();
        Long behind = ApplierLag.millis(a, System.currentTimeMillis());
        if (!copying || max <= 0 || behind == null || behind <= max) {
            return null;
        }
        return "the applier on shard " + shard + " is " + behind + " ms behind (max " + max + " ms)";
    }
}
