package io.vstream.connect.jdbc;

import io.vstream.connect.core.mapping.ColumnMapping;
import io.vstream.connect.core.sql.SqlIdentifiers;
import io.vstream.connect.core.sql.SqlTag;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.List;

/**
 * The online-DDL plans the coordinator writes on each shard ({@code <state.database>.migrations}) and the applier in
 * ghost mode reads: which table is migrated into which ghost table, through which column mapping, writing by which
 * key. One place for the table's shape and its reading and writing, shared by both sides. A migration the server ran
 * instantly ({@code ALGORITHM=INSTANT}, no ghost) is recorded there too, with {@code method = 'instant'}: it has no
 * plan for an applier ({@link #load} returns none), and the coordinator reads it back ({@link #appliedInstantly});
 * before it runs such an ALTER it records the definition the table is to have ({@code method = 'instant-started'},
 * {@link #saveInstantStarted}). A migration that may be reverted has two more rows, its <em>direction plans</em>
 * ({@link #saveDirection}, {@code method = 'revert'}): after the cut-over's swap the table's changes go into the table that follows it, the kept
 * original through the reverse mapping ({@link #revertKey}), and after a revert's swap the ALTERed table through the
 * forward mapping again ({@link #forwardKey}); each swap of the two activates the other ({@link #activateDirection}).
 */
public final class MigrationPlans {
    /** One migration on one shard. */
    public record Plan(String migration, String database, String table, String ghostTable, ColumnMapping mapping,
                       List<String> keyColumns, boolean newUniqueKey) {
        /**
         * The shared key's columns by their names in the original table, in key order ({@link #keyColumns} names them
         * in the ghost).
         *
         * @throws IllegalStateException when a key column is not a shared column of the mapping
         */
        public List<String> originalKeyColumns() {
            List<String> out = new java.util.ArrayList<>();
            for (String g : keyColumns) {
                out.add(mapping.shared().entrySet().stream().filter(e -> e.getValue().equalsIgnoreCase(g))
                        .map(java.util.Map.Entry::getKey).findFirst().orElseThrow(() -> new IllegalStateException(
                                "key column " + g + " of the ghost is not a shared column of migration " + migration)));
            }
            return out;
        }
    }

    private MigrationPlans() {
    }

    /** How a migration fills its new table: through a ghost ({@code copy}) or not at all ({@code instant}). */
    private static final String COPY = "copy";
    private static final String INSTANT = "instant";
    private static final String INSTANT_STARTED = "instant-started";
    private static final String REVERT = "revert";

    /**
     * A direction plan ({@link #saveDirection}): {@code plan} maps the columns of the table as the stream names it
     * (its name after a swap) onto those of the table that follows it; its ghost table (the follower) is empty until
     * the applier, passing a swap in the stream, names it ({@link #activateDirection}), and {@code since} is then when
     * it began to follow.
     */
    public record Direction(Plan plan, java.time.Instant since) {
        /** Whether the applier has passed a swap into this direction (and writes its follower). */
        public boolean active() {
            return !plan.ghostTable().isEmpty();
        }

        /** Whether this is the reverse direction: the ALTERed table serves and the original follows. */
        public boolean reverse() {
            return plan.migration().endsWith("/revert");
        }
    }

    /** The key of a migration's reverse plan (the new table's changes into the kept original). */
    public static String revertKey(String migration) {
        return migration + "/revert";
    }

    /** The key of a migration's forward plan after a revert (the original's changes into the ALTERed table). */
    public static String forwardKey(String migration) {
        return migration + "/forward";
    }

    public static void ensure(Connection conn, String stateDatabase) throws SQLException {
        StateTables.create(conn, stateDatabase, SqlTag.tag("coordinator", "CREATE TABLE IF NOT EXISTS "
                + SqlIdentifiers.qualify(stateDatabase, "migrations") + " (migration VARCHAR(128) NOT NULL PRIMARY KEY,"
                + " database_name VARCHAR(64) NOT NULL, table_name VARCHAR(64) NOT NULL,"
                + " ghost_table VARCHAR(64) NOT NULL, mapping MEDIUMTEXT NOT NULL, key_columns TEXT NOT NULL,"
                + " new_unique_key TINYINT NOT NULL DEFAULT 0, method VARCHAR(16) NOT NULL DEFAULT 'copy',"
                + " instant_definition MEDIUMTEXT NULL, copy_start_position TEXT NULL,"
                + " created_at TIMESTAMP(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6)) ENGINE=InnoDB"));
        // a state database of an earlier version has no method column (every migration then copied)
        StateTables.addColumnIfMissing(conn, "coordinator", stateDatabase, "migrations", "method",
                "VARCHAR(16) NOT NULL DEFAULT 'copy'");
        // nor the definition an instant ALTER is to give its table (instant ALTERs were recorded once done only)
        StateTables.addColumnIfMissing(conn, "coordinator", stateDatabase, "migrations", "instant_definition",
                "MEDIUMTEXT NULL");
        // nor the position a copy that starts at once starts from (every copy then waited for the applier)
        StateTables.addColumnIfMissing(conn, "coordinator", stateDatabase, "migrations", "copy_start_position",
                "TEXT NULL");
    }

    /**
     * Records, before the coordinator runs {@code migration}'s ALTER instantly on this shard, the definition the table
     * will have after it ({@code method = 'instant-started'}): a try that lost its connection while the ALTER ran, or
     * a coordinator that died before {@link #saveInstant}, leaves the question whether it was applied, and the table's
     * definition then answers it ({@link #instantStarted}).
     */
    public static void saveInstantStarted(Connection conn, String stateDatabase, String migration, String database,
                                          String table, String definition) throws SQLException {
        saveInstantRow(conn, stateDatabase, migration, database, table, INSTANT_STARTED, definition);
    }

    /** The row of an instant ALTER ({@code method}: started or done; the definition only while started). */
    private static void saveInstantRow(Connection conn, String stateDatabase, String migration, String database,
                                       String table, String method, String definition) throws SQLException {
        ensure(conn, stateDatabase);
        try (PreparedStatement ps = conn.prepareStatement(SqlTag.tag("coordinator", "REPLACE INTO "
                + SqlIdentifiers.qualify(stateDatabase, "migrations") + " (migration, database_name, table_name,"
                + " ghost_table, mapping, key_columns, method, instant_definition) VALUES (?, ?, ?, '', '', '', ?,"
                + " ?)"))) {
            ps.setString(1, migration);
            ps.setString(2, database);
            ps.setString(3, table);
            ps.setString(4, method);
            ps.setString(5, definition);
            ps.executeUpdate();
        }
    }

    /** The definition recorded by {@link #saveInstantStarted} while the instant ALTER is not recorded done; or null. */
    public static String instantStarted(Connection conn, String stateDatabase, String migration) throws SQLException {
        return column(conn, stateDatabase, migration, "instant_definition", INSTANT_STARTED);
    }

    /** {@code column} of the migration's row with {@code method}; null without one (or without the state yet). */
    private static String column(Connection conn, String stateDatabase, String migration, String column,
                                 String method) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement("SELECT " + column + " FROM "
                + SqlIdentifiers.qualify(stateDatabase, "migrations") + " WHERE migration = ? AND method = ?")) {
            ps.setString(1, migration);
            ps.setString(2, method);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        } catch (SQLException e) {
            if (noStateYet(e)) {
                return null;
            }
            throw e;
        }
    }

    /**
     * Whether {@code e} says the shard holds no such state yet: no state database or table, or a table of an earlier
     * version without the column asked for.
     */
    private static boolean noStateYet(SQLException e) {
        return e.getErrorCode() == 1146 || e.getErrorCode() == 1049 || e.getErrorCode() == 1054;
    }

    /** Forgets {@link #saveInstantStarted}'s record (the server refused the ALTER after all: the copy path runs). */
    public static void forgetInstantStarted(Connection conn, String stateDatabase, String migration)
            throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement("DELETE FROM " + SqlIdentifiers.qualify(stateDatabase,
                "migrations") + " WHERE migration = ? AND method = '" + INSTANT_STARTED + "'")) {
            ps.setString(1, migration);
            ps.executeUpdate();
        }
    }

    /** Records that the server ran {@code migration} instantly on this shard (no ghost, no plan for an applier). */
    public static void saveInstant(Connection conn, String stateDatabase, String migration, String database,
                                   String table) throws SQLException {
        saveInstantRow(conn, stateDatabase, migration, database, table, INSTANT, null);
    }

    /** Whether the server ran {@code migration} instantly on this shard ({@link #saveInstant}). */
    public static boolean appliedInstantly(Connection conn, String stateDatabase, String migration)
            throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement("SELECT method FROM " + SqlIdentifiers.qualify(stateDatabase,
                "migrations") + " WHERE migration = ?")) {
            ps.setString(1, migration);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() && INSTANT.equals(rs.getString(1));
            }
        } catch (SQLException e) {
            if (noStateYet(e)) {
                return false;
            }
            throw e;
        }
    }

    /**
     * Stores the plan of a migration whose copy starts at once ({@code ddl.copy.start=at-once}) from
     * {@code copyStartPosition}, the shard's GTID position read after its ghost table was created (null: the copy waits
     * for the applier's first position instead). The plan and the position are written in one statement: an applier
     * that reads the plan knows whether its stream must start at or before that position ({@link #copyStart}), and a
     * source with {@code start.mode=migration} starts there.
     */
    public static void save(Connection conn, String stateDatabase, Plan p, String copyStartPosition)
            throws SQLException {
        ensure(conn, stateDatabase);
        try (PreparedStatement ps = conn.prepareStatement(SqlTag.tag("coordinator", "REPLACE INTO "
                + SqlIdentifiers.qualify(stateDatabase, "migrations") + " (migration, database_name, table_name,"
                + " ghost_table, mapping, key_columns, new_unique_key, method, copy_start_position) VALUES (?, ?, ?, ?,"
                + " ?, ?, ?, '" + COPY + "', ?)"))) {
            ps.setString(1, p.migration());
            ps.setString(2, p.database());
            ps.setString(3, p.table());
            ps.setString(4, p.ghostTable());
            ps.setString(5, p.mapping().toJson());
            ps.setString(6, String.join(",", p.keyColumns()));
            ps.setBoolean(7, p.newUniqueKey());
            ps.setString(8, copyStartPosition);
            ps.executeUpdate();
        }
    }

    /**
     * The GTID position (with its flavor, e.g. {@code MariaDB/0-1-42}) the copy of {@code migration} started from on
     * this shard when the coordinator copies at once; null when the migration has no plan here yet, or its copy waits
     * for the applier's first position instead.
     */
    public static String copyStart(Connection conn, String stateDatabase, String migration) throws SQLException {
        return column(conn, stateDatabase, migration, "copy_start_position", COPY);
    }

    /**
     * The plan, or {@code null} when the coordinator has not written it (yet), or when the migration ran instantly and
     * has none.
     */
    public static Plan load(Connection conn, String stateDatabase, String migration) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement("SELECT database_name, table_name, ghost_table, mapping,"
                + " key_columns, new_unique_key FROM " + SqlIdentifiers.qualify(stateDatabase, "migrations")
                + " WHERE migration = ? AND ghost_table <> ''")) {
            ps.setString(1, migration);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return null;
                }
                return new Plan(migration, rs.getString(1), rs.getString(2), rs.getString(3),
                        ColumnMapping.fromJson(rs.getString(4)), Arrays.asList(rs.getString(5).split(",")),
                        rs.getBoolean(6));
            }
        } catch (SQLException e) {
            if (e.getErrorCode() == 1146 || e.getErrorCode() == 1049) {
                return null;
            }
            throw e;
        }
    }

    /**
     * Stores a direction plan under {@code key} ({@link #revertKey} or {@link #forwardKey}): after a swap the rows of
     * {@code table} go into the table that follows it through {@code mapping}, written by {@code keyColumns} (names in
     * the follower). The follower's name is not known until the swap ({@link #activateDirection} records it).
     */
    public static void saveDirection(Connection conn, String stateDatabase, String key, String database,
                                     String table, ColumnMapping mapping, List<String> keyColumns,
                                     boolean writesByDelete) throws SQLException {
        ensure(conn, stateDatabase);
        try (PreparedStatement ps = conn.prepareStatement(SqlTag.tag("coordinator", "REPLACE INTO "
                + SqlIdentifiers.qualify(stateDatabase, "migrations") + " (migration, database_name, table_name,"
                + " ghost_table, mapping, key_columns, new_unique_key, method) VALUES (?, ?, ?, '', ?, ?, ?, '"
                + REVERT + "')"))) {
            ps.setString(1, key);
            ps.setString(2, database);
            ps.setString(3, table);
            ps.setString(4, mapping.toJson());
            ps.setString(5, String.join(",", keyColumns));
            ps.setBoolean(6, writesByDelete);
            ps.executeUpdate();
        }
    }

    /** The direction plan under {@code key}, or null when there is none (not revertible, or none asked for). */
    public static Direction loadDirection(Connection conn, String stateDatabase, String key) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement("SELECT database_name, table_name, ghost_table, mapping,"
                + " key_columns, new_unique_key, UNIX_TIMESTAMP(created_at) FROM " + SqlIdentifiers.qualify(
                stateDatabase, "migrations") + " WHERE migration = ? AND method = '" + REVERT + "'")) {
            ps.setString(1, key);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return null;
                }
                Plan plan = new Plan(key, rs.getString(1), rs.getString(2), rs.getString(3),
                        ColumnMapping.fromJson(rs.getString(4)), Arrays.asList(rs.getString(5).split(",")),
                        rs.getBoolean(6));
                java.math.BigDecimal since = rs.getBigDecimal(7);
                return new Direction(plan, plan.ghostTable().isEmpty() || since == null ? null
                        : java.time.Instant.ofEpochMilli(since.movePointRight(3).longValue()));
            }
        } catch (SQLException e) {
            if (noStateYet(e)) {
                return null;
            }
            throw e;
        }
    }

    /**
     * The direction the applier of {@code migration} follows now: of its two direction plans, the one it activated
     * last; null before the first swap (or when the migration keeps no revert window).
     */
    public static Direction activeDirection(Connection conn, String stateDatabase, String migration)
            throws SQLException {
        Direction reverse = loadDirection(conn, stateDatabase, revertKey(migration));
        Direction forward = loadDirection(conn, stateDatabase, forwardKey(migration));
        Direction active = reverse != null && reverse.active() ? reverse : null;
        if (forward != null && forward.active() && (active == null || forward.since().isAfter(active.since()))) {
            active = forward;
        }
        return active;
    }

    /**
     * Records, in the caller's transaction, that the applier passed a swap into the direction under {@code key}: its
     * follower is now named {@code follower}, and it follows from now on. Returns the active plan, or null when there
     * is no plan under {@code key}.
     */
    public static Direction activateDirection(Connection conn, String stateDatabase, String key, String follower)
            throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement(SqlTag.tag("sink", "UPDATE "
                + SqlIdentifiers.qualify(stateDatabase, "migrations") + " SET ghost_table = ?, created_at ="
                + " CURRENT_TIMESTAMP(6) WHERE migration = ? AND method = '" + REVERT + "'"))) {
            ps.setString(1, follower);
            ps.setString(2, key);
            ps.executeUpdate();
        }
        return loadDirection(conn, stateDatabase, key);
    }

    public static void delete(Connection conn, String stateDatabase, String migration) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement("DELETE FROM " + SqlIdentifiers.qualify(stateDatabase,
                "migrations") + " WHERE migration IN (?, ?, ?)")) {
            ps.setString(1, migration);
            ps.setString(2, revertKey(migration)); // its direction plans go with it
            ps.setString(3, forwardKey(migration));
            ps.executeUpdate();
        } catch (SQLException e) {
            if (e.getErrorCode() != 1146 && e.getErrorCode() != 1049) {
                throw e;
            }
        }
    }
}
