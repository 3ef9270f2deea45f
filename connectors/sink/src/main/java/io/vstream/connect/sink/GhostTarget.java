package io.vstream.connect.sink;

import io.vstream.connect.jdbc.MigrationPlans;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * Ghost mode's one table and the plan it is written through: the migration's own plan into its ghost, or, past a
 * swap of a migration with a revert window, the direction plan the applier follows into the table swapped out (the
 * kept original through the reverse mapping, after a revert the ALTERed table through the forward one). Loaded from
 * the shard's {@code migrations} table, checked against each DDL of the stream, switched at a swap in the applier's
 * transaction ({@link MigrationPlans#activateDirection}). Touches the shard through the connection it is given.
 */
final class GhostTarget {
    private final String stateDatabase;
    private final String migration;
    private MigrationPlans.Plan plan;
    private boolean swapped;

    GhostTarget(String stateDatabase, String migration) {
        this.stateDatabase = stateDatabase;
        this.migration = migration;
    }

    /**
     * Reads the plan the applier writes through now (the direction it recorded at its last swap, if any); false when
     * the coordinator has not written the migration's plan yet.
     */
    boolean load(Connection conn) throws SQLException {
        MigrationPlans.Plan own = MigrationPlans.load(conn, stateDatabase, migration);
        if (own == null) {
            return false;
        }
        MigrationPlans.Direction direction = MigrationPlans.activeDirection(conn, stateDatabase, migration);
        swapped = direction != null;
        plan = swapped ? direction.plan() : own;
        return true;
    }

    MigrationPlans.Plan plan() {
        return plan;
    }

    /**
     * The position the migration's server copy started from when it started at once ({@link CopyStartCheck}), or null
     * when it waits for the applier (nothing to check).
     */
    String copyStart(Connection conn) throws SQLException {
        return MigrationPlans.copyStart(conn, stateDatabase, migration);
    }

    /** Whether the applier is past a swap: it keeps a table equal to the serving one (the reverse stream). */
    boolean swapped() {
        return swapped;
    }

    /** Whether rows of {@code sourceTable} are this mode's to write. */
    boolean writes(String sourceTable) {
        return plan.table().equals(sourceTable);
    }

    /** Why a DDL statement of the stream must stop the applier (it changes the table itself), or null. */
    String refusal(String statement, String sessionDb, String gtid) {
        if (!DdlTargets.touches(statement, sessionDb, plan.database(), plan.table())) {
            return null;
        }
        return swapped
                ? "a DDL statement changed table " + plan.table() + " (" + gtid + ") while the reverse stream of"
                + " migration " + migration + " kept `" + plan.ghostTable() + "` equal to it: the revert is no longer"
                + " possible"
                : "a DDL statement changed table " + plan.table() + " during its online migration " + migration + " ("
                + gtid + "): the migration cannot go on; cancel it and run it again";
    }

    /** The name the statement gives the table when it is a swap of the table and the one written, else null. */
    String swappedAway(String statement, String sessionDb) {
        return DdlTargets.swappedAway(statement, sessionDb, plan.database(), plan.table(), plan.ghostTable());
    }

    /**
     * Follows a swap that renamed the table to {@code away}: from here on the rows go into {@code away} through the
     * other direction's plan, recorded in {@code conn}'s open transaction. Returns that direction, or null when the
     * migration keeps no direction plans (no revert window) and nothing changed.
     */
    MigrationPlans.Direction follow(Connection conn, String away) throws SQLException {
        String next = swapped && plan.migration().equals(MigrationPlans.revertKey(migration))
                ? MigrationPlans.forwardKey(migration) : MigrationPlans.revertKey(migration);
        MigrationPlans.Direction direction = MigrationPlans.activateDirection(conn, stateDatabase, next, away);
        if (direction != null) {
            plan = direction.plan();
            swapped = true;
        }
        return direction;
    }
}
