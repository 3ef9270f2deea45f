package io.vstream.connect.coordinator.copy;

import io.vstream.connect.core.error.ServerErrors;
import io.vstream.connect.core.sql.SqlIdentifiers;
import io.vstream.connect.core.sql.SqlTag;
import io.vstream.connect.jdbc.StateTables;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The ghost's plain secondary indexes, built once after the server copy instead of row by row during it. A chunk
 * inserts rows in the order of the table's key, which is cheap for the clustered index but touches a random page of
 * every secondary index per row; one {@code ADD INDEX} after the copy sorts each index and builds it bottom-up, which
 * costs the server about a third of that (docs/online-ddl.md, "Deferred indexes"). Only plain, non-unique B-tree keys
 * are deferred: unique keys stay, so a row a new unique key refuses still fails the copy; a table with FULLTEXT or
 * SPATIAL keys, foreign keys or hash keys keeps every index (the order of its keys could depend on how they were added).
 *
 * <p>The deferral is recorded on the shard ({@code <state.database>.ghost_indexes}: the KEY clauses and the ghost's
 * definition as the ALTER made it) before the keys are dropped, and the ghost counts as copied only once they are
 * back ({@link GhostCopyState#summary}); a coordinator that dies in between finds the record and adds the keys still
 * missing. The rebuilt ghost must have exactly the definition the ALTER gave it, or the copy fails.
 */
public final class DeferredIndexes {
    private static final String TABLE = "ghost_indexes";

    private DeferredIndexes() {
    }

    /**
     * The plain KEY clauses of a {@code SHOW CREATE TABLE} (as written there, without the trailing comma), in order;
     * none when the table has none, or has a key whose place in the definition could depend on how it was added.
     */
    static List<String> deferrable(String createTable) {
        List<String> keys = new ArrayList<>();
        for (String line : createTable.split("\n")) {
            String l = line.trim();
            if (l.startsWith("FULLTEXT ") || l.startsWith("SPATIAL ") || l.startsWith("VECTOR ")
                    || l.contains(" FOREIGN KEY ") || (isKey(l) && l.contains(" USING HASH"))) {
                return List.of();
            }
            if (l.startsWith("KEY `")) {
                keys.add(l.endsWith(",") ? l.substring(0, l.length() - 1) : l);
            }
        }
        return keys;
    }

    private static boolean isKey(String line) {
        return line.startsWith("KEY ") || line.startsWith("UNIQUE KEY ") || line.startsWith("PRIMARY KEY ");
    }

    /** The index name a {@code KEY `name` (...)} clause gives (backquotes doubled inside the name). */
    static String keyName(String clause) {
        int at = clause.indexOf('`');
        StringBuilder name = new StringBuilder();
        for (int i = at + 1; i < clause.length(); i++) {
            char ch = clause.charAt(i);
            if (ch == '`') {
                if (i + 1 < clause.length() && clause.charAt(i + 1) == '`') {
                    name.append('`');
                    i++;
                    continue;
                }
                return name.toString();
            }
            name.append(ch);
        }
        throw new IllegalArgumentException("not a KEY clause: " + clause);
    }

    /** A definition without its first line (the table's name) and its AUTO_INCREMENT counter. */
    static String normalize(String createTable) {
        return io.vstream.connect.coordinator.ddl.SchemaReader.normalize(createTable);
    }

    /**
     * Drops the ghost's deferrable keys, having recorded them for {@link #restore} (the ghost is new: no applier
     * writes into it yet). Returns the names of the keys deferred; none when the ghost has none to defer.
     */
    public static List<String> defer(Connection c, String stateDb, String migration, String db, String ghost,
                                     String ghostCreate) throws SQLException {
        List<String> clauses = deferrable(ghostCreate);
        if (clauses.isEmpty()) {
            delete(c, stateDb, migration);
            return List.of();
        }
        ensure(c, stateDb);
        try (PreparedStatement ps = c.prepareStatement(SqlTag.tag(GhostCopyStatements.TAG, "REPLACE INTO "
                + SqlIdentifiers.qualify(stateDb, TABLE) + " (migration, clauses, definition, restored) VALUES"
                + " (?, ?, ?, 0)"))) {
            ps.setString(1, migration);
            ps.setString(2, String.join("\n", clauses));
            ps.setString(3, ghostCreate);
            ps.executeUpdate();
        }
        List<String> names = new ArrayList<>();
        List<String> drops = new ArrayList<>();
        for (String clause : clauses) {
            names.add(keyName(clause));
            drops.add("DROP INDEX " + SqlIdentifiers.quote(keyName(clause)));
        }
        execute(c, "ALTER TABLE " + SqlIdentifiers.qualify(db, ghost) + " " + String.join(", ", drops));
        return names;
    }

    /** The KEY clauses deferred and not yet back on the ghost; empty when none were deferred or all are back. */
    static List<String> pending(Connection c, String stateDb, String migration) throws SQLException {
        Record r = load(c, stateDb, migration);
        return r == null || r.restored() ? List.of() : r.clauses();
    }

    /**
     * Adds the deferred keys (online: the applier writes on meanwhile; when a build was cut short, those it left are
     * built again with the rest, so that the keys keep their order), checks that the ghost now has the ALTER's
     * definition and records that they are back. Returns how many keys it built; throws {@link DefinitionMismatch}
     * when the definitions differ.
     */
    static int restore(Connection c, String stateDb, String migration, String db, String ghost) throws SQLException {
        Record r = load(c, stateDb, migration);
        if (r == null || r.restored()) {
            return 0;
        }
        Set<String> present = indexNames(c, db, ghost);
        List<String> changes = new ArrayList<>();
        int missing = 0;
        for (String clause : r.clauses()) {
            if (present.contains(keyName(clause).toLowerCase(Locale.ROOT))) {
                // a build cut short left some: they are built again with the others, so the keys keep their order
                changes.add("DROP KEY " + SqlIdentifiers.quote(keyName(clause)));
            } else {
                missing++;
            }
        }
        for (String clause : r.clauses()) {
            changes.add("ADD " + clause);
        }
        if (missing > 0) {
            String alter = "ALTER TABLE " + SqlIdentifiers.qualify(db, ghost) + " " + String.join(", ", changes);
            try {
                execute(c, alter + ", ALGORITHM=INPLACE, LOCK=NONE");
            } catch (SQLException e) {
                if (!ServerErrors.isAlterNotSupported(e)) {
                    throw e;
                }
                execute(c, alter); // not online for this key: the ghost's writes (the applier's) wait meanwhile
            }
        }
        String now;
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(SqlTag.tag(GhostCopyStatements.TAG,
                "SHOW CREATE TABLE " + SqlIdentifiers.qualify(db, ghost)))) {
            rs.next();
            now = rs.getString(2);
        }
        if (!normalize(now).equals(normalize(r.definition()))) {
            throw new DefinitionMismatch("after its deferred keys were added, " + ghost + " is not what the ALTER"
                    + " made it: expected\n" + normalize(r.definition()) + "\nbut it is\n" + normalize(now));
        }
        try (PreparedStatement ps = c.prepareStatement(SqlTag.tag(GhostCopyStatements.TAG, "UPDATE "
                + SqlIdentifiers.qualify(stateDb, TABLE) + " SET restored = 1 WHERE migration = ?"))) {
            ps.setString(1, migration);
            ps.executeUpdate();
        }
        return missing > 0 ? r.clauses().size() : 0;
    }

    /** Forgets the migration's deferral on this shard (cancel, a refused ALTER, or once the migration is complete). */
    public static void delete(Connection c, String stateDb, String migration) throws SQLException {
        GhostCopyState.deleteMigration(c, stateDb, TABLE, migration);
    }

    /** The ghost's definition differs from the ALTER's after its keys were rebuilt: the copy cannot go on. */
    static final class DefinitionMismatch extends SQLException {
        DefinitionMismatch(String message) {
            super(message);
        }
    }

    private record Record(List<String> clauses, String definition, boolean restored) {
    }

    private static Record load(Connection c, String stateDb, String migration) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(SqlTag.tag(GhostCopyStatements.TAG, "SELECT clauses,"
                + " definition, restored FROM " + SqlIdentifiers.qualify(stateDb, TABLE) + " WHERE migration = ?"))) {
            ps.setString(1, migration);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? new Record(List.of(rs.getString(1).split("\n")), rs.getString(2),
                        rs.getBoolean(3)) : null;
            }
        } catch (SQLException e) {
            if (GhostCopyState.missing(e)) {
                return null;
            }
            throw e;
        }
    }

    private static void ensure(Connection c, String stateDb) throws SQLException {
        StateTables.create(c, stateDb, SqlTag.tag(GhostCopyStatements.TAG, "CREATE TABLE IF NOT EXISTS "
                + SqlIdentifiers.qualify(stateDb, TABLE) + " (migration VARCHAR(128) NOT NULL PRIMARY KEY, clauses"
                + " MEDIUMTEXT NOT NULL, definition MEDIUMTEXT NOT NULL, restored TINYINT NOT NULL DEFAULT 0,"
                + " updated_at TIMESTAMP(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6) ON UPDATE CURRENT_TIMESTAMP(6))"
                + " ENGINE=InnoDB"));
    }

    private static Set<String> indexNames(Connection c, String db, String table) throws SQLException {
        Set<String> out = new HashSet<>();
        try (PreparedStatement ps = c.prepareStatement(SqlTag.tag(GhostCopyStatements.TAG, "SELECT DISTINCT"
                + " INDEX_NAME FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?"))) {
            ps.setString(1, db);
            ps.setString(2, table);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getString(1).toLowerCase(Locale.ROOT));
                }
            }
        }
        return out;
    }

    private static void execute(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute(SqlTag.tag(GhostCopyStatements.TAG, sql));
        }
    }
}
