package io.vstream.connect.jdbc;

import io.vstream.connect.core.mapping.ColumnMapping;
import io.vstream.connect.core.sql.SqlIdentifiers;
import io.vstream.connect.core.sql.SqlTag;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;

/**
 * The online-DDL plans the coordinator writes on each shard ({@code <state.database>.migrations}) and the applier in
 * ghost mode reads: which table is migrated into which ghost table, through which column mapping, writing by which
 * key. One place for the table's shape and its reading and writing, shared by both sides. A migration the server ran
 * instantly ({@code ALGORITHM=INSTANT}, no ghost) is recorded there too, with {@code method = 'instant'}: it has no
 * plan for an applier ({@link #load} returns none), and the coordinator reads it back ({@link #appliedInstantly}).
 * A migration that may be reverted has a second row, its <em>reverse plan</em> ({@link #saveRevert}, {@code method =
 * 'revert'}, under {@link #revertKey}): the new table's changes carried into the kept original after the cut-over.
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
    private static final String REVERT = "revert";

    /**
     * A migration's reverse plan ({@link #saveRevert}): {@code plan} maps the new table's columns (the table's name
     * after the swap) onto the kept original's; its ghost table is empty until the applier, reaching the cut-over's
     * swap in the stream, names the original's new name ({@link #activateRevert}), and {@code since} is then when the
     * reverse stream began.
     */
    public record Revert(Plan plan, java.time.Instant since) {
        /** Whether the applier has passed the swap and writes the kept original. */
        public boolean active() {
            return !plan.ghostTable().isEmpty();
        }
    }

    /** The key of a migration's reverse plan in the migrations table. */
    public static String revertKey(String migration) {
        return migration + "/revert";
    }

    public static void ensure(Connection conn, String stateDatabase) throws SQLException {
        try (Statement st = conn.createStatement()) {
            st.execute("CREATE DATABASE IF NOT EXISTS " + SqlIdentifiers.quote(stateDatabase));
            st.execute(SqlTag.tag("coordinator", "CREATE TABLE IF NOT EXISTS " + SqlIdentifiers.qualify(stateDatabase,
                    "migrations") + " (migration VARCHAR(128) NOT NULL PRIMARY KEY, database_name VARCHAR(64) NOT NULL,"
                    + " table_name VARCHAR(64) NOT NULL, ghost_table VARCHAR(64) NOT NULL, mapping MEDIUMTEXT NOT NULL,"
                    + " key_columns TEXT NOT NULL, new_unique_key TINYINT NOT NULL DEFAULT 0,"
                    + " method VARCHAR(16) NOT NULL DEFAULT 'copy',"
                    + " created_at TIMESTAMP(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6)) ENGINE=InnoDB"));
        }
        // a state database of an earlier version has no method column (every migration then copied)
        try (PreparedStatement ps = conn.prepareStatement("SELECT COUNT(*) FROM information_schema.COLUMNS WHERE"
                + " TABLE_SCHEMA = ? AND TABLE_NAME = 'migrations' AND COLUMN_NAME = 'method'")) {
            ps.setString(1, stateDatabase);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                if (rs.getInt(1) == 0) {
                    try (Statement st = conn.createStatement()) {
                        st.execute(SqlTag.tag("coordinator", "ALTER TABLE " + SqlIdentifiers.qualify(stateDatabase,
                                "migrations") + " ADD COLUMN IF NOT EXISTS method VARCHAR(16) NOT NULL DEFAULT 'copy'"));
                    }
                }
            }
        }
    }

    /** Records that the server ran {@code migration} instantly on this shard (no ghost, no plan for an applier). */
    public static void saveInstant(Connection conn, String stateDatabase, String migration, String database,
                                   String table) throws SQLException {
        ensure(conn, stateDatabase);
        try (PreparedStatement ps = conn.prepareStatement(SqlTag.tag("coordinator", "REPLACE INTO "
                + SqlIdentifiers.qualify(stateDatabase, "migrations") + " (migration, database_name, table_name,"
                + " ghost_table, mapping, key_columns, method) VALUES (?, ?, ?, '', '', '', ?)"))) {
            ps.setString(1, migration);
            ps.setString(2, database);
            ps.setString(3, table);
            ps.setString(4, INSTANT);
            ps.executeUpdate();
        }
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
            if (e.getErrorCode() == 1146 || e.getErrorCode() == 1049 || e.getErrorCode() == 1054) {
                return false;
            }
            throw e;
        }
    }

    public static void save(Connection conn, String stateDatabase, Plan p) throws SQLException {
        ensure(conn, stateDatabase);
        try (PreparedStatement ps = conn.prepareStatement(SqlTag.tag("coordinator", "REPLACE INTO "
                + SqlIdentifiers.qualify(stateDatabase, "migrations") + " (migration, database_name, table_name,"
                + " ghost_table, mapping, key_columns, new_unique_key, method) VALUES (?, ?, ?, ?, ?, ?, ?, '" + COPY
                + "')"))) {
            ps.setString(1, p.migration());
            ps.setString(2, p.database());
            ps.setString(3, p.table());
            ps.setString(4, p.ghostTable());
            ps.setString(5, p.mapping().toJson());
            ps.setString(6, String.join(",", p.keyColumns()));
            ps.setBoolean(7, p.newUniqueKey());
            ps.executeUpdate();
        }
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
     * Stores the reverse plan of {@code migration}: after the swap, the rows of {@code table} (the new table) go into
     * the kept original through {@code mapping} (new names onto old ones), written by {@code keyColumns} (names in the
     * original). The original's name after the swap is not known yet ({@link #activateRevert} records it).
     */
    public static void saveRevert(Connection conn, String stateDatabase, String migration, String database,
                                  String table, ColumnMapping mapping, List<String> keyColumns,
                                  boolean writesByDelete) throws SQLException {
        ensure(conn, stateDatabase);
        try (PreparedStatement ps = conn.prepareStatement(SqlTag.tag("coordinator", "REPLACE INTO "
                + SqlIdentifiers.qualify(stateDatabase, "migrations") + " (migration, database_name, table_name,"
                + " ghost_table, mapping, key_columns, new_unique_key, method) VALUES (?, ?, ?, '', ?, ?, ?, '"
                + REVERT + "')"))) {
            ps.setString(1, revertKey(migration));
            ps.setString(2, database);
            ps.setString(3, table);
            ps.setString(4, mapping.toJson());
            ps.setString(5, String.join(",", keyColumns));
            ps.setBoolean(6, writesByDelete);
            ps.executeUpdate();
        }
    }

    /** The reverse plan of {@code migration}, or null when it has none (not revertible, or none asked for). */
    public static Revert loadRevert(Connection conn, String stateDatabase, String migration) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement("SELECT database_name, table_name, ghost_table, mapping,"
                + " key_columns, new_unique_key, UNIX_TIMESTAMP(created_at) FROM " + SqlIdentifiers.qualify(stateDatabase,
                "migrations") + " WHERE migration = ? AND method = '" + REVERT + "'")) {
            ps.setString(1, revertKey(migration));
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return null;
                }
                Plan plan = new Plan(revertKey(migration), rs.getString(1), rs.getString(2), rs.getString(3),
                        ColumnMapping.fromJson(rs.getString(4)), Arrays.asList(rs.getString(5).split(",")),
                        rs.getBoolean(6));
                java.math.BigDecimal since = rs.getBigDecimal(7);
                return new Revert(plan, plan.ghostTable().isEmpty() || since == null ? null
                        : java.time.Instant.ofEpochMilli(since.movePointRight(3).longValue()));
            }
        } catch (SQLException e) {
            if (e.getErrorCode() == 1146 || e.getErrorCode() == 1049 || e.getErrorCode() == 1054) {
                return null;
            }
            throw e;
        }
    }

    /**
     * Records, in the caller's transaction, that the applier passed the cut-over's swap: the kept original is now
     * named {@code originalTable}, and the reverse stream begins now. Returns the active reverse plan, or null when
     * {@code migration} has none.
     */
    public static Revert activateRevert(Connection conn, String stateDatabase, String migration,
                                        String originalTable) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement(SqlTag.tag("sink", "UPDATE "
                + SqlIdentifiers.qualify(stateDatabase, "migrations") + " SET ghost_table = ?, created_at ="
                + " CURRENT_TIMESTAMP(6) WHERE migration = ? AND method = '" + REVERT + "'"))) {
            ps.setString(1, originalTable);
            ps.setString(2, revertKey(migration));
            ps.executeUpdate();
        }
        return loadRevert(conn, stateDatabase, migration);
    }

    public static void delete(Connection conn, String stateDatabase, String migration) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement("DELETE FROM " + SqlIdentifiers.qualify(stateDatabase,
                "migrations") + " WHERE migration IN (?, ?)")) {
            ps.setString(1, migration);
            ps.setString(2, revertKey(migration)); // its reverse plan goes with it
            ps.executeUpdate();
        } catch (SQLException e) {
            if (e.getErrorCode() != 1146 && e.getErrorCode() != 1049) {
                throw e;
            }
        }
    }
}
