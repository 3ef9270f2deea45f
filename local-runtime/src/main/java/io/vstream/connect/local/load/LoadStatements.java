package io.vstream.connect.local.load;

import io.vstream.connect.core.sql.SqlIdentifiers;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.util.Collections;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Runs one {@link RowChange} as SQL ({@code INSERT}, {@code UPDATE ... WHERE key = ?},
 * {@code DELETE ... WHERE key = ?}), tagged with a comment so a DBA recognises the load in the
 * processlist, and returns the affected row count. Runs on the caller's connection.
 */
final class LoadStatements {

    private static final String TAG = "/* vstream write load */ ";

    private LoadStatements() {
    }

    static int execute(Connection connection, LoadTable table, RowChange change) throws SQLException {
        List<String> columns = table.rows().columns();
        String name = quote(table.name());
        String key = quote(table.keyColumn());
        switch (change.op()) {
            case INSERT: {
                String sql = "INSERT " + TAG + "INTO " + name + " (" + key + ", "
                        + columns.stream().map(LoadStatements::quote).collect(Collectors.joining(", "))
                        + ") VALUES (" + String.join(", ", Collections.nCopies(columns.size() + 1, "?")) + ")";
                try (PreparedStatement statement = connection.prepareStatement(sql)) {
                    statement.setLong(1, change.key());
                    bindValues(statement, 2, columns, change);
                    return statement.executeUpdate();
                }
            }
            case UPDATE: {
                String sql = "UPDATE " + TAG + name + " SET "
                        + columns.stream().map(c -> quote(c) + " = ?").collect(Collectors.joining(", "))
                        + " WHERE " + key + " = ?";
                try (PreparedStatement statement = connection.prepareStatement(sql)) {
                    bindValues(statement, 1, columns, change);
                    statement.setLong(columns.size() + 1, change.key());
                    return statement.executeUpdate();
                }
            }
            default: {
                String sql = "DELETE " + TAG + "FROM " + name + " WHERE " + key + " = ?";
                try (PreparedStatement statement = connection.prepareStatement(sql)) {
                    statement.setLong(1, change.key());
                    return statement.executeUpdate();
                }
            }
        }
    }

    private static void bindValues(PreparedStatement statement, int first, List<String> columns, RowChange change)
            throws SQLException {
        for (int i = 0; i < columns.size(); i++) {
            Object value = change.after().get(columns.get(i));
            if (value == null) {
                statement.setNull(first + i, Types.NULL);
            } else {
                statement.setObject(first + i, value);
            }
        }
    }

    /** Quotes an identifier with backticks. To switch to {@code io.vstream.connect.core.sql.SqlIdentifiers.quote}. */
    static String quote(String identifier) {
        return SqlIdentifiers.quote(identifier);
    }
}
