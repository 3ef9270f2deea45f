package io.vstream.connect.local.load;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Collectors;

/**
 * Fills the load's tables with keys {@code 1..rows} (at most a table's key space) before the load starts, in
 * multi-row INSERTs of up to 500 rows per transaction on each shard, and records each as an acknowledged commit
 * (thread -1) in the model. Writes to the target's shards.
 */
final class Preloader {

    private static final int BATCH = 500;

    private Preloader() {
    }

    static void preload(LoadSettings settings, LoadModel model, int rows) {
        Random random = new Random(settings.seed() ^ 0x5EEDL);
        Target target = settings.target();
        long batchNumber = 0;
        for (LoadTable table : settings.tables()) {
            List<List<RowChange>> pending = new ArrayList<>();
            for (int shard = 0; shard < target.shardCount(); shard++) {
                pending.add(new ArrayList<>());
            }
            for (long key = 1; key <= Math.min(rows, settings.keySpace(table)); key++) {
                if (model.row(table.name(), key) != null) {
                    continue;
                }
                int shard = settings.shardOf(table, key);
                pending.get(shard).add(new RowChange(table.name(), RowChange.Op.INSERT, key, null,
                        LoadWorker.image(table, key, table.rows().insert(key, random))));
                if (pending.get(shard).size() == BATCH) {
                    insert(settings, model, table, shard, pending.get(shard), ++batchNumber);
                    pending.get(shard).clear();
                }
            }
            for (int shard = 0; shard < target.shardCount(); shard++) {
                if (!pending.get(shard).isEmpty()) {
                    insert(settings, model, table, shard, pending.get(shard), ++batchNumber);
                }
            }
        }
    }

    private static void insert(LoadSettings settings, LoadModel model, LoadTable table,
                               int shard, List<RowChange> changes, long batchNumber) {
        List<String> columns = table.allColumns();
        String row = "(" + String.join(", ", Collections.nCopies(columns.size(), "?")) + ")";
        String sql = "INSERT /* vstream write load: preload */ INTO " + LoadStatements.quote(table.name())
                + " (" + columns.stream().map(LoadStatements::quote).collect(Collectors.joining(", ")) + ") VALUES "
                + String.join(", ", Collections.nCopies(changes.size(), row));
        try (Connection connection = settings.target().connect(shard)) {
            connection.setAutoCommit(false);
            try (PreparedStatement statement = connection.prepareStatement(sql)) {
                int index = 1;
                for (RowChange change : changes) {
                    for (Map.Entry<String, Object> value : change.after().entrySet()) {
                        if (value.getValue() == null) {
                            statement.setNull(index++, Types.NULL);
                        } else {
                            statement.setObject(index++, value.getValue());
                        }
                    }
                }
                statement.executeUpdate();
            }
            long started = System.nanoTime();
            connection.commit();
            long commitNanos = System.nanoTime() - started;
            String gtid;
            try (var query = connection.createStatement(); var result = query.executeQuery("SELECT @@last_gtid")) {
                gtid = result.next() ? result.getString(1) : null;
            }
            LoadTransaction transaction = new LoadTransaction(shard, gtid, -1, batchNumber, changes,
                    LoadTransaction.Outcome.COMMITTED, commitNanos, commitNanos);
            model.committed(transaction);
        } catch (SQLException e) {
            throw new IllegalStateException("Preloading " + table.name() + " on " + settings.target().describe(shard)
                    + " failed: " + e.getMessage(), e);
        }
    }
}
