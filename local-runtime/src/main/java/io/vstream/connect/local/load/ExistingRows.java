package io.vstream.connect.local.load;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Takes the rows a load's tables already hold (written by someone else: an application's sample data, a restored
 * dump) into its model before it starts, so that the load updates and deletes them as its own: every row with a key
 * in the table's key space, read on each shard, which must be the shard the load's router names for it. Reads the
 * target's shards; writes nothing.
 */
final class ExistingRows {

    private ExistingRows() {
    }

    /** Reads the rows into the model; returns how many. */
    static long adopt(LoadSettings settings, LoadModel model) {
        long adopted = 0;
        for (LoadTable table : settings.tables()) {
            String sql = "SELECT /* vstream write load: adopt */ "
                    + table.allColumns().stream().map(LoadStatements::quote).collect(Collectors.joining(", "))
                    + " FROM " + LoadStatements.quote(table.name()) + " WHERE " + LoadStatements.quote(table.keyColumn())
                    + " BETWEEN 1 AND ?";
            for (int shard = 0; shard < settings.target().shardCount(); shard++) {
                try (Connection connection = settings.target().connect(shard);
                     PreparedStatement statement = connection.prepareStatement(sql)) {
                    statement.setLong(1, settings.keySpace(table));
                    statement.setFetchSize(1000);
                    try (ResultSet rows = statement.executeQuery()) {
                        while (rows.next()) {
                            adopt(settings, model, table, shard, rows);
                            adopted++;
                        }
                    }
                } catch (SQLException e) {
                    throw new IllegalStateException("Reading the rows of " + table.name() + " on "
                            + settings.target().describe(shard) + " failed: " + e.getMessage(), e);
                }
            }
        }
        return adopted;
    }

    private static void adopt(LoadSettings settings, LoadModel model, LoadTable table, int shard, ResultSet rows)
            throws SQLException {
        long key = rows.getLong(1);
        int owner = settings.shardOf(table, key);
        if (owner != shard) {
            throw new IllegalStateException("Row " + table.keyColumn() + "=" + key + " of " + table.name() + " is on "
                    + settings.target().describe(shard) + ", but the load's router places it on "
                    + settings.target().describe(owner) + ": the load's target routes rows unlike their writer");
        }
        Map<String, Object> image = new LinkedHashMap<>();
        image.put(table.keyColumn(), key);
        for (String column : table.rows().columns()) {
            image.put(column, rows.getObject(column));
        }
        model.existing(table.name(), key, image);
    }
}
