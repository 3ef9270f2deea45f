package io.vstream.connect.coordinator;

import io.vstream.connect.coordinator.copy.GhostCopyState;
import io.vstream.connect.coordinator.ddl.AlterPlan;
import io.vstream.connect.coordinator.ddl.AlterRefusedException;
import io.vstream.connect.coordinator.ddl.InstantAlter;
import io.vstream.connect.jdbc.AppliedTable;
import io.vstream.connect.jdbc.MigrationPlans;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * One shard of an online DDL as its workflow, cut-over and revert window read and change it, at the level a
 * transition reads (the preflight's problems, the applier's applied rows, whether a table exists, ...): one
 * connection's worth, closed after use ({@link OnlineDdlServers#open}) or kept for the rounds ({@link OnlineDdlServers#round}).
 * {@link JdbcOnlineDdlShard} runs it on the shard's server; unit tests give the workflow fakes.
 */
interface OnlineDdlShard extends AutoCloseable {
    /** Why the migration cannot run on this shard (grants, the table and the ALTER, connection room); empty: none. */
    List<String> preflight() throws SQLException;

    /** Validates the ALTER and creates the ghost table (the server parses it); the plan it made. */
    AlterPlan analyze() throws SQLException, AlterRefusedException;

    /** Whether this shard records the migration applied instantly (a restarted coordinator skips it). */
    boolean appliedInstantly() throws SQLException;

    /**
     * Whether the server can run the ALTER {@code body} instantly ({@code ALGORITHM=INSTANT}, asked on a probe table):
     * why not in its own words, or the definition the table will have after it.
     */
    InstantAlter.Probe instantProbe(String body) throws SQLException;

    /** The table's definition now ({@link io.vstream.connect.coordinator.ddl.SchemaReader#definition}). */
    String tableDefinition() throws SQLException;

    /**
     * The definition recorded before a try ran the ALTER instantly on this shard, while it is not recorded done
     * ({@link #saveInstant}); null when no try has started.
     */
    String instantStarted() throws SQLException;

    /** Records, before the ALTER runs instantly on this shard, the definition it is to give the table. */
    void saveInstantStarted(String definition) throws SQLException;

    /** Forgets {@link #saveInstantStarted}'s record (the server refused to run the ALTER instantly after all). */
    void forgetInstantStarted() throws SQLException;

    /** The oldest transaction open on the server for longer than {@code age}, described; null when none. */
    String longTransaction(Duration age) throws SQLException;

    /**
     * Runs the ALTER {@code body} with {@code ALGORITHM=INSTANT}, waiting at most {@code lockWait} for the table's
     * metadata lock (a lock wait timeout, 1205, when the table was busy).
     */
    void alterInstantly(String body, Duration lockWait) throws SQLException;

    /** Records the migration applied instantly on this shard. */
    void saveInstant() throws SQLException;

    /** Stores a revert window's reverse and forward direction plans (none when the ALTER cannot be reverted). */
    void saveRevertPlan(AlterPlan plan) throws SQLException;

    /** Takes the ghost's keys out to be built after the server copy; the keys taken out. */
    List<String> deferIndexes(AlterPlan plan) throws SQLException;

    /**
     * Stores the plan where the applier reads it; with ddl.copy.start=at-once, together with the shard's GTID position
     * now (the ghost exists), where the copy starts from: returns that position, or null.
     */
    String savePlan(AlterPlan plan) throws SQLException;

    /** Drops the ghost table a failed start created, with the migration's plan and deferred keys. */
    void dropGhost(AlterPlan plan) throws SQLException;

    /** The plan stored under {@code key} (the migration's, or a direction's), or null. */
    MigrationPlans.Plan plan(String key) throws SQLException;

    /** Whether both direction plans of a revert window are stored. */
    boolean hasDirectionPlans() throws SQLException;

    /** The direction plan the applier follows now, or null before it has passed a swap. */
    MigrationPlans.Direction activeDirection() throws SQLException;

    /** Whether {@code database} has a table named {@code table}. */
    boolean hasTable(String database, String table) throws SQLException;

    /** Drops this workflow's ghost table (a cancel), refusing a table it does not own. */
    void dropGhostTable(String database, String ghost) throws SQLException;

    /** Drops the table (the follower of a released revert window). */
    void dropTable(String database, String table) throws SQLException;

    /** Forgets the server copy's progress and its deferred keys. */
    void forgetCopy() throws SQLException;

    /** Forgets the migration: its plan, the server copy's progress and its deferred keys. */
    void forgetMigration() throws SQLException;

    /** Writes a command into the applier's control row (RUN, PAUSE, HANDED_OFF, ...). */
    void tellApplier(String command) throws SQLException;

    /** Why the applier cannot go on (it recorded a failure), or null. */
    String applierFailure() throws SQLException;

    /** The applier's applied rows (one per source shard; empty before its first). */
    List<AppliedTable.Row> applied() throws SQLException;

    /** Tells the source's copy to wait for {@code why} (null: go on). */
    void throttle(String why) throws SQLException;

    /** Waits up to {@code timeout} for the applier to apply what the server had committed; whether it did. */
    boolean awaitCaughtUp(Duration timeout) throws SQLException, InterruptedException;

    /** Stops the applier at {@code position} and waits up to {@code timeout} for it to get there; whether it did. */
    boolean awaitApplied(String position, Duration timeout) throws SQLException, InterruptedException;

    /** The server's estimate of the original table's rows; 0 when unknown. */
    long estimateRows() throws SQLException;

    /** The server's binlog position ({@code gtid_binlog_pos}), as the server writes it. */
    String binlogPosition() throws SQLException;

    /** Where the server copy is on this shard. */
    GhostCopyState.Summary copySummary() throws SQLException;

    /** The server's clock. */
    Instant serverNow() throws SQLException;

    /** Lets go of the connection (a round's kept one stays open). */
    @Override
    void close() throws SQLException;
}
