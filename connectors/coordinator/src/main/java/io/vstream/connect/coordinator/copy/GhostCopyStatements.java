package io.vstream.connect.coordinator.copy;

import io.vstream.connect.jdbc.MigrationPlans;
import io.vstream.connect.core.sql.KeyPredicates;
import io.vstream.connect.core.sql.SqlIdentifiers;
import io.vstream.connect.core.sql.SqlTag;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The statements of the server copy of one migration's table, built once from its plan: the next chunk boundary (the
 * key {@code n} rows after the last one copied, in key order) and the chunk itself, one {@code INSERT ... SELECT} from
 * the original into the ghost through the column mapping over a key range {@code (last, upper]}, where a key the ghost
 * holds already keeps the ghost's row (the change stream wrote it, and a copy never overwrites what the stream wrote),
 * reading the original with shared row locks (so no change to a chunk's rows can commit between the read and the
 * chunk's commit: every later change is applied after the chunk), taken without waiting. No IGNORE: a value the new type cannot hold is an
 * error; and since a duplicate on another unique key of the ghost would also keep a row out, a ghost with such a key
 * is checked for rows of the chunk it lacks ({@link #missing}), and {@link #insertOne} lets the server name the key.
 * Touches no server.
 */
final class GhostCopyStatements {
    static final String TAG = "ghost-copy";

    private final String original;
    private final String ghost;
    private final List<String> originalKey;
    private final List<String> ghostKey;
    private final String targetColumns;
    private final String sourceColumns;

    GhostCopyStatements(MigrationPlans.Plan plan) {
        this.original = SqlIdentifiers.qualify(plan.database(), plan.table());
        this.ghost = SqlIdentifiers.qualify(plan.database(), plan.ghostTable());
        this.ghostKey = List.copyOf(plan.keyColumns());
        this.originalKey = List.copyOf(plan.originalKeyColumns());
        List<String> targets = new ArrayList<>();
        List<String> sources = new ArrayList<>();
        for (Map.Entry<String, String> e : plan.mapping().shared().entrySet()) {
            sources.add("o." + SqlIdentifiers.quote(e.getKey()));
            targets.add(SqlIdentifiers.quote(e.getValue()));
        }
        this.targetColumns = String.join(", ", targets);
        this.sourceColumns = String.join(", ", sources);
    }

    /** The shared key's columns by their names in the original table, in key order. */
    List<String> originalKey() {
        return originalKey;
    }

    /** The shared key's columns by their names in the ghost, in key order. */
    List<String> ghostKey() {
        return ghostKey;
    }

    /**
     * The key of the row {@code rows} rows into {@code (from, to]} in key order (bound by {@link #rangeArgs}); no row
     * when fewer remain.
     */
    String boundary(boolean from, boolean to, int rows) {
        return SqlTag.tag(TAG, "SELECT " + columns(originalKey) + " FROM " + original + where(from, to)
                + " ORDER BY " + columns(originalKey) + " LIMIT 1 OFFSET " + Math.max(0, rows - 1));
    }

    /**
     * The chunk: every row of {@code (from, to]} into the ghost, except that a key the ghost holds already keeps the
     * ghost's row (a no-op update of its key), bound by {@link #rangeArgs}. The driver's affected-rows count (found
     * rows) is then the rows the chunk covered. With {@code nowait} the share locks are taken without waiting: a row
     * an application transaction holds fails the chunk at once (1205) instead of making it wait while it holds the
     * locks it has, so the chunk never closes a deadlock with the application's writes.
     */
    String insert(boolean from, boolean to, boolean nowait) {
        List<String> keep = new ArrayList<>();
        for (String g : ghostKey) {
            String col = ghost + "." + SqlIdentifiers.quote(g);
            keep.add(col + " = " + col);
        }
        return SqlTag.tag(TAG, "INSERT INTO " + ghost + " (" + targetColumns + ") SELECT " + sourceColumns + " FROM "
                + original + " AS o" + where(from, to) + " LOCK IN SHARE MODE" + (nowait ? " NOWAIT" : "")
                + " ON DUPLICATE KEY UPDATE "
                + String.join(", ", keep));
    }

    /**
     * The key of a row of {@code (from, to]} that the ghost lacks (after the chunk: a row another unique key of the
     * ghost kept out), bound by {@link #rangeArgs}.
     */
    String missing(boolean from, boolean to) {
        String where = where(from, to);
        return SqlTag.tag(TAG, "SELECT " + columns(originalKey) + " FROM " + original + " AS o"
                + (where.isEmpty() ? " WHERE " : where + " AND ") + "NOT EXISTS (SELECT 1 FROM " + ghost + " AS g WHERE "
                + sameKey() + ") LIMIT 1");
    }

    /** One row by its key, copied with a plain INSERT: the server's error names what keeps it out. */
    String insertOne() {
        List<String> eq = new ArrayList<>();
        originalKey.forEach(k -> eq.add(SqlIdentifiers.quote(k) + " = ?"));
        return SqlTag.tag(TAG, "INSERT INTO " + ghost + " (" + targetColumns + ") SELECT " + sourceColumns + " FROM "
                + original + " AS o WHERE " + String.join(" AND ", eq));
    }

    private String sameKey() {
        List<String> same = new ArrayList<>();
        for (int i = 0; i < ghostKey.size(); i++) {
            same.add("g." + SqlIdentifiers.quote(ghostKey.get(i)) + " = o." + SqlIdentifiers.quote(originalKey.get(i)));
        }
        return String.join(" AND ", same);
    }

    /** The values to bind for a range {@code (from, to]}; null bounds are open ends. */
    static List<Object> rangeArgs(List<Object> from, List<Object> to) {
        return KeyPredicates.rangeArgs(from, to);
    }

    /** The range predicate over the original's key (in the chunk, outside the subquery: it names the original). */
    private String where(boolean from, boolean to) {
        return KeyPredicates.range(originalKey, from, to);
    }

    private static String columns(List<String> key) {
        List<String> q = new ArrayList<>();
        key.forEach(k -> q.add(SqlIdentifiers.quote(k)));
        return String.join(", ", q);
    }
}
