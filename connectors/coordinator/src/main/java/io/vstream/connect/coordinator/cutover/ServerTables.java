package io.vstream.connect.coordinator.cutover;

import io.vstream.connect.core.error.ServerErrors;
import io.vstream.connect.core.position.Flavor;
import io.vstream.connect.core.position.GtidPosition;
import io.vstream.connect.core.sql.SqlIdentifiers;
import io.vstream.connect.core.sql.SqlTag;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * What the cut-over reads from a shard to decide instead of assume: which of the table names exist and with what
 * comment, each table's identity (InnoDB table id, else its definition), the processlist state of a session, the
 * metadata lock a session waits for (where performance_schema instruments them) and the GTID position. Also the
 * few statements the control connection sends (KILL QUERY, dropping our sentry). Every statement is tagged
 * {@code vstream-connect:cutover}. Touches the shard through the connection it is given.
 */
final class ServerTables {

    /** The role every cut-over statement is tagged with, for DBAs reading the processlist. */
    static final String ROLE = "cutover";

    private static final Pattern SIMPLE_NAME = Pattern.compile("[A-Za-z0-9_]+");
    private static final Pattern AUTO_INCREMENT = Pattern.compile("\\s*AUTO_INCREMENT=\\d+");

    private ServerTables() {
    }

    /**
     * A table's identity: a RENAME keeps both parts, so the table now named {@code t} can be recognised as the
     * former ghost or the former original.
     *
     * @param innodbTableId the InnoDB table id, null when not readable (not InnoDB, missing PROCESS privilege, a
     *                      name that needs filename encoding)
     * @param definition    {@code SHOW CREATE TABLE} without the name line and the AUTO_INCREMENT counter
     */
    record Identity(Long innodbTableId, String definition) {

        /** TRUE or FALSE when the identities tell; null when neither part can (no ids, equal definitions). */
        Boolean sameAs(Identity other) {
            if (other == null) {
                return null;
            }
            if (innodbTableId != null && other.innodbTableId != null) {
                return innodbTableId.equals(other.innodbTableId);
            }
            return definition.equals(other.definition) ? null : Boolean.FALSE;
        }
    }

    /** One processlist row: the session's state and statement (either may be null). */
    record Session(String state, String info) {
        boolean waitsOnMetadataLock(String statementStart) {
            return state != null && state.toLowerCase(java.util.Locale.ROOT).contains("metadata lock")
                    && info != null && info.contains(statementStart);
        }
    }

    static String tag(String sql) {
        return SqlTag.tag(ROLE, sql);
    }

    static void execute(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute(tag(sql));
        }
    }

    static String string(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(tag(sql))) {
            return rs.next() ? rs.getString(1) : null;
        }
    }

    static long connectionId(Connection c) throws SQLException {
        return Long.parseLong(string(c, "SELECT CONNECTION_ID()"));
    }

    /** The server's GTID position in Vitess form: {@code MariaDB/<@@gtid_binlog_pos>} or MySQL's executed set. */
    static String position(Connection c) throws SQLException {
        boolean mariadb = isMariaDb(c);
        String raw = string(c, mariadb ? "SELECT @@GLOBAL.gtid_binlog_pos" : "SELECT @@GLOBAL.gtid_executed");
        return GtidPosition.parse(mariadb ? Flavor.MARIADB : Flavor.MYSQL56, raw == null ? "" : raw).format();
    }

    static boolean isMariaDb(Connection c) throws SQLException {
        String version = string(c, "SELECT VERSION()");
        return version != null && version.contains("MariaDB");
    }

    /**
     * MariaDB: whether another session holds {@code db.table}'s exclusive metadata lock (a DDL running on it, e.g. a
     * RENAME that has taken it and waits for its next lock), asked without waiting: a read of the table's definition
     * with {@code lock_wait_timeout = 0} fails at once on a granted exclusive lock, and goes through when an exclusive
     * lock is only requested (a metadata read is let past a waiting DDL). {@code restoreLockWaitSeconds} is set again
     * afterwards.
     */
    static boolean exclusivelyLocked(Connection c, String db, String table, long restoreLockWaitSeconds)
            throws SQLException {
        try {
            execute(c, "SET SESSION lock_wait_timeout = 0");
            execute(c, "SHOW CREATE TABLE " + SqlIdentifiers.qualify(db, table));
            return false;
        } catch (SQLException e) {
            if (e.getErrorCode() == ServerErrors.LOCK_WAIT_TIMEOUT) {
                return true;
            }
            throw e;
        } finally {
            execute(c, "SET SESSION lock_wait_timeout = " + restoreLockWaitSeconds);
        }
    }

    static boolean lowerCaseNames(Connection c) throws SQLException {
        String v = string(c, "SELECT @@lower_case_table_names");
        return v != null && !v.equals("0");
    }

    /** The table's comment if it exists (empty string for none), else empty. */
    static Optional<String> comment(Connection c, String db, String table) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(tag("SELECT TABLE_COMMENT FROM information_schema.TABLES"
                + " WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?"))) {
            ps.setString(1, db);
            ps.setString(2, table);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(rs.getString(1) == null ? "" : rs.getString(1)) : Optional.empty();
            }
        }
    }

    static boolean exists(Connection c, String db, String table) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(tag("SELECT 1 FROM information_schema.TABLES"
                + " WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?"))) {
            ps.setString(1, db);
            ps.setString(2, table);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }

    /** The tables of {@code db} whose comment is exactly {@code comment}. */
    static List<String> tablesWithComment(Connection c, String db, String comment) throws SQLException {
        List<String> names = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(tag("SELECT TABLE_NAME FROM information_schema.TABLES"
                + " WHERE TABLE_SCHEMA = ? AND TABLE_COMMENT = ?"))) {
            ps.setString(1, db);
            ps.setString(2, comment);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    names.add(rs.getString(1));
                }
            }
        }
        return names;
    }

    /** The identity of {@code db.table}, or null if it does not exist. */
    static Identity identity(Connection c, String db, String table) throws SQLException {
        String definition;
        try (Statement st = c.createStatement();
             ResultSet rs = st.executeQuery(tag("SHOW CREATE TABLE " + SqlIdentifiers.qualify(db, table)))) {
            if (!rs.next()) {
                return null;
            }
            definition = normalize(rs.getString(2));
        } catch (SQLException e) {
            if (e.getErrorCode() == ServerErrors.NO_SUCH_TABLE) {
                return null;
            }
            throw e;
        }
        return new Identity(innodbTableId(c, db, table), definition);
    }

    /** The definition without its first line (which names the table) and without the AUTO_INCREMENT counter. */
    static String normalize(String createTable) {
        int nl = createTable.indexOf('\n');
        String body = nl < 0 ? createTable : createTable.substring(nl + 1);
        return AUTO_INCREMENT.matcher(body).replaceAll("");
    }

    private static Long innodbTableId(Connection c, String db, String table) {
        if (!SIMPLE_NAME.matcher(db).matches() || !SIMPLE_NAME.matcher(table).matches()) {
            return null; // InnoDB keeps other names in filename encoding
        }
        for (String view : List.of("INNODB_SYS_TABLES", "INNODB_TABLES")) { // MariaDB, MySQL 8
            try (PreparedStatement ps = c.prepareStatement(tag("SELECT TABLE_ID FROM information_schema." + view
                    + " WHERE NAME = ?"))) {
                ps.setString(1, db + "/" + table);
                try (ResultSet rs = ps.executeQuery()) {
                    if (rs.next()) {
                        return rs.getLong(1);
                    }
                }
            } catch (SQLException e) {
                // not this server's view, or no PROCESS privilege: try the next, then fall back to the definition
            }
        }
        return null;
    }

    /** The processlist row of connection {@code id}, or null if it is gone. */
    static Session session(Connection c, long id) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(tag("SELECT STATE, INFO FROM information_schema.PROCESSLIST"
                + " WHERE ID = ?"))) {
            ps.setLong(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? new Session(rs.getString(1), rs.getString(2)) : null;
            }
        }
    }

    /** Connections other than this one running a cut-over RENAME of {@code db.table} (left by an earlier attempt). */
    static List<Long> runningRenames(Connection c, String db, String table) throws SQLException {
        List<Long> ids = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(tag("SELECT ID FROM information_schema.PROCESSLIST"
                + " WHERE ID <> CONNECTION_ID() AND INFO LIKE ? ESCAPE '|' AND INFO LIKE ? ESCAPE '|'"))) {
            ps.setString(1, likeEscape(SqlTag.comment(ROLE)) + " RENAME TABLE%");
            ps.setString(2, "%RENAME TABLE " + likeEscape(SqlIdentifiers.qualify(db, table)) + " TO %");
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    ids.add(rs.getLong(1));
                }
            }
        }
        return ids;
    }

    /** Whether performance_schema is on with the metadata-lock instrument enabled (metadata_locks is filled). */
    static boolean metadataLocksInstrumented(Connection c) {
        try {
            if (!"1".equals(string(c, "SELECT @@performance_schema"))) {
                return false;
            }
            return "YES".equalsIgnoreCase(string(c, "SELECT ENABLED FROM performance_schema.setup_instruments"
                    + " WHERE NAME = 'wait/lock/metadata/sql/mdl'"));
        } catch (SQLException e) {
            return false;
        }
    }

    /** The tables of {@code db} on which connection {@code id} waits for a metadata lock (performance_schema). */
    static List<String> pendingTableLocks(Connection c, long id, String db) throws SQLException {
        List<String> names = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(tag("SELECT ml.OBJECT_NAME"
                + " FROM performance_schema.metadata_locks ml"
                + " JOIN performance_schema.threads th ON th.THREAD_ID = ml.OWNER_THREAD_ID"
                + " WHERE th.PROCESSLIST_ID = ? AND ml.LOCK_STATUS = 'PENDING' AND ml.OBJECT_TYPE = 'TABLE'"
                + " AND ml.OBJECT_SCHEMA = ?"))) {
            ps.setLong(1, id);
            ps.setString(2, db);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    names.add(rs.getString(1));
                }
            }
        }
        return names;
    }

    static void killQuery(Connection c, long id) throws SQLException {
        execute(c, "KILL QUERY " + id);
    }

    private static String likeEscape(String s) {
        return s.replace("|", "||").replace("%", "|%").replace("_", "|_");
    }
}
