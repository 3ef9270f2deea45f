package io.vstream.connect.core.mapping;

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
 * key. One place for the table's shape and its reading and writing, shared by both sides.
 */
public final class MigrationPlans {
    /** One migration on one shard. */
    public record Plan(String migration, String database, String table, String ghostTable, ColumnMapping mapping,
                       List<String> keyColumns, boolean newUniqueKey) {
    }

    private MigrationPlans() {
    }

    public static void ensure(Connection conn, String stateDatabase) throws SQLException {
        try (Statement st = conn.createStatement()) {
            st.execute("CREATE DATABASE IF NOT EXISTS " + SqlIdentifiers.quote(stateDatabase));
            st.execute(SqlTag.tag("coordinator", "CREATE TABLE IF NOT EXISTS " + SqlIdentifiers.qualify(stateDatabase,
                    "migrations") + " (migration VARCHAR(128) NOT NULL PRIMARY KEY, database_name VARCHAR(64) NOT NULL,"
                    + " table_name VARCHAR(64) NOT NULL, ghost_table VARCHAR(64) NOT NULL, mapping MEDIUMTEXT NOT NULL,"
                    + " key_columns TEXT NOT NULL, new_unique_key TINYINT NOT NULL DEFAULT 0,"
                    + " created_at TIMESTAMP(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6)) ENGINE=InnoDB"));
        }
    }

    public static void save(Connection conn, String stateDatabase, Plan p) throws SQLException {
        ensure(conn, stateDatabase);
        try (PreparedStatement ps = conn.prepareStatement(SqlTag.tag("coordinator", "REPLACE INTO "
                + SqlIdentifiers.qualify(stateDatabase, "migrations") + " (migration, database_name, table_name,"
                + " ghost_table, mapping, key_columns, new_unique_key) VALUES (?, ?, ?, ?, ?, ?, ?)"))) {
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

    /** The plan, or {@code null} when the coordinator has not written it (yet). */
    public static Plan load(Connection conn, String stateDatabase, String migration) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement("SELECT database_name, table_name, ghost_table, mapping,"
                + " key_columns, new_unique_key FROM " + SqlIdentifiers.qualify(stateDatabase, "migrations")
                + " WHERE migration = ?")) {
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

    public static void delete(Connection conn, String stateDatabase, String migration) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement("DELETE FROM " + SqlIdentifiers.qualify(stateDatabase,
                "migrations") + " WHERE migration = ?")) {
            ps.setString(1, migration);
            ps.executeUpdate();
        } catch (SQLException e) {
            if (e.getErrorCode() != 1146 && e.getErrorCode() != 1049) {
                throw e;
            }
        }
    }
}
