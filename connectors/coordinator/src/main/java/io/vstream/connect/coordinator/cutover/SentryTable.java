package io.vstream.connect.coordinator.cutover;

import io.vstream.connect.coordinator.cutover.CutOverResult.Outcome;
import io.vstream.connect.core.sql.SqlIdentifiers;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The sentry table of a cut-over: an empty table under the old table's name, marked as ours by its comment
 * ({@link CutOverTables#sentryComment}). Chooses the old name (never one a real table holds), drops stale sentries
 * that a dead attempt left, creates the sentry and drops it again, only ever a table that carries our comment.
 * Touches the shard through the control connection it is given.
 */
final class SentryTable {
    private static final int TIMESTAMPED_TRIES = 10;

    private SentryTable() {
    }

    /** The sentries of {@code tables.table()} that earlier attempts left, dropped; returns their names. */
    static List<String> dropStale(Connection c, CutOverTables tables) throws SQLException {
        List<String> stale = ServerTables.tablesWithComment(c, tables.database(),
                CutOverTables.sentryComment(tables.table()));
        for (String name : stale) {
            ServerTables.execute(c, "DROP TABLE IF EXISTS " + SqlIdentifiers.qualify(tables.database(), name));
        }
        return stale;
    }

    /**
     * The old table name for this attempt: the operator's if given and free; else {@code <t>_old}, or a timestamped
     * name when that is taken (it may hold the original of an earlier cut-over, kept for a revert).
     */
    static String chooseOldName(Connection c, CutOverTables tables, String shard)
            throws SQLException, CutOverAttempt.Abort {
        String db = tables.database();
        if (tables.oldTable() != null) {
            if (ServerTables.exists(c, db, tables.oldTable())) {
                throw new CutOverAttempt.Abort(Outcome.FAILED, "the old table name "
                        + SqlIdentifiers.qualify(db, tables.oldTable()) + " is taken on shard " + shard + " (perhaps"
                        + " the original of an earlier cut-over, kept for a revert): drop or rename that table, or"
                        + " let the cut-over choose the old table name", null);
            }
            return tables.oldTable();
        }
        String name = CutOverTables.defaultOldName(tables.table());
        Instant now = Instant.now();
        for (int i = 0; ServerTables.exists(c, db, name); i++) {
            if (i == TIMESTAMPED_TRIES) {
                throw new CutOverAttempt.Abort(Outcome.FAILED, "no free old table name for "
                        + SqlIdentifiers.qualify(db, tables.table()) + " on shard " + shard + "; drop the old tables"
                        + " of earlier cut-overs", null);
            }
            name = CutOverTables.timestampedOldName(tables.table(), now.plusSeconds(i));
        }
        return name;
    }

    static void create(Connection c, CutOverTables tables, String oldTable) throws SQLException {
        ServerTables.execute(c, "CREATE TABLE " + SqlIdentifiers.qualify(tables.database(), oldTable)
                + " (id INT NOT NULL PRIMARY KEY) COMMENT = '" + CutOverTables.sentryComment(tables.table()) + "'");
    }

    /** Drops the table under {@code oldTable} if it is our sentry; a real table there is never touched. */
    static void dropIfOurs(Connection c, CutOverTables tables, String oldTable) throws SQLException {
        Optional<String> comment = ServerTables.comment(c, tables.database(), oldTable);
        if (comment.isPresent() && comment.get().equals(CutOverTables.sentryComment(tables.table()))) {
            ServerTables.execute(c, "DROP TABLE IF EXISTS " + SqlIdentifiers.qualify(tables.database(), oldTable));
        }
    }
}
