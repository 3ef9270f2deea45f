package io.vstream.connect.jdbc;

import io.vstream.connect.core.sql.SqlIdentifiers;
import io.vstream.connect.core.sql.SqlTag;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Creates and upgrades the tables the components keep in their state database ({@code state.database}): the database
 * and a table when they are missing ({@link #create}), and a column that the table of an older version lacks
 * ({@link #addColumnIfMissing}). One way for every shared table ({@link AppliedTable}, {@link MigrationPlans}, ...).
 * Touches the server it is given.
 */
public final class StateTables {
    /** ER_DUP_FIELDNAME: the column exists already. */
    private static final int DUPLICATE_COLUMN = 1060;

    private StateTables() {
    }

    /**
     * Creates the state database when it is missing, then runs {@code createTable} (a {@code CREATE TABLE IF NOT
     * EXISTS} of a table in it, tagged or not as its caller wants).
     */
    public static void create(Connection conn, String stateDatabase, String createTable) throws SQLException {
        try (Statement st = conn.createStatement()) {
            st.execute("CREATE DATABASE IF NOT EXISTS " + SqlIdentifiers.quote(stateDatabase));
            st.execute(createTable);
        }
    }

    /**
     * Adds {@code column} ({@code definition}: its type and attributes) to {@code table} in the state database when
     * the table, created by an older version, lacks it; the {@code ALTER} is tagged with {@code role}. The column is
     * looked up in {@code information_schema} first, rather than added with {@code ADD COLUMN IF NOT EXISTS}, which
     * MySQL lacks; a caller that added it meanwhile (two tasks starting at once) is no error.
     */
    public static void addColumnIfMissing(Connection conn, String role, String stateDatabase, String table,
                                          String column, String definition) throws SQLException {
        if (InformationSchema.hasColumn(conn, stateDatabase, table, column)) {
            return;
        }
        try (Statement st = conn.createStatement()) {
            st.execute(addColumnStatement(role, stateDatabase, table, column, definition));
        } catch (SQLException e) {
            if (e.getErrorCode() != DUPLICATE_COLUMN) {
                throw e;
            }
        }
    }

    static String addColumnStatement(String role, String stateDatabase, String table, String column,
                                     String definition) {
        return SqlTag.tag(role, "ALTER TABLE " + SqlIdentifiers.qualify(stateDatabase, table) + " ADD COLUMN "
                + SqlIdentifiers.quote(column) + " " + definition);
    }
}
