package io.vstream.connect.coordinator;

import io.vstream.connect.coordinator.cutover.CutOverResult;
import io.vstream.connect.coordinator.cutover.CutOverSettings;
import io.vstream.connect.coordinator.cutover.CutOverTables;
import io.vstream.connect.coordinator.cutover.MultiShardCutOver;
import io.vstream.connect.jdbc.MigrationPlans;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one cut-over attempt of an online-DDL workflow on its shards with the sentry algorithm
 * ({@link MultiShardCutOver}), the barrier being the applier's stop at the position read under the lock. The
 * workflow retries a failed attempt on a later round, so each run makes one attempt.
 */
final class CutOverRunner {
    private static final Logger LOG = LoggerFactory.getLogger(CutOverRunner.class);

    private CutOverRunner() {
    }

    /** Returns {@code null} when every shard swapped, else why not (the original tables are in place). */
    static String run(OnlineDdlCutOver workflow, VStreamCoordinatorConnectorConfig config,
                      Map<String, VStreamCoordinatorConnectorConfig.Endpoint> shards, String name)
            throws SQLException, InterruptedException {
        List<Connection> opened = java.util.Collections.synchronizedList(new ArrayList<>());
        java.util.concurrent.atomic.AtomicBoolean crashed = new java.util.concurrent.atomic.AtomicBoolean();
        List<MultiShardCutOver.Shard> list = new ArrayList<>();
        for (Map.Entry<String, VStreamCoordinatorConnectorConfig.Endpoint> e : shards.entrySet()) {
            VStreamCoordinatorConnectorConfig.Endpoint endpoint = e.getValue();
            MigrationPlans.Plan plan;
            try (Connection c = Servers.open(endpoint)) {
                plan = MigrationPlans.load(c, config.stateDatabase(), workflow.migration());
            }
            if (plan == null) {
                return "shard " + e.getKey() + " has no plan of migration " + workflow.migration();
            }
            list.add(MultiShardCutOver.Shard.of(e.getKey(), () -> {
                Connection c = Servers.open(endpoint);
                opened.add(c);
                return c;
            },
                    CutOverTables.of(plan.database(), plan.table(), plan.ghostTable()),
                    (position, timeout) -> workflow.awaitApplied(e.getKey(), position, timeout)));
        }
        Duration lock = config.cutOverLockTimeout();
        CutOverSettings settings = CutOverSettings.DEFAULTS.withLockWaitTimeout(lock).withApplierTimeout(lock)
                .withRetries(1, Duration.ofMillis(500), Duration.ofSeconds(5));
        MultiShardCutOver.Mode mode = config.cutOverAllAtOnce() ? MultiShardCutOver.Mode.ALL_AT_ONCE
                : MultiShardCutOver.Mode.PER_SHARD_AS_READY;
        MultiShardCutOver cutOver = new MultiShardCutOver(list, settings, mode, Duration.ofSeconds(60));
        int crashAt = config.testCrashAtStep();
        if (crashAt > 0) {
            cutOver = cutOver.withListener(event -> {
                if (event.step().number() == crashAt && crashed.compareAndSet(false, true)) {
                    LOG.warn("Workflow {}: TEST HOOK: the coordinator 'dies' after step {}", name, event.step());
                    synchronized (opened) {
                        for (Connection c : opened) {
                            try {
                                c.abort(Runnable::run);
                            } catch (SQLException ex) {
                                // dying anyway
                            }
                        }
                    }
                }
            });
        }
        MultiShardCutOver.Result result = cutOver.run();
        if (crashed.get()) {
            throw new org.apache.kafka.connect.errors.ConnectException("TEST HOOK: simulated coordinator crash after"
                    + " cut-over step " + crashAt + " (cutover.test.crash.at.step)");
        }
        List<String> problems = new ArrayList<>();
        long block = result.shards().stream().mapToLong(r -> r.writeBlock().toMillis()).max().orElse(0);
        if (block > 0) {
            workflow.writeBlocked(block);
        }
        for (CutOverResult r : result.shards()) {
            LOG.info("Workflow {}: {}", name, r.summary());
            if (r.outcome() == CutOverResult.Outcome.UNKNOWN) {
                throw new IllegalStateException("shard " + r.shard() + ": the server could not tell whether the"
                        + " swap happened (" + r.reason() + "); look at the tables before anything else runs");
            }
            if (!r.swapped()) {
                problems.add("shard " + r.shard() + ": " + r.reason());
            }
        }
        return problems.isEmpty() ? null : String.join("; ", problems);
    }
}
