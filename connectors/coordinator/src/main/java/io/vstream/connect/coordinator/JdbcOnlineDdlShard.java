package io.vstream.connect.coordinator;

import io.vstream.connect.coordinator.copy.DeferredIndexes;
import io.vstream.connect.coordinator.copy.GhostCopyState;
import io.vstream.connect.coordinator.ddl.AlterAnalyzer;
import io.vstream.connect.coordinator.ddl.AlterPlan;
import io.vstream.connect.coordinator.ddl.AlterRefusedException;
import io.vstream.connect.coordinator.ddl.InstantAlter;
import io.vstream.connect.coordinator.ddl.RevertAnalysis;
import io.vstream.connect.coordinator.ddl.SchemaReader;
import io.vstream.connect.core.sql.SqlIdentifiers;
import io.vstream.connect.core.sql.SqlTag;
import io.vstream.connect.jdbc.AppliedTable;
import io.vstream.connect.jdbc.MigrationPlans;
import io.vstream.connect.jdbc.ThrottleTable;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link OnlineDdlShard} on the shard's server through one connection: the migration's plans and copy state in the
 * state database, the applier's control row ({@link ApplierChannel}), the table and its ghost. Touches one shard.
 */
final class JdbcOnlineDdlShard implements OnlineDdlShard {
    private static final Logger LOG = LoggerFactory.getLogger(JdbcOnlineDdlShard.class);

    private final VStreamCoordinatorConnectorConfig config;
    private final String workflow;
    private final String migration;
    private final String shard;
    private final ApplierChannel applier;
    private final AlterAnalyzer analyzer;
    private final Connection c;
    private final boolean kept; // a round's connection: closing this leaves it open

    JdbcOnlineDdlShard(VStreamCoordinatorConnectorConfig config, String workflow, String migration, String shard,
                       ApplierChannel applier, AlterAnalyzer analyzer, Connection c, boolean kept) {
        this.config = config;
        this.workflow = workflow;
        this.migration = migration;
        this.shard = shard;
        this.applier = applier;
        this.analyzer = analyzer;
        this.c = c;
        this.kept = kept;
    }

    @Override
    public List<String> preflight() throws SQLException {
        List<String> problems = new ArrayList<>(WorkflowGrants.problems(c, "shard " + shard,
                WorkflowGrants.onlineDdlShard(config.ddlDatabase(), config.stateDatabase())));
        problems.addAll(OnlineDdlPreflight.check(c, shard, config.ddlDatabase(), config.ddlTable(),
                config.ddlAlter()));
        int copyThreads = config.serverCopy() ? config.ghostCopy().mostThreads() : 0;
        String room = ConnectionHeadroom.problem("shard " + shard, ConnectionHeadroom.read(c),
                copyThreads + 7, copyThreads + 3, "the coordinator's " + copyThreads + " copy thread(s)"
                        + " (ddl.copy.threads) and 3 for its rounds, checksum and cut-over; 2 for the source"
                        + " and 2 for the sink");
        if (room != null) {
            problems.add(room);
        }
        return problems;
    }

    @Override
    public AlterPlan analyze() throws SQLException, AlterRefusedException {
        return analyzer.analyze(c, config.ddlDatabase(), config.ddlTable(), config.ddlAlter());
    }

    @Override
    public boolean appliedInstantly() throws SQLException {
        return MigrationPlans.appliedInstantly(c, config.stateDatabase(), migration);
    }

    @Override
    public InstantAlter.Probe instantProbe(String body) throws SQLException {
        return InstantAlter.probe(c, config.ddlDatabase(), config.ddlTable(), body);
    }

    @Override
    public String tableDefinition() throws SQLException {
        return SchemaReader.definition(c, config.ddlDatabase(), config.ddlTable());
    }

    @Override
    public String instantStarted() throws SQLException {
        return MigrationPlans.instantStarted(c, config.stateDatabase(), migration);
    }

    @Override
    public void saveInstantStarted(String definition) throws SQLException {
        MigrationPlans.saveInstantStarted(c, config.stateDatabase(), migration, config.ddlDatabase(),
                config.ddlTable(), definition);
    }

    @Override
    public void forgetInstantStarted() throws SQLException {
        MigrationPlans.forgetInstantStarted(c, config.stateDatabase(), migration);
    }

    @Override
    public String longTransaction(Duration age) throws SQLException {
        return InstantAlter.longTransaction(c, age);
    }

    @Override
    public void alterInstantly(String body, Duration lockWait) throws SQLException {
        InstantAlter.apply(c, config.ddlDatabase(), config.ddlTable(), body, lockWait);
    }

    @Override
    public void saveInstant() throws SQLException {
        MigrationPlans.saveInstant(c, config.stateDatabase(), migration, config.ddlDatabase(), config.ddlTable());
    }

    /**
     * Stores the shard's reverse plan (the new table's columns onto the original's: {@link RevertAnalysis}), read
     * from both tables while the ghost still has all of its keys. An ALTER that cannot be reverted (a dropped NOT NULL
     * column without a default, no shared unique key the other way) is not refused: it runs without a revert window,
     * the reason logged.
     */
    @Override
    public void saveRevertPlan(AlterPlan plan) throws SQLException {
        try {
            RevertAnalysis revert = RevertAnalysis.of(plan.database() + "." + plan.table(),
                    SchemaReader.shape(c, plan.database(), plan.table()),
                    SchemaReader.shape(c, plan.database(), plan.ghost()), plan.mapping(), true);
            MigrationPlans.saveDirection(c, config.stateDatabase(), MigrationPlans.revertKey(migration),
                    plan.database(), plan.table(), revert.mapping(), revert.sharedKey(), revert.writesByDelete());
            // after a revert the ALTERed table follows the original again, through the migration's own mapping
            MigrationPlans.saveDirection(c, config.stateDatabase(), MigrationPlans.forwardKey(migration),
                    plan.database(), plan.table(), plan.mapping(), plan.sharedKey(), plan.writesByDelete());
            LOG.info("Workflow {}: shard {}: after the cut-over the reverse stream keeps the original equal to the new"
                    + " table through {}{}{}", workflow, shard, revert.mapping().toJson(),
                    revert.mayNotFit().isEmpty() ? "" : "; a value of " + revert.mayNotFit() + " the original's type"
                            + " cannot hold ends the revert window",
                    revert.notes().isEmpty() ? "" : "; " + String.join("; ", revert.notes()));
        } catch (AlterRefusedException ex) {
            MigrationPlans.delete(c, config.stateDatabase(), MigrationPlans.revertKey(migration));
            MigrationPlans.delete(c, config.stateDatabase(), MigrationPlans.forwardKey(migration));
            LOG.warn("Workflow {}: shard {}: this ALTER cannot be reverted, so it completes at the cut-over without a"
                    + " revert window: {}", workflow, shard, ex.getMessage());
        }
    }

    @Override
    public List<String> deferIndexes(AlterPlan plan) throws SQLException {
        return DeferredIndexes.defer(c, config.stateDatabase(), migration, plan.database(), plan.ghost(),
                plan.ghostCreate());
    }

    @Override
    public String savePlan(AlterPlan plan) throws SQLException {
        // read after the ghost exists: a chunk read from here on misses no change a stream started here carries
        String start = config.copyStartsAtOnce() ? "MariaDB/" + binlogPosition() : null;
        MigrationPlans.save(c, config.stateDatabase(), new MigrationPlans.Plan(migration, plan.database(),
                plan.table(), plan.ghost(), plan.mapping(), plan.sharedKey(), plan.writesByDelete()), start);
        return start;
    }

    @Override
    public void dropGhost(AlterPlan plan) throws SQLException {
        analyzer.dropGhost(c, plan);
        MigrationPlans.delete(c, config.stateDatabase(), migration);
        DeferredIndexes.delete(c, config.stateDatabase(), migration);
    }

    @Override
    public MigrationPlans.Plan plan(String key) throws SQLException {
        return MigrationPlans.load(c, config.stateDatabase(), key);
    }

    @Override
    public boolean hasDirectionPlans() throws SQLException {
        return MigrationPlans.loadDirection(c, config.stateDatabase(), MigrationPlans.revertKey(migration)) != null
                && MigrationPlans.loadDirection(c, config.stateDatabase(), MigrationPlans.forwardKey(migration))
                != null;
    }

    @Override
    public MigrationPlans.Direction activeDirection() throws SQLException {
        return MigrationPlans.activeDirection(c, config.stateDatabase(), migration);
    }

    @Override
    public boolean hasTable(String database, String table) throws SQLException {
        return TableChecksum.tables(c, database).contains(table);
    }

    @Override
    public void dropGhostTable(String database, String ghost) throws SQLException {
        analyzer.dropGhost(c, database, ghost);
    }

    @Override
    public void dropTable(String database, String table) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute(SqlTag.tag("coordinator", "DROP TABLE " + SqlIdentifiers.qualify(database, table)));
        }
    }

    @Override
    public void forgetCopy() throws SQLException {
        GhostCopyState.delete(c, config.stateDatabase(), migration);
        DeferredIndexes.delete(c, config.stateDatabase(), migration);
    }

    @Override
    public void forgetMigration() throws SQLException {
        MigrationPlans.delete(c, config.stateDatabase(), migration);
        forgetCopy();
    }

    @Override
    public void tellApplier(String command) throws SQLException {
        applier.command(c, command, null);
    }

    @Override
    public String applierFailure() throws SQLException {
        return applier.failure(c);
    }

    @Override
    public List<AppliedTable.Row> applied() throws SQLException {
        return applier.applied(c);
    }

    @Override
    public void throttle(String why) throws SQLException {
        if (why == null) {
            ThrottleTable.clear(c, config.stateDatabase(), config.ddlDatabase());
        } else {
            ThrottleTable.set(c, config.stateDatabase(), config.ddlDatabase(), why, Duration.ofSeconds(5));
        }
    }

    @Override
    public boolean awaitCaughtUp(Duration timeout) throws SQLException, InterruptedException {
        return applier.awaitCaughtUp(c, timeout);
    }

    @Override
    public boolean awaitApplied(String position, Duration timeout) throws SQLException, InterruptedException {
        applier.command(c, "STOP_AT", position);
        return applier.awaitAck(c, "STOP_AT", position, timeout) != null;
    }

    /**
     * The server's estimate of the original table's rows (InnoDB statistics: {@code information_schema.TABLES}, or
     * EXPLAIN when that has none); 0 when unknown.
     */
    @Override
    public long estimateRows() throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(SqlTag.tag("coordinator",
                "SELECT TABLE_ROWS FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?"))) {
            ps.setString(1, config.ddlDatabase());
            ps.setString(2, config.ddlTable());
            try (ResultSet rs = ps.executeQuery()) {
                if (rs.next() && rs.getLong(1) > 0) {
                    return rs.getLong(1);
                }
            }
        }
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(SqlTag.tag("coordinator",
                "EXPLAIN SELECT * FROM " + SqlIdentifiers.qualify(config.ddlDatabase(), config.ddlTable())))) {
            return rs.next() ? Math.max(0, rs.getLong("rows")) : 0;
        } catch (SQLException e) {
            return 0;
        }
    }

    @Override
    public String binlogPosition() throws SQLException {
        return Servers.string(c, "SELECT @@GLOBAL.gtid_binlog_pos");
    }

    @Override
    public GhostCopyState.Summary copySummary() throws SQLException {
        return GhostCopyState.summary(c, config.stateDatabase(), migration);
    }

    @Override
    public Instant serverNow() throws SQLException {
        return Instant.ofEpochMilli(new BigDecimal(Servers.string(c, "SELECT UNIX_TIMESTAMP(CURRENT_TIMESTAMP(6))"))
                .movePointRight(3).longValue());
    }

    @Override
    public void close() throws SQLException {
        if (!kept) {
            c.close();
        }
    }
}
