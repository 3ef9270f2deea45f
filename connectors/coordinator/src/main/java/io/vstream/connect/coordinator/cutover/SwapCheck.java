package io.vstream.connect.coordinator.cutover;

import io.vstream.connect.coordinator.cutover.CutOverResult.Outcome;
import io.vstream.connect.core.sql.SqlIdentifiers;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Optional;

/**
 * Decides from the shard's tables, never from a statement's return, whether a cut-over's RENAME happened: the
 * table now named {@code t} is compared with the identities the original and the ghost table had before the attempt
 * (a RENAME keeps the InnoDB table id and the definition); when those cannot tell, the names decide (the ghost name
 * free and the old name held by a table that is not our sentry means swapped). Touches the shard (reads only).
 */
final class SwapCheck {

    /** The finding: SWAPPED, ABORTED (the original is in place) or UNKNOWN, with what was odd (null if nothing). */
    record Finding(Outcome outcome, String detail) {
    }

    private final CutOverTables tables;
    private final ServerTables.Identity originalBefore;
    private final ServerTables.Identity ghostBefore;

    private SwapCheck(CutOverTables tables, ServerTables.Identity originalBefore, ServerTables.Identity ghostBefore) {
        this.tables = tables;
        this.originalBefore = originalBefore;
        this.ghostBefore = ghostBefore;
    }

    /** Reads the identities of the original and the ghost table before the attempt locks anything. */
    static SwapCheck capture(Connection c, CutOverTables tables) throws SQLException {
        return new SwapCheck(tables, ServerTables.identity(c, tables.database(), tables.table()),
                ServerTables.identity(c, tables.database(), tables.ghost()));
    }

    /** What the server shows now, the original having been renamed to {@code oldTable} if the swap happened. */
    Finding decide(Connection c, String oldTable) throws SQLException {
        String db = tables.database();
        String t = SqlIdentifiers.qualify(db, tables.table());
        ServerTables.Identity now = ServerTables.identity(c, db, tables.table());
        boolean ghostExists = ServerTables.exists(c, db, tables.ghost());
        Optional<String> oldComment = oldTable == null ? Optional.empty() : ServerTables.comment(c, db, oldTable);
        boolean oldIsSentry = oldComment.map(CutOverTables.sentryComment(tables.table())::equals).orElse(false);
        boolean oldIsTable = oldComment.isPresent() && !oldIsSentry;
        if (now == null) {
            return new Finding(Outcome.UNKNOWN, "the table " + t + " does not exist (ghost " + (ghostExists
                    ? "exists" : "missing") + ", old table " + (oldComment.isPresent() ? "exists" : "missing")
                    + "): restore it by hand");
        }
        Boolean isGhost = now.sameAs(ghostBefore);
        Boolean isOriginal = now.sameAs(originalBefore);
        if (Boolean.TRUE.equals(isGhost) || isGhost == null && !ghostExists && oldIsTable) {
            return new Finding(Outcome.SWAPPED, !ghostExists && oldIsTable ? null : "swapped, but the ghost name "
                    + (ghostExists ? "is taken again" : "is free") + " and the old table is "
                    + (oldIsTable ? "there" : "missing"));
        }
        if (Boolean.TRUE.equals(isOriginal) || isOriginal == null && ghostExists) {
            return new Finding(Outcome.ABORTED, null);
        }
        return new Finding(Outcome.UNKNOWN, "the table " + t + " is neither the original nor the ghost table as they"
                + " were before the cut-over; check it by hand");
    }
}
