package io.vstream.connect.coordinator;

import io.vstream.connect.coordinator.ddl.AlterAnalyzer;
import io.vstream.connect.coordinator.ddl.AlterPlan;
import io.vstream.connect.coordinator.ddl.AlterRefusedException;
import io.vstream.connect.core.error.ErrorClassifier;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The start of an online DDL (state CREATED): the preflight on every shard, refusing before anything runs; the
 * instant ALTER when the server can run it (ddl.prefer.instant, and no revert window: {@link InstantMigration}); else
 * the ALTER validated and the ghost table created on every shard (the server parses the ALTER: {@link AlterAnalyzer}),
 * the plans stored where the applier reads them (and a revert window's direction plans), the keys to build after a
 * server copy deferred. A shard that refuses drops the ghosts created so far. Touches every shard, through
 * {@link OnlineDdlServers}.
 */
final class OnlineDdlStart {
    private static final Logger LOG = LoggerFactory.getLogger(OnlineDdlStart.class);

    private final VStreamCoordinatorConnectorConfig config;
    private final String workflow;
    private final List<String> shards;
    private final OnlineDdlServers servers;
    private final InstantMigration instantMigration;

    OnlineDdlStart(VStreamCoordinatorConnectorConfig config, String workflow, OnlineDdlServers servers) {
        this.config = config;
        this.workflow = workflow;
        this.shards = List.copyOf(config.shards().keySet());
        this.servers = servers;
        this.instantMigration = new InstantMigration(config, workflow, servers);
    }

    /** Analyzes the ALTER on every shard (creating the ghost tables) and stores the plans; refuses before anything runs. */
    WorkflowStatus run(WorkflowStatus status) throws SQLException {
        List<String> problems = new ArrayList<>();
        for (String shard : shards) {
            try (OnlineDdlShard s = servers.open(shard)) {
                problems.addAll(s.preflight());
            }
        }
        if (!problems.isEmpty()) {
            return status.failed("the preflight refused the migration (nothing was created): "
                    + String.join("; ", problems));
        }
        if (config.preferInstant() && !config.revertWindow().isZero()) {
            LOG.info("Workflow {}: the ALTER copies the table even if the server could run it instantly: a revert"
                    + " (ddl.revert.window.ms) needs the original", workflow);
        } else if (config.preferInstant()) {
            WorkflowStatus instant = instantMigration.run(status);
            if (instant != null) {
                return instant;
            }
        }
        Map<String, AlterPlan> plans = new LinkedHashMap<>();
        for (String shard : shards) {
            try (OnlineDdlShard s = servers.open(shard)) {
                AlterPlan plan;
                try {
                    plan = s.analyze();
                } catch (SQLException ex) {
                    if (ErrorClassifier.isRetriable(ex)) {
                        throw ex;
                    }
                    dropGhosts(plans);
                    return status.failed("shard " + shard + " refused the ghost table: " + ex.getMessage()
                            + " (error " + ex.getErrorCode() + "); the original table is untouched: fix the ALTER"
                            + " (or the rows it cannot hold) and start the migration again");
                }
                AlterPlan first = plans.values().stream().findFirst().orElse(null);
                if (first != null && first.difference(plan).isPresent()) {
                    plans.put(shard, plan);
                    dropGhosts(plans);
                    return status.failed("shard " + shard + " migrates differently from the others ("
                            + first.difference(plan).get() + "): the table must have the same definition on every"
                            + " shard");
                }
                plans.put(shard, plan);
                if (!config.revertWindow().isZero()) {
                    s.saveRevertPlan(plan);
                }
                if (config.serverCopy() && config.deferIndexes()) {
                    List<String> deferred = s.deferIndexes(plan);
                    if (!deferred.isEmpty()) {
                        LOG.info("Workflow {}: shard {}: key(s) {} of the ghost are built once the copy is done"
                                + " (ddl.copy.defer.indexes)", workflow, shard, deferred);
                    }
                }
                String copyStart = s.savePlan(plan);
                if (copyStart != null) {
                    LOG.info("Workflow {}: shard {}: the copy starts at once, from {} (ddl.copy.start=at-once: the"
                            + " source streams from there with start.mode=migration)", workflow, shard, copyStart);
                }
                if (!plan.notes().isEmpty()) {
                    LOG.info("Workflow {}: shard {}: {}", workflow, shard, String.join("; ", plan.notes()));
                }
            } catch (AlterRefusedException ex) {
                dropGhosts(plans);
                return status.failed("the ALTER is refused: " + ex.getMessage());
            }
        }
        AlterPlan any = plans.values().iterator().next();
        LOG.info("Workflow {}: ghost table {} created on {} shard(s); mapping {}", workflow, any.ghost(),
                plans.size(), any.mapping().toJson());
        return status.to(WorkflowState.COPYING);
    }

    private void dropGhosts(Map<String, AlterPlan> plans) {
        for (Map.Entry<String, AlterPlan> p : plans.entrySet()) {
            try (OnlineDdlShard s = servers.open(p.getKey())) {
                s.dropGhost(p.getValue());
            } catch (SQLException | IllegalStateException ex) {
                LOG.warn("Workflow {}: could not drop the ghost table on shard {} ({})", workflow, p.getKey(),
                        ex.toString());
            }
        }
    }
}
