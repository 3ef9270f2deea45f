package io.vstream.connect.coordinator.ddl;

import io.vstream.connect.core.error.ServerErrors;
import io.vstream.connect.core.sql.SqlIdentifiers;
import io.vstream.connect.core.sql.SqlTag;
import io.vstream.connect.jdbc.StateTables;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * Marks the ghost tables a workflow creates as its own: one row per ghost in {@code <state database>.ghost_tables}
 * on the shard (keyed by schema and ghost name, naming the original table and the workflow), written before the
 * ghost is created and removed with it. A table with the ghost's name but no row of ours is someone else's (another
 * workflow's, gh-ost's, an operator's) and is never dropped. Touches the shard: creates the state database and table
 * when missing, and reads and writes their rows (they replicate, as the ghost does).
 */
final class GhostRegistry {
    private static final String ROLE = "online-ddl:ghost";
    private static final String TABLE = "ghost_tables";

    private final String stateDb;

    GhostRegistry(String stateDb) {
        this.stateDb = stateDb;
    }

    String stateDatabase() {
        return stateDb;
    }

    /** The workflow that marked {@code db.ghost} as its ghost, or {@code null} (also when no marks exist yet). */
    String owner(Connection c, String db, String ghost) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(SqlTag.tag(ROLE, "SELECT workflow FROM " + table()
                + " WHERE table_schema = ? AND ghost_name = ?"))) {
            ps.setString(1, db);
            ps.setString(2, ghost);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        } catch (SQLException e) {
            if (ServerErrors.isMissingTable(e)) {
                return null; // no table or database of marks yet
            }
            throw e;
        }
    }

    /** Marks {@code db.ghost} (the ghost of {@code db.original}) as {@code workflow}'s, replacing any earlier mark. */
    void claim(Connection c, String db, String original, String ghost, String workflow) throws SQLException {
        StateTables.create(c, stateDb, SqlTag.tag(ROLE, "CREATE TABLE IF NOT EXISTS " + table()
                + " (table_schema VARCHAR(64) NOT NULL, ghost_name VARCHAR(64) NOT NULL,"
                + " table_name VARCHAR(64) NOT NULL, workflow VARCHAR(255) NOT NULL,"
                + " created_at TIMESTAMP(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6),"
                + " PRIMARY KEY (table_schema, ghost_name)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4"
                + " COLLATE=utf8mb4_bin"));
        try (PreparedStatement ps = c.prepareStatement(SqlTag.tag(ROLE, "INSERT INTO " + table()
                + " (table_schema, ghost_name, table_name, workflow) VALUES (?, ?, ?, ?) ON DUPLICATE KEY UPDATE"
                + " table_name = VALUES(table_name), workflow = VALUES(workflow),"
                + " created_at = CURRENT_TIMESTAMP(6)"))) {
            ps.setString(1, db);
            ps.setString(2, ghost);
            ps.setString(3, original);
            ps.setString(4, workflow);
            ps.executeUpdate();
        }
        commit(c);
    }

    /** Removes {@code workflow}'s mark of {@code db.ghost}, if any. */
    void release(Connection c, String db, String ghost, String workflow) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(SqlTag.tag(ROLE, "DELETE FROM " + table()
                + " WHERE table_schema = ? AND ghost_name = ? AND workflow = ?"))) {
            ps.setString(1, db);
            ps.setString(2, ghost);
            ps.setString(3, workflow);
            ps.executeUpdate();
        } catch (SQLException e) {
            if (ServerErrors.isMissingTable(e)) {
                return;
            }
            throw e;
        }
        commit(c);
    }

    private String table() {
        return SqlIdentifiers.qualify(stateDb, TABLE);
    }

    private static void commit(Connection c) throws SQLException {
        if (!c.getAutoCommit()) {
            c.commit();
        }
    }
}
