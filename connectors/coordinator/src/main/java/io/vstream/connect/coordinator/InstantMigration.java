package io.vstream.connect.coordinator;

import io.vstream.connect.coordinator.ddl.AlterRefusedException;
import io.vstream.connect.coordinator.ddl.AlterStatement;
import io.vstream.connect.coordinator.ddl.InstantAlter;
import io.vstream.connect.core.error.ErrorClassifier;
import io.vstream.connect.core.error.ServerErrors;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
     * null to take the copy path (the server cannot, or the ALTER chooses its own algorithm). Before the ALTER runs on
     * a shard, the definition it is to give the table (the probe's) is recorded there; a try that lost its connection
     * while the ALTER ran is tried again on a later round, and a shard whose table already has the recorded definition
     * (the ALTER was applied, its outcome not seen) is recorded done without running the ALTER a second time.
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
        Map<String, String> recorded = new HashMap<>(); // per shard: the definition a try that began recorded
        for (String shard : shards) {
            try (OnlineDdlShard s = servers.open(shard)) {
                if (!s.appliedInstantly()) {
                    pending.add(shard);
                    String started = s.instantStarted();
                    if (started != null) {
                        recorded.put(shard, started);
                    }
                }
            }
        }
        // no shard has it and no try has begun (once one has, the server was asked already, and said it can)
        boolean none = pending.size() == shards.size() && recorded.isEmpty();
        Map<String, String> definitions = new HashMap<>(); // per shard: what the ALTER is to make of the table
        if (none) {
            for (String shard : shards) {
                try (OnlineDdlShard s = servers.open(shard)) {
                    InstantAlter.Probe probe = s.instantProbe(body);
                    if (probe.refusal() != null) {
                        LOG.info("Workflow {}: the ALTER cannot run instantly on shard {} ({}); copying", workflow,
                                shard, probe.refusal());
                        return null;
                    }
                    definitions.put(shard, probe.definition());
                }
            }
        }
        Duration wait = config.cutOverLockTimeout();
        for (String shard : pending) {
            try (OnlineDdlShard s = servers.open(shard)) {
                String before = recorded.get(shard);
                if (before != null && before.equals(s.tableDefinition())) {
                    s.saveInstant();
                    LOG.info("Workflow {}: shard {}: the table has the definition the ALTER gives it (an earlier try"
                            + " applied it without seeing its outcome); recorded done", workflow, shard);
                    none = false;
                    continue;
                }
                String busy = s.longTransaction(wait);
                if (busy != null) {
                    return new WorkflowStatus(WorkflowState.CREATED, null, status.attempts(), "instant ALTER waits:"
                            + " on shard " + shard + " " + busy + " (it may hold the table); it runs once that"
                            + " transaction has ended");
                }
                String definition = before != null ? before : definitions.get(shard);
                if (definition == null) { // a restarted coordinator: the other shards have it, or a try began
                    InstantAlter.Probe probe = s.instantProbe(body);
                    if (probe.refusal() != null) {
                        return status.failed("instant ALTER: shard " + shard + " cannot run it instantly ("
                                + probe.refusal() + ") while the shards that record it in " + config.stateDatabase()
                                + ".migrations have the new schema: run the ALTER on that shard by hand, or cancel");
                    }
                    definition = probe.definition();
                }
                if (before == null) {
                    s.saveInstantStarted(definition);
                }
                long begin = System.nanoTime();
                try {
                    s.alterInstantly(body, wait);
                } catch (SQLException ex) {
                    WorkflowStatus next = failedTry(status, shard, ex, none, wait);
                    if (next == null) {
                        s.forgetInstantStarted();
                    }
                    return next;
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

    /**
     * The status after the instant ALTER on {@code shard} failed with {@code ex}: tried again on a later round when the
     * table was busy or the connection was lost (the next round sees whether that ALTER was applied), at most
     * {@code cutover.max.attempts} times; null when the server cannot run it instantly after all and no shard has it
     * ({@code none}: the copy path runs); else failed.
     */
    private WorkflowStatus failedTry(WorkflowStatus status, String shard, SQLException ex, boolean none,
                                     Duration wait) {
        boolean busy = ex.getErrorCode() == ServerErrors.LOCK_WAIT_TIMEOUT;
        if (busy || ErrorClassifier.isRetriable(ex)) {
            int attempts = status.attempts() + 1;
            int most = config.cutOverMaxAttempts();
            if (busy && attempts >= most) {
                return status.failed("instant ALTER: the table on shard " + shard + " stayed busy through " + attempts
                        + " tries (each waited " + wait.toMillis() + " ms for its metadata lock); run it at a quieter"
                        + " time, or raise cutover.lock.timeout.ms");
            }
            if (attempts >= most) {
                return status.failed("instant ALTER: the connection to shard " + shard + " failed while the ALTER"
                        + " ran, " + attempts + " tries in all (last: " + ex.getMessage() + "); deploy the workflow"
                        + " again once the shard answers (a shard whose table has the new definition is recorded"
                        + " done, not altered twice)");
            }
            return new WorkflowStatus(WorkflowState.CREATED, null, attempts, busy ? "instant ALTER: the table on"
                    + " shard " + shard + " was busy (waited " + wait.toMillis() + " ms for its metadata lock, try "
                    + attempts + " of " + most + "); trying again" : "instant ALTER: the connection to shard " + shard
                    + " failed while the ALTER ran (" + ex.getMessage() + ", try " + attempts + " of " + most + ");"
                    + " trying again, once it is known whether the ALTER was applied");
        }
        if (none && InstantAlter.notInstant(ex)) {
            LOG.info("Workflow {}: shard {} cannot run the ALTER instantly after all ({}); copying", workflow, shard,
                    ex.getMessage());
            return null;
        }
        return status.failed("instant ALTER failed on shard " + shard + ": " + ex.getMessage() + " (error "
                + ex.getErrorCode() + "); the shards that record it in " + config.stateDatabase() + ".migrations have"
                + " the new schema, the others the old one: fix the cause and deploy the workflow again (done shards"
                + " are skipped)");
    }
}
