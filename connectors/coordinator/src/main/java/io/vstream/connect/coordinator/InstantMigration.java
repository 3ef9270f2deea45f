package io.vstream.connect.coordinator;

import io.vstream.connect.coordinator.ddl.AlterRefusedException;
import io.vstream.connect.coordinator.ddl.AlterStatement;
import io.vstream.connect.coordinator.ddl.InstantAlter;
import io.vstream.connect.core.error.ServerErrors;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The online-DDL workflow's instant path (ddl.prefer.instant): when the server can apply the ALTER with
 * {@code ALGORITHM=INSTANT} on every shard ({@link InstantAlter} asks it on a probe table), runs it there, shard by
 * shard, waiting while a long transaction is open and retrying a busy table's metadata lock a bounded number of times,
 * and records each shard done in {@code <state.database>.migrations}, so that a restarted coordinator goes on with the
 * others. Touches every shard of the table, through {@link OnlineDdlServers}.
 */
final class InstantMigration {
    private static final Logger LOG = LoggerFactory.getLogger(InstantMigration.class);

    private final VStreamCoordinatorConnectorConfig config;
    private final String workflow;
    private final List<String> shards;
    private final OnlineDdlServers servers;

    InstantMigration(VStreamCoordinatorConnectorConfig config, String workflow, OnlineDdlServers servers) {
        this.config = config;
        this.workflow = workflow;
        this.shards = List.copyOf(config.shards().keySet());
        this.servers = servers;
    }

    /**
     * Runs the ALTER on every shard with {@code ALGORITHM=INSTANT} when the server can ({@link InstantAlter}; a
     * restarted coordinator skips the shards that record it done): the next status (COMPLETE, waiting, or FAILED), or
     * null to take the copy path (the server cannot, or the ALTER chooses its own algorithm).
     */
    WorkflowStatus run(WorkflowStatus status) throws SQLException {
        String body;
        try {
            body = AlterStatement.parse(config.ddlDatabase(), config.ddlTable(), config.ddlAlter()).body();
        } catch (AlterRefusedException e) {
            return status.failed("the ALTER is refused: " + e.getMessage());
        }
        if (InstantAlter.choosesAlgorithm(body)) {
            LOG.info("Workflow {}: the ALTER names its own ALGORITHM or LOCK; copying", workflow);
            return null;
        }
        List<String> pending = new ArrayList<>();
        for (String shard : shards) {
            try (OnlineDdlShard s = servers.open(shard)) {
                if (!s.appliedInstantly()) {
                    pending.add(shard);
                }
            }
        }
        boolean none = pending.size() == shards.size();
        if (none) {
            for (String shard : shards) {
                try (OnlineDdlShard s = servers.open(shard)) {
                    String why = s.instantRefusal(body);
                    if (why != null) {
                        LOG.info("Workflow {}: the ALTER cannot run instantly on shard {} ({}); copying", workflow,
                                shard, why);
                        return null;
                    }
                }
            }
        }
        Duration wait = config.cutOverLockTimeout();
        for (String shard : pending) {
            try (OnlineDdlShard s = servers.open(shard)) {
                String busy = s.longTransaction(wait);
                if (busy != null) {
                    return new WorkflowStatus(WorkflowState.CREATED, null, status.attempts(), "instant ALTER waits:"
                            + " on shard " + shard + " " + busy + " (it may hold the table); it runs once that"
                            + " transaction has ended");
                }
                long begin = System.nanoTime();
                try {
                    s.alterInstantly(body, wait);
                } catch (SQLException ex) {
                    if (ex.getErrorCode() == ServerErrors.LOCK_WAIT_TIMEOUT) {
                        int attempts = status.attempts() + 1;
                        if (attempts >= config.cutOverMaxAttempts()) {
                            return status.failed("instant ALTER: the table on shard " + shard + " stayed busy"
                                    + " through " + attempts + " tries (each waited " + wait.toMillis() + " ms for its"
                                    + " metadata lock); run it at a quieter time, or raise cutover.lock.timeout.ms");
                        }
                        return new WorkflowStatus(WorkflowState.CREATED, null, attempts, "instant ALTER: the table"
                                + " on shard " + shard + " was busy (waited " + wait.toMillis() + " ms for its"
                                + " metadata lock, try " + attempts + " of " + config.cutOverMaxAttempts() + ");"
                                + " trying again");
                    }
                    if (none && InstantAlter.notInstant(ex)) {
                        LOG.info("Workflow {}: shard {} cannot run the ALTER instantly after all ({}); copying",
                                workflow, shard, ex.getMessage());
                        return null;
                    }
                    return status.failed("instant ALTER failed on shard " + shard + ": " + ex.getMessage()
                            + " (error " + ex.getErrorCode() + "); the shards that record it in "
                            + config.stateDatabase() + ".migrations have the new schema, the others the old one:"
                            + " fix the cause and deploy the workflow again (done shards are skipped)");
                }
                s.saveInstant();
                LOG.info("Workflow {}: shard {}: ALTER applied instantly in {} ms", workflow, shard,
                        (System.nanoTime() - begin) / 1_000_000);
                none = false;
            }
        }
        LOG.info("Workflow {}: ALTER applied instantly on every shard; complete", workflow);
        return new WorkflowStatus(WorkflowState.COMPLETE, null, status.attempts(), "applied instantly"
                + " (ALGORITHM=INSTANT) on every shard: no ghost, copy or cut-over; the workflow's source and sink"
                + " have nothing to do: delete them");
    }
}
