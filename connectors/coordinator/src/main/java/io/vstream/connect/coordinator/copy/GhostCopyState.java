package io.vstream.connect.coordinator.copy;

import io.vstream.connect.core.error.ServerErrors;
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
import java.util.List;

/**
 * Where the server copy of an online ALTER keeps its progress, on the shard it copies: {@code
 * <state.database>.ghost_copy}, one row per key range of a migration (the range's end, the last key copied, the rows
 * copied, whether it is done). A chunk updates its range's row in the same transaction as its rows (and records the
 * rows it left out because a writer held them: {@link HeldRows}), so the shard alone says what the ghost holds of the
 * copy: a crash never loses or repeats a chunk, and the count is exact.
 */
public final class GhostCopyState {
    /**
     * One key range {@code (last, end]} still to copy (or copied, when done); a null key is an open end. Its chunks
     * are all in when {@code chunksDone}; it is done once, besides, the rows they left out because a writer held them
     * are in too ({@code heldRows} of them are not: {@link HeldRows}).
     */
    record Range(int no, LastPk last, LastPk end, long rowsCopied, boolean chunksDone, int heldRows) {
        boolean done() {
            return chunksDone && heldRows == 0;
        }
    }

    /**
     * A migration's copy on one shard: planned (its ranges written), the rows copied, whether every range is copied
     * ({@code rowsDone}), and whether the copy is done (every range, and the keys deferred until after the copy are
     * back: {@link DeferredIndexes}).
     */
    public record Summary(boolean planned, long rowsCopied, boolean rowsDone, boolean done) {
    }

    private static final String TABLE = "ghost_copy";

    private GhostCopyState() {
    }

    static void ensure(Connection c, String stateDb) throws SQLException {
        StateTables.create(c, stateDb, SqlTag.tag(GhostCopyStatements.TAG, "CREATE TABLE IF NOT EXISTS "
                + SqlIdentifiers.qualify(stateDb, TABLE) + " (migration VARCHAR(128) NOT NULL, range_no INT NOT"
                + " NULL, last_key MEDIUMTEXT NULL, range_end MEDIUMTEXT NULL, rows_copied BIGINT NOT NULL DEFAULT"
                + " 0, done TINYINT NOT NULL DEFAULT 0, updated_at TIMESTAMP(6) NOT NULL DEFAULT"
                + " CURRENT_TIMESTAMP(6) ON UPDATE CURRENT_TIMESTAMP(6), PRIMARY KEY (migration, range_no))"
                + " ENGINE=InnoDB"));
        HeldRows.ensure(c, stateDb);
    }

    /** The migration's ranges in order; empty when its copy has not been planned on this shard. */
    static List<Range> load(Connection c, String stateDb, String migration) throws SQLException {
        List<Range> out = new ArrayList<>();
        java.util.Map<Integer, Integer> held = HeldRows.countByRange(c, stateDb, migration);
        try (PreparedStatement ps = c.prepareStatement(SqlTag.tag(GhostCopyStatements.TAG, "SELECT range_no,"
                + " last_key, range_end, rows_copied, done FROM " + SqlIdentifiers.qualify(stateDb, TABLE)
                + " WHERE migration = ? ORDER BY range_no"))) {
            ps.setString(1, migration);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    int no = rs.getInt(1);
                    out.add(new Range(no, key(rs.getString(2)), key(rs.getString(3)), rs.getLong(4),
                            rs.getBoolean(5), held.getOrDefault(no, 0)));
                }
            }
        } catch (SQLException e) {
            if (!missing(e)) {
                throw e;
            }
        }
        return out;
    }

    /**
     * Writes the migration's ranges, split at {@code splits} (in key order): range 0 from the table's start to the
     * first split, the last from the last split to the table's end. One transaction: the plan is all or nothing.
     */
    static void plan(Connection c, String stateDb, String migration, String table, List<LastPk> splits)
            throws SQLException {
        ensure(c, stateDb);
        boolean auto = c.getAutoCommit();
        c.setAutoCommit(false);
        try (PreparedStatement ps = c.prepareStatement(SqlTag.tag(GhostCopyStatements.TAG, "INSERT INTO "
                + SqlIdentifiers.qualify(stateDb, TABLE) + " (migration, range_no, last_key, range_end) VALUES"
                + " (?, ?, ?, ?)"))) {
            for (int i = 0; i <= splits.size(); i++) {
                ps.setString(1, migration);
                ps.setInt(2, i);
                ps.setString(3, i == 0 ? null : json(table, splits.get(i - 1)));
                ps.setString(4, i == splits.size() ? null : json(table, splits.get(i)));
                ps.addBatch();
            }
            ps.executeBatch();
            c.commit();
        } catch (SQLException e) {
            c.rollback();
            throw e;
        } finally {
            c.setAutoCommit(auto);
        }
    }

    /** Records a chunk in the caller's open transaction: the range's last key, the rows it added, done or not. */
    static void advance(Connection c, String stateDb, String migration, String table, int range, LastPk last,
                        long rows, boolean done) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(SqlTag.tag(GhostCopyStatements.TAG, "UPDATE "
                + SqlIdentifiers.qualify(stateDb, TABLE) + " SET last_key = ?, rows_copied = rows_copied + ?, done = ?"
                + " WHERE migration = ? AND range_no = ?"))) {
            ps.setString(1, last == null ? null : json(table, last));
            ps.setLong(2, rows);
            ps.setBoolean(3, done);
            ps.setString(4, migration);
            ps.setInt(5, range);
            if (ps.executeUpdate() != 1) {
                throw new SQLException("the copy state of migration " + migration + " range " + range + " is gone"
                        + " (was the migration cancelled?)");
            }
        }
    }

    /** Adds rows copied one by one (held rows) to the range's count, in the caller's open transaction. */
    static void count(Connection c, String stateDb, String migration, int range, long rows) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(SqlTag.tag(GhostCopyStatements.TAG, "UPDATE "
                + SqlIdentifiers.qualify(stateDb, TABLE) + " SET rows_copied = rows_copied + ? WHERE migration = ? AND"
                + " range_no = ?"))) {
            ps.setLong(1, rows);
            ps.setString(2, migration);
            ps.setInt(3, range);
            ps.executeUpdate();
        }
    }

    /** The migration's copy on this shard as a whole. */
    public static Summary summary(Connection c, String stateDb, String migration) throws SQLException {
        List<Range> ranges = load(c, stateDb, migration);
        boolean copied = !ranges.isEmpty() && ranges.stream().allMatch(Range::done);
        return new Summary(!ranges.isEmpty(), ranges.stream().mapToLong(Range::rowsCopied).sum(), copied,
                copied && DeferredIndexes.pending(c, stateDb, migration).isEmpty());
    }

    /** Forgets the migration's copy on this shard (cancel, or once the migration is complete). */
    public static void delete(Connection c, String stateDb, String migration) throws SQLException {
        deleteMigration(c, stateDb, TABLE, migration);
        HeldRows.delete(c, stateDb, migration);
    }

    /** Deletes a migration's rows from one of the server copy's state tables; a table not created yet holds none. */
    static void deleteMigration(Connection c, String stateDb, String table, String migration) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(SqlTag.tag(GhostCopyStatements.TAG, "DELETE FROM "
                + SqlIdentifiers.qualify(stateDb, table) + " WHERE migration = ?"))) {
            ps.setString(1, migration);
            ps.executeUpdate();
        } catch (SQLException e) {
            if (!missing(e)) {
                throw e;
            }
        }
    }

    /** Whether the error says the state table (or its database) does not exist yet. */
    static boolean missing(SQLException e) {
        return ServerErrors.isMissingTable(e);
    }

    private static String json(String table, LastPk key) {
        return OffsetCodec.copyStateJson(List.of(new TableLastPk(table, key)));
    }

    private static LastPk key(String json) {
        return json == null ? null : OffsetCodec.copyStateFromJson(json).get(0).lastPk();
    }
}
