package io.vstream.connect.coordinator.ddl;

import io.vstream.connect.coordinator.ddl.AlterRefusedException.Reason;
import io.vstream.connect.core.error.ErrorClassifier;
import io.vstream.connect.core.error.ServerErrors;
import io.vstream.connect.core.sql.SqlIdentifiers;
import io.vstream.connect.core.sql.SqlTag;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Validates an online ALTER on one shard and creates its ghost table there, the gh-ost way: the server parses the
 * ALTER, not us. In order: scan the statement ({@link AlterStatement}: no table rename, no foreign key, one statement);
 * check the table (a base table, no triggers, no foreign keys either way); claim the ghost's name (refusing a table of
 * that name that this workflow did not create); {@code CREATE TABLE <ghost> LIKE <t>} and {@code ALTER TABLE <ghost>
 * <body>}; then compare the two tables from information_schema ({@link ShapeDiff}) into an {@link AlterPlan}. Every
 * refusal drops the ghost it created and says why and how to fix it. {@link #dropGhost} removes a ghost for a cancel.
 * Touches one shard: reads information_schema and the table (one row, to know whether it is empty), creates and drops
 * the ghost table, and marks it in the state database ({@link GhostRegistry}); it never writes the original table.
 */
public final class AlterAnalyzer {
    private static final Logger LOG = LoggerFactory.getLogger(AlterAnalyzer.class);
    private static final String ROLE = "online-ddl:ghost";

    private final String workflow;
    private final GhostNames names;
    private final GhostRegistry registry;
    private final boolean allowNewUniqueKey;
    private final Duration lockWaitTimeout;

    private AlterAnalyzer(Builder b) {
        this.workflow = b.workflow;
        this.names = new GhostNames(b.ghostNamePattern);
        this.registry = new GhostRegistry(b.stateDatabase);
        this.allowNewUniqueKey = b.allowNewUniqueKey;
        this.lockWaitTimeout = b.lockWaitTimeout;
    }

    /** An analyzer for {@code workflow}, whose name marks the ghost tables it creates. */
    public static Builder builder(String workflow) {
        return new Builder(workflow);
    }

    /** The ghost table's name for {@code table}. */
    public String ghostName(String table) {
        return names.ghostOf(table);
    }

    /**
     * Validates {@code alter} (the body after {@code ALTER TABLE <table>}, or the whole statement) against
     * {@code database.table} on the shard of {@code conn}, creates the ghost table with the new schema and returns
     * the plan. A ghost of the same name left by an earlier analysis of this workflow is replaced.
     *
     * @throws AlterRefusedException when the migration must not go ahead; the ghost is gone by then
     * @throws SQLException when the shard fails (a lost connection, a lock wait timeout); the ghost is dropped if the
     *                      connection still works
     */
    public AlterPlan analyze(Connection conn, String database, String table, String alter)
            throws SQLException, AlterRefusedException {
        Objects.requireNonNull(conn, "conn");
        Objects.requireNonNull(database, "database");
        Objects.requireNonNull(table, "table");
        long begin = System.nanoTime();
        String qualified = SqlIdentifiers.qualify(database, table);
        try {
            AlterStatement statement = AlterStatement.parse(database, table, alter);
            checkTable(conn, database, table);
            String ghost = names.ghostOf(table);
            Integer savedTimeout = setLockWaitTimeout(conn);
            try {
                claim(conn, database, table, ghost);
                AlterPlan plan = createAndCompare(conn, database, table, ghost, statement);
                LOG.info("Workflow {}: ALTER of {} accepted, ghost {} created in {} ms (shared key {}, renamed {},"
                                + " dropped {}, added {}, new unique keys {})", workflow, qualified,
                        SqlIdentifiers.quote(ghost), millis(begin), plan.sharedKey(), plan.mapping().renamed(),
                        plan.mapping().dropped(), plan.mapping().added(), plan.newUniqueKeys());
                return plan;
            } finally {
                restoreLockWaitTimeout(conn, savedTimeout);
            }
        } catch (AlterRefusedException e) {
            LOG.info("Workflow {}: ALTER of {} refused ({}) in {} ms: {}", workflow, qualified, e.reason(),
                    millis(begin), e.getMessage());
            throw e;
        }
    }

    /**
     * Drops the plan's ghost table (a cancel), with its mark. After a cut-over the ghost's name is free again, and
     * this only removes the mark.
     *
     * @return whether a table was dropped
     * @throws IllegalStateException when a table of that name exists that this workflow did not create (it stays)
     */
    public boolean dropGhost(Connection conn, AlterPlan plan) throws SQLException {
        return dropGhost(conn, plan.database(), plan.ghost());
    }

    /** {@link #dropGhost(Connection, AlterPlan)} by name. */
    public boolean dropGhost(Connection conn, String database, String ghost) throws SQLException {
        String type = SchemaReader.tableType(conn, database, ghost);
        if (type != null) {
            String owner = registry.owner(conn, database, ghost);
            if (!workflow.equals(owner)) {
                throw new IllegalStateException("Table " + SqlIdentifiers.qualify(database, ghost) + " is not a ghost"
                        + " table of workflow '" + workflow + "' (" + ownerText(owner) + "), so it is left in place;"
                        + " drop it by hand if it is a leftover");
            }
            Integer savedTimeout = setLockWaitTimeout(conn);
            try {
                execute(conn, "DROP TABLE IF EXISTS " + SqlIdentifiers.qualify(database, ghost));
            } finally {
                restoreLockWaitTimeout(conn, savedTimeout);
            }
            LOG.info("Workflow {}: dropped ghost table {}", workflow, SqlIdentifiers.qualify(database, ghost));
        }
        registry.release(conn, database, ghost, workflow);
        return type != null;
    }

    private static void checkTable(Connection conn, String db, String table) throws SQLException,
            AlterRefusedException {
        String qualified = SqlIdentifiers.qualify(db, table);
        String type = SchemaReader.tableType(conn, db, table);
        if (type == null) {
            throw new AlterRefusedException(Reason.NO_SUCH_TABLE, "Table " + qualified + " does not exist on this"
                    + " shard; check the workflow's database and table (every shard must have it)");
        }
        if (!"BASE TABLE".equalsIgnoreCase(type)) {
            throw new AlterRefusedException(Reason.NO_SUCH_TABLE, qualified + " is a " + type + ", not a table; only"
                    + " a base table can be migrated through a ghost table");
        }
        List<String> triggers = SchemaReader.triggers(conn, db, table);
        if (!triggers.isEmpty()) {
            throw new AlterRefusedException(Reason.TRIGGER, "Table " + qualified + " has triggers (" + quoted(triggers)
                    + "): the ghost table cannot run them, and the cut-over would leave them on the old table. Drop"
                    + " the triggers for the migration and create them again on the new table afterwards, or run the"
                    + " ALTER directly.");
        }
        List<String> fks = SchemaReader.foreignKeys(conn, db, table);
        if (!fks.isEmpty()) {
            throw new AlterRefusedException(Reason.FOREIGN_KEY, "Table " + qualified + " has or is referenced by"
                    + " foreign keys (" + String.join(", ", fks) + "): the ghost table cannot carry them, and the"
                    + " cut-over's RENAME would leave the children pointing at the old table. Drop the foreign keys"
                    + " for the migration (add them back afterwards), or run the ALTER directly.");
        }
    }

    /** Makes the ghost's name ours: a leftover ghost of this workflow is dropped, anyone else's table refused. */
    private void claim(Connection conn, String db, String table, String ghost) throws SQLException,
            AlterRefusedException {
        String qualified = SqlIdentifiers.qualify(db, ghost);
        String owner = registry.owner(conn, db, ghost);
        if (SchemaReader.tableType(conn, db, ghost) != null) {
            if (!workflow.equals(owner)) {
                throw ghostExists(qualified, ownerText(owner));
            }
            LOG.info("Workflow {}: replacing ghost table {} left by an earlier analysis", workflow, qualified);
            execute(conn, "DROP TABLE " + qualified);
        }
        registry.claim(conn, db, table, ghost, workflow);
    }

    private AlterPlan createAndCompare(Connection conn, String db, String table, String ghost,
                                       AlterStatement statement) throws SQLException, AlterRefusedException {
        String qualifiedGhost = SqlIdentifiers.qualify(db, ghost);
        String qualified = SqlIdentifiers.qualify(db, table);
        boolean created = false;
        try {
            try {
                execute(conn, "CREATE TABLE " + qualifiedGhost + " LIKE " + qualified);
            } catch (SQLException e) {
                if (e.getErrorCode() == ServerErrors.TABLE_EXISTS) {
                    throw ghostExists(qualifiedGhost, "another session created it just now");
                }
                throw e;
            }
            created = true;
            try {
                execute(conn, "ALTER TABLE " + qualifiedGhost + " " + statement.body());
            } catch (SQLException e) {
                if (ErrorClassifier.isRetriable(e)) {
                    throw e;
                }
                throw new AlterRefusedException(Reason.SERVER_REJECTED, "The server refused the ALTER of " + qualified
                        + ": " + e.getMessage() + " (error " + e.getErrorCode() + ", SQLState " + e.getSQLState()
                        + "). It ran on the empty ghost table " + qualifiedGhost + ", which is dropped; fix the"
                        + " statement.");
            }
            if (SchemaReader.tableType(conn, db, ghost) == null) {
                created = false;
                throw new AlterRefusedException(Reason.RENAMES_TABLE, "After the ALTER, the ghost table "
                        + qualifiedGhost + " is gone: the ALTER renamed it. Remove the RENAME from the ALTER, and look"
                        + " for the renamed ghost (an empty table) to drop it.");
            }
            List<String> fks = SchemaReader.foreignKeys(conn, db, ghost);
            if (!fks.isEmpty()) {
                throw new AlterRefusedException(Reason.FOREIGN_KEY, "The ALTER adds foreign keys (" + String.join(", ",
                        fks) + "): the cut-over's RENAME cannot carry foreign keys over to the new table. Leave them"
                        + " out of the migration and add them afterwards with a direct ALTER TABLE.");
            }
            TableShape original = SchemaReader.shape(conn, db, table);
            TableShape shaped = SchemaReader.shape(conn, db, ghost);
            boolean rows = SchemaReader.hasRows(conn, db, table);
            ShapeDiff diff = ShapeDiff.compare(qualified, original, shaped, statement.renames(), statement.replaced(),
                    allowNewUniqueKey,
                    rows);
            List<String> converted = ShapeDiff.zoneConverted(original, shaped, diff.mapping());
            if (!converted.isEmpty() && !SchemaReader.timeZoneIsUtc(conn)) {
                throw new AlterRefusedException(Reason.TIME_ZONE_CONVERSION, "The ALTER changes " + String.join(", ",
                        converted) + " between TIMESTAMP and DATETIME, and the server's time zone is not UTC: its own"
                        + " ALTER converts each value in that time zone, while the migration's copy and applier"
                        + " work in UTC and would shift every value by the zone's offset. Run this change with the"
                        + " server's own ALTER TABLE, or through a new column filled with CONVERT_TZ; other changes"
                        + " of the table can go in a migration of their own.");
            }
            List<String> notes = new ArrayList<>(diff.notes());
            if (statement.ignore()) {
                notes.add("ALTER IGNORE does not carry over: a row that breaks a key of the new table fails the"
                        + " migration instead of being dropped.");
            }
            return new AlterPlan(db, table, ghost, statement.body(), diff.mapping(), diff.sharedKey(),
                    diff.newUniqueKeys(), notes, SchemaReader.showCreate(conn, db, table),
                    SchemaReader.showCreate(conn, db, ghost), diff.keyGrows());
        } catch (AlterRefusedException | SQLException | RuntimeException e) {
            discard(conn, db, ghost, created, e);
            throw e;
        }
    }

    /** Drops what an analysis created (best effort: a failure is added to {@code cause}). */
    private void discard(Connection conn, String db, String ghost, boolean created, Exception cause) {
        try {
            if (created) {
                execute(conn, "DROP TABLE IF EXISTS " + SqlIdentifiers.qualify(db, ghost));
            }
            registry.release(conn, db, ghost, workflow);
        } catch (SQLException | RuntimeException e) {
            cause.addSuppressed(e);
            LOG.warn("Workflow {}: could not drop the ghost table {}; drop it by hand", workflow,
                    SqlIdentifiers.qualify(db, ghost), e);
        }
    }

    private AlterRefusedException ghostExists(String qualifiedGhost, String whose) {
        return new AlterRefusedException(Reason.GHOST_EXISTS, "Table " + qualifiedGhost + " already exists and is"
                + " not a ghost table of workflow '" + workflow + "' (" + whose + "): it may belong to"
                + " another migration (gh-ost names its ghost the same way). If it is a leftover, drop it (DROP TABLE "
                + qualifiedGhost + "); otherwise choose another ghost table name pattern.");
    }

    private String ownerText(String owner) {
        if (owner == null) {
            return "no mark in " + SqlIdentifiers.quote(registry.stateDatabase()) + ".`ghost_tables`";
        }
        return "marked by workflow '" + owner + "'";
    }

    private Integer setLockWaitTimeout(Connection conn) throws SQLException {
        if (lockWaitTimeout == null) {
            return null;
        }
        Integer saved;
        try (Statement st = conn.createStatement();
             ResultSet rs = st.executeQuery("SELECT @@SESSION.lock_wait_timeout")) {
            rs.next();
            saved = rs.getInt(1);
        }
        execute(conn, "SET SESSION lock_wait_timeout = " + Math.max(1, lockWaitTimeout.toSeconds()));
        return saved;
    }

    private static void restoreLockWaitTimeout(Connection conn, Integer saved) {
        if (saved == null) {
            return;
        }
        try {
            execute(conn, "SET SESSION lock_wait_timeout = " + saved);
        } catch (SQLException e) {
            LOG.debug("Could not restore lock_wait_timeout", e);
        }
    }

    private static void execute(Connection conn, String sql) throws SQLException {
        try (Statement st = conn.createStatement()) {
            st.execute(SqlTag.tag(ROLE, sql));
        }
    }

    private static String quoted(List<String> names) {
        return names.stream().map(SqlIdentifiers::quote).reduce((a, b) -> a + ", " + b).orElse("");
    }

    private static long millis(long begin) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - begin);
    }

    /** Options of an {@link AlterAnalyzer}. */
    public static final class Builder {
        private final String workflow;
        private String ghostNamePattern = GhostNames.DEFAULT_PATTERN;
        private String stateDatabase = "_vstream";
        private boolean allowNewUniqueKey;
        private Duration lockWaitTimeout = Duration.ofSeconds(10);

        private Builder(String workflow) {
            if (workflow == null || workflow.isBlank()) {
                throw new IllegalArgumentException("The workflow name is empty; it marks the ghost tables it creates");
            }
            this.workflow = workflow;
        }

        /** The ghost table's name, {@code ${table}} standing for the table's (default {@code _${table}_gho}). */
        public Builder ghostNamePattern(String pattern) {
            new GhostNames(pattern);
            this.ghostNamePattern = pattern;
            return this;
        }

        /** The database on each shard that holds the ghost tables' marks (default {@code _vstream}). */
        public Builder stateDatabase(String database) {
            if (database == null || database.isBlank()) {
                throw new IllegalArgumentException("The state database name is empty");
            }
            this.stateDatabase = database;
            return this;
        }

        /**
         * Accept a new schema that enforces a uniqueness the table does not (a new UNIQUE key, a PRIMARY KEY over
         * fewer columns); a row that breaks it then fails the migration (default false: such an ALTER is refused).
         */
        public Builder allowNewUniqueKey(boolean allow) {
            this.allowNewUniqueKey = allow;
            return this;
        }

        /**
         * How long the analysis's DDL (CREATE ... LIKE, ALTER, DROP of the ghost) waits for a metadata lock, e.g.
         * behind a long transaction on the table (default 10 s; {@code null} keeps the session's setting).
         */
        public Builder lockWaitTimeout(Duration timeout) {
            if (timeout != null && (timeout.isNegative() || timeout.isZero())) {
                throw new IllegalArgumentException("lockWaitTimeout must be positive, was " + timeout);
            }
            this.lockWaitTimeout = timeout;
            return this;
        }

        public AlterAnalyzer build() {
            return new AlterAnalyzer(this);
        }
    }
}
