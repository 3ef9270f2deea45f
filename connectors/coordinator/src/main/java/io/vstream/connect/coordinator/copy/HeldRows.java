package io.vstream.connect.coordinator.copy;

import io.vstream.connect.core.position.LastPk;
import io.vstream.connect.core.position.OffsetCodec;
import io.vstream.connect.core.position.TableLastPk;
import io.vstream.connect.core.sql.SqlIdentifiers;
import io.vstream.connect.core.sql.SqlTag;
import io.vstream.connect.jdbc.StateTables;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The rows a chunk of the server copy left out because a writer held them ({@code SKIP LOCKED}), kept on the shard in
 * {@code <state.database>.ghost_copy_held} until each is copied on its own: a chunk records them in its own
 * transaction, beside the range's new last key, and each row's copy deletes its record in the transaction that
 * copies it. So a coordinator that dies between the two finds them there and copies them before the range goes on:
 * no row is lost. A range is done only once it holds none ({@link GhostCopyState.Range#done}).
 */
final class HeldRows {
    /** One recorded row: its record's id and its key in the original. */
    record Held(long id, LastPk key) {
    }

    static final String TABLE = "ghost_copy_held";

    private HeldRows() {
    }

    /** Creates the table (the caller created the database). */
    static void ensure(Connection c, String stateDb) throws SQLException {
        StateTables.create(c, stateDb, SqlTag.tag(GhostCopyStatements.TAG, "CREATE TABLE IF NOT EXISTS "
                + SqlIdentifiers.qualify(stateDb, TABLE) + " (id BIGINT NOT NULL AUTO_INCREMENT, migration"
                + " VARCHAR(128) NOT NULL, range_no INT NOT NULL, row_key MEDIUMTEXT NOT NULL, PRIMARY KEY (id),"
                + " KEY by_range (migration, range_no)) ENGINE=InnoDB"));
    }

    /** Records {@code keys} of range {@code range} in the caller's open transaction. */
    static void record(Connection c, String stateDb, String migration, String table, int range, List<LastPk> keys)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(SqlTag.tag(GhostCopyStatements.TAG, "INSERT INTO "
                + SqlIdentifiers.qualify(stateDb, TABLE) + " (migration, range_no, row_key) VALUES (?, ?, ?)"))) {
            for (LastPk key : keys) {
                ps.setString(1, migration);
                ps.setInt(2, range);
                ps.setString(3, OffsetCodec.copyStateJson(List.of(new TableLastPk(table, key))));
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }

    /** The rows recorded for range {@code range}, oldest first; none when the table does not exist yet. */
    static List<Held> load(Connection c, String stateDb, String migration, int range) throws SQLException {
        List<Held> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(SqlTag.tag(GhostCopyStatements.TAG, "SELECT id, row_key FROM "
                + SqlIdentifiers.qualify(stateDb, TABLE) + " WHERE migration = ? AND range_no = ? ORDER BY id"))) {
            ps.setString(1, migration);
            ps.setInt(2, range);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new Held(rs.getLong(1), OffsetCodec.copyStateFromJson(rs.getString(2)).get(0).lastPk()));
                }
            }
        } catch (SQLException e) {
            if (!GhostCopyState.missing(e)) {
                throw e;
            }
        }
        return out;
    }

    /** How many rows each range of the migration has recorded; none when the table does not exist yet. */
    static Map<Integer, Integer> countByRange(Connection c, String stateDb, String migration) throws SQLException {
        Map<Integer, Integer> out = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement(SqlTag.tag(GhostCopyStatements.TAG, "SELECT range_no,"
                + " COUNT(*) FROM " + SqlIdentifiers.qualify(stateDb, TABLE) + " WHERE migration = ? GROUP BY"
                + " range_no"))) {
            ps.setString(1, migration);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.put(rs.getInt(1), rs.getInt(2));
                }
            }
        } catch (SQLException e) {
            if (!GhostCopyState.missing(e)) {
                throw e;
            }
        }
        return out;
    }

    /**
     * Deletes one record in the caller's open transaction (the one that copied its row); false when it is gone
     * already (a copier that was stopping copied it meanwhile).
     */
    static boolean release(Connection c, String stateDb, long id) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(SqlTag.tag(GhostCopyStatements.TAG, "DELETE FROM "
                + SqlIdentifiers.qualify(stateDb, TABLE) + " WHERE id = ?"))) {
            ps.setLong(1, id);
            return ps.executeUpdate() == 1;
        }
    }

    /** Forgets a migration's records (with its copy state). */
    static void delete(Connection c, String stateDb, String migration) throws SQLException {
        GhostCopyState.deleteMigration(c, stateDb, TABLE, migration);
    }
}
