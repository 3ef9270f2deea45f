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
 * chunk's commit: every later change is applied after the chunk), leaving out the rows a writer holds, which are
 * then copied one by one ({@link #lacking}, {@link #copyOne}). No IGNORE: a value the new type cannot hold is an
 * error; and since a duplicate on another unique key of the ghost would also keep a row out, a ghost with such a key
 * is checked for rows of the chunk it lacks ({@link #lacking}), and {@link #insertOne} lets the server name the key.
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

    private final Dialect dialect;

    GhostCopyStatements(MigrationPlans.Plan plan) {
        this(plan, Dialect.MARIADB);
    }

    GhostCopyStatements(MigrationPlans.Plan plan, Dialect dialect) {
        this.dialect = dialect;
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

    /** How a chunk takes the share locks on the original's rows it reads. */
    enum Locking {
        /**
         * A row a writer holds is left out, not waited for: the chunk then looks for the rows of its range the ghost
         * lacks ({@link #lacking}) and they are copied one by one after its commit ({@link #copyOne}). MariaDB 10.6+,
         * MySQL 8.0.1+.
         */
        SKIP_LOCKED(" SKIP LOCKED"),
        /** A row a writer holds fails the chunk at once (error 1205). */
        NOWAIT(" NOWAIT"),
        /** A row a writer holds is waited for, up to the session's {@code innodb_lock_wait_timeout}. */
        WAIT("");

        private final String clause;

        Locking(String clause) {
            this.clause = clause;
        }
    }

    /**
     * The server's spelling of a shared locking read ({@code LOCK IN SHARE MODE} on MariaDB, {@code FOR SHARE} on
     * MySQL 8, each followed by {@code NOWAIT} or {@code SKIP LOCKED}) and whether it can skip locked rows.
     */
    record Dialect(boolean mariaDb, boolean skipsLocked) {
        static final Dialect MARIADB = new Dialect(true, true);

        /** From {@code SELECT VERSION()}: MariaDB skips locked rows since 10.6, MySQL since 8.0.1. */
        static Dialect of(String version) {
            boolean maria = version != null && version.contains("MariaDB");
            int[] v = numbers(version);
            boolean skips = maria ? v[0] > 10 || v[0] == 10 && v[1] >= 6
                    : v[0] > 8 || v[0] == 8 && (v[1] > 0 || v[2] >= 1);
            return new Dialect(maria, skips);
        }

        private static int[] numbers(String version) {
            int[] out = new int[3];
            if (version == null) {
                return out;
            }
            String[] parts = version.split("[^0-9]", -1);
            for (int i = 0, n = 0; i < parts.length && n < 3; i++) {
                if (parts[i].isEmpty()) {
                    break;
                }
                out[n++] = Integer.parseInt(parts[i]);
            }
            return out;
        }

        String shareLock(Locking locking) {
            return (mariaDb ? " LOCK IN SHARE MODE" : " FOR SHARE") + locking.clause;
        }
    }

    /**
     * The chunk: every row of {@code (from, to]} into the ghost, except that a key the ghost holds already keeps the
     * ghost's row (a no-op update of its key), bound by {@link #rangeArgs}. The driver's affected-rows count (found
     * rows) is then the rows the chunk covered. {@code locking} says what the chunk does with a row an application
     * transaction holds: leave it out ({@link Locking#SKIP_LOCKED}), fail at once ({@link Locking#NOWAIT}) or wait. A
     * chunk that waited while holding the locks it has could close a deadlock with the application's writes.
     */
    String insert(boolean from, boolean to, Locking locking) {
        return SqlTag.tag(TAG, "INSERT INTO " + ghost + " (" + targetColumns + ") SELECT " + sourceColumns + " FROM "
                + original + " AS o" + where(from, to) + dialect.shareLock(locking) + " ON DUPLICATE KEY UPDATE "
                + keepGhostRow());
    }

    /**
     * The keys of the rows of {@code (from, to]} that the ghost lacks, in key order, at most {@code limit} (bound by
     * {@link #rangeArgs}). A plain read: at {@code READ COMMITTED} it sees what is committed, so after a chunk that
     * skipped locked rows it names each of them that still exists (and any row committed into the range since the
     * chunk read it, which copying again does no harm); after a chunk that read every row, the rows another unique
     * key of the ghost kept out.
     */
    String lacking(boolean from, boolean to, int limit) {
        String where = where(from, to);
        return SqlTag.tag(TAG, "SELECT " + columns(originalKey) + " FROM " + original + " AS o"
                + (where.isEmpty() ? " WHERE " : where + " AND ") + "NOT EXISTS (SELECT 1 FROM " + ghost + " AS g WHERE "
                + sameKey() + ") ORDER BY " + columns(originalKey) + " LIMIT " + limit);
    }

    /**
     * How many rows {@code (from, to]} holds (bound by {@link #rangeArgs}): a plain read, at {@code READ COMMITTED}
     * what is committed. Right after a chunk that left out locked rows, in its transaction, it equals the rows the
     * chunk read exactly when no row it left out still exists (the chunk's share locks keep every row it read there),
     * so only a chunk whose count is higher needs to look for the rows the ghost lacks ({@link #lacking}).
     */
    String count(boolean from, boolean to) {
        return SqlTag.tag(TAG, "SELECT COUNT(*) FROM " + original + " AS o" + where(from, to));
    }

    /**
     * One row by its key, read with a share lock that waits for the writer holding it (up to the session's
     * {@code innodb_lock_wait_timeout}), into the ghost as a chunk copies it (a key the ghost holds keeps the ghost's
     * row). Run alone in its transaction, which holds no other lock of the original while it waits, so it cannot
     * close a deadlock with a writer.
     */
    String copyOne() {
        return SqlTag.tag(TAG, "INSERT INTO " + ghost + " (" + targetColumns + ") SELECT " + sourceColumns + " FROM "
                + original + " AS o WHERE " + keyEquals() + dialect.shareLock(Locking.WAIT)
                + " ON DUPLICATE KEY UPDATE " + keepGhostRow());
    }

    /** Whether chunks can leave out the rows writers hold ({@link Locking#SKIP_LOCKED}). */
    boolean skipsLocked() {
        return dialect.skipsLocked();
    }

    private String keepGhostRow() {
        List<String> keep = new ArrayList<>();
        for (String g : ghostKey) {
            String col = ghost + "." + SqlIdentifiers.quote(g);
            keep.add(col + " = " + col);
        }
        return String.join(", ", keep);
    }

    private String keyEquals() {
        List<String> eq = new ArrayList<>();
        originalKey.forEach(k -> eq.add(SqlIdentifiers.quote(k) + " = ?"));
        return String.join(" AND ", eq);
    }

    /** One row by its key, copied with a plain INSERT: the server's error names what keeps it out. */
    String insertOne() {
        return SqlTag.tag(TAG, "INSERT INTO " + ghost + " (" + targetColumns + ") SELECT " + sourceColumns + " FROM "
                + original + " AS o WHERE " + keyEquals());
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
