package io.vstream.connect.coordinator;

import io.vstream.connect.coordinator.copy.GhostCopier;
import io.vstream.connect.coordinator.copy.GhostCopyState;
import io.vstream.connect.jdbc.AppliedTable;
import io.vstream.connect.jdbc.MigrationPlans;
import io.vstream.connect.jdbc.ReplicaLag;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;

/**
 * The online-DDL workflow's server copies, one {@link GhostCopier} per shard: started once the shard's applier has
 * recorded a position, or at once from the position recorded with the plan (ddl.copy.start=at-once; a restarted
 * coordinator resumes each from the shard's state), told each round whether to wait
 * and why (the applier's lag, the operator's pause, a lagging replica: {@link #hold()}), stopped once the shard's copy
 * is done or the workflow ends. Tells the coordinator's task when a round should come early (a copy has just ended;
 * some applier has no position yet). Touches every shard of the table and the replicas to watch.
 */
final class ServerCopies implements ShardCopies {
    private static final long EAGER_ROUND_MS = 20;

    private final VStreamCoordinatorConnectorConfig config;
    private final String migration;
    private final Map<String, VStreamCoordinatorConnectorConfig.Endpoint> shards;
    private final ApplierChannel applier;
    // per shard, while its server copy runs (the task's stop() closes them from another thread)
    private final Map<String, GhostCopier> copiers = new java.util.concurrent.ConcurrentHashMap<>();
    private volatile boolean awaitingApplier; // a shard's applier has not recorded a position yet
    private volatile long roundNanos;
    // the copiers whose copied ranges a round has seen (a round comes early once when the rows are copied)
    private final java.util.Set<GhostCopier> rangesSeen = java.util.concurrent.ConcurrentHashMap.newKeySet();

    ServerCopies(VStreamCoordinatorConnectorConfig config, String migration, ApplierChannel applier) {
        this.config = config;
        this.migration = migration;
        this.shards = config.shards();
        this.applier = applier;
    }

    /** A round of the workflow starts (the early rounds are timed from it). */
    @Override
    public void roundStarts() {
        roundNanos = System.nanoTime();
        copiers.values().stream().filter(GhostCopier::rangesCopied).forEach(rangesSeen::add);
    }

    /**
     * Whether some shard's applier has not recorded a position yet (rounds then come early: the copy, or with
     * ddl.copy.start=at-once the readiness, waits for it).
     */
    @Override
    public void awaitingApplier(boolean awaiting) {
        awaitingApplier = awaiting;
    }

    /**
     * Follows one shard's copy this round: stops its copier once the shard's state says the copy is done, else starts
     * it (the first time) and passes it the reason to wait ({@code why}, null: go on); returns why the copy cannot go
     * on, or null.
     */
    @Override
    public String follow(String shard, GhostCopyState.Summary copy, String why) throws SQLException {
        VStreamCoordinatorConnectorConfig.Endpoint endpoint = shards.get(shard);
        if (copy.done()) {
            GhostCopier finished = copiers.remove(shard);
            if (finished != null) {
                finished.close();
                rangesSeen.remove(finished);
            }
            return null;
        }
        GhostCopier copier = copier(shard, endpoint);
        if (copier.failure() != null) {
            return copier.failure();
        }
        if (copier.finished() && copiers.remove(shard, copier)) {
            // its threads ended, yet the shard's copy is not done (or was not when read): start again from the state
            // on the shard (a copy that is done by now only checks that its keys are there)
            copier.close();
            rangesSeen.remove(copier);
            copier = copier(shard, endpoint);
        }
        copier.throttle(why);
        return null;
    }

    /**
     * Why the operator or a replica holds every shard's server copy back this round (ddl.copy.paused, a replica of
     * throttle.replicas lagging more than throttle.max.replica.lag.ms or not replicating), or null.
     */
    @Override
    public String hold() {
        if (config.copyPaused()) {
            return "paused by the operator (ddl.copy.paused=true)";
        }
        for (VStreamCoordinatorConnectorConfig.Endpoint r : config.throttleReplicas()) {
            Long lag;
            try (Connection c = Servers.open(r)) {
                lag = ReplicaLag.secondsBehind(c);
            } catch (SQLException ex) {
                lag = null;
            }
            String why = ReplicaLag.reason(r.host() + ":" + r.port(), lag, config.throttleMaxReplicaLag());
            if (why != null) {
                return why;
            }
        }
        return null;
    }

    /**
     * With the server copy, a source that runs its own copy phase (its copy state, as the applier recorded it, lists
     * tables) would send every row a second time through Kafka: the workflow fails before that mixes with the copy.
     */
    static String refuseSourceCopy(String shard, AppliedTable.Row a) {
        String copy = a.copyState();
        if (copy == null || copy.isBlank()
                || io.vstream.connect.core.position.OffsetCodec.copyStateFromJson(copy).isEmpty()) {
            return null;
        }
        return "the source connector runs its own copy phase on shard " + shard + " (start.mode=copy) while the"
                + " coordinator copies on the server (ddl.copy.method=server): cancel the workflow, then deploy the"
                + " source with start.mode=current (or the coordinator with ddl.copy.method=stream) and start again";
    }

    /** The shard's server copy, started the first time (a restarted coordinator resumes it from the shard's state). */
    private GhostCopier copier(String shard, VStreamCoordinatorConnectorConfig.Endpoint endpoint) throws SQLException {
        GhostCopier copier = copiers.get(shard);
        if (copier != null) {
            return copier;
        }
        MigrationPlans.Plan plan;
        try (Connection c = Servers.open(endpoint)) {
            plan = MigrationPlans.load(c, config.stateDatabase(), migration);
        }
        if (plan == null) {
            throw new SQLException("the plan of migration " + migration + " is missing on shard " + shard);
        }
        copier = new GhostCopier(shard, () -> Servers.open(endpoint), plan, config.stateDatabase(),
                config.ghostCopy(), c -> {
                    List<AppliedTable.Row> rows = applier.applied(c);
                    return rows.size() == 1 ? rows.get(0).position() : null;
                });
        copier.start();
        copiers.put(shard, copier);
        return copier;
    }

    /** Stops every shard's server copy (a chunk in flight commits or rolls back whole). */
    @Override
    public void close() {
        awaitingApplier = false;
        copiers.values().forEach(GhostCopier::close);
        copiers.clear();
        rangesSeen.clear();
    }

    /**
     * A shard's copy has just ended (or failed), or its rows are copied (the checksum can start while the deferred keys
     * are built): the next round sees it at once rather than a poll interval later; and
     * while some shard's applier has no position yet, rounds come every {@value #EAGER_ROUND_MS} ms, so the copy starts
     * (or the workflow gets ready) as soon as it may.
     */
    @Override
    public boolean wantsRound() {
        return copiers.values().stream().anyMatch(c -> c.finished() || c.rangesCopied() && !rangesSeen.contains(c))
                || awaitingApplier && System.nanoTime() - roundNanos >= EAGER_ROUND_MS * 1_000_000;
    }
}
