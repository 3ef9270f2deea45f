package io.vstream.connect.coordinator.ddl;

import io.vstream.connect.core.error.ErrorClassifier;
import io.vstream.connect.core.error.ServerErrors;
import io.vstream.connect.core.sql.SqlIdentifiers;
import io.vstream.connect.core.sql.SqlTag;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Runs an online ALTER directly when the server can apply it without copying the table ({@code ALGORITHM=INSTANT}:
 * adding a nullable or defaulted column, dropping or reordering one, changing a default, renaming a column, widening
 * some VARCHARs), as Vitess's {@code --prefer-instant-ddl} and Spirit do. Whether it can is asked of the server on an
 * empty copy of the table (a probe table, {@code _<table>_ins}, created and dropped here), so nothing is changed
 * until it is known; the real ALTER then runs with {@code ALGORITHM=INSTANT} (the server refuses rather than copy) and
 * a short {@code lock_wait_timeout}, so that the metadata lock it briefly needs never holds the application's writes
 * back longer than a cut-over would. Touches one shard: the probe table, the table itself, and
 * {@code information_schema.INNODB_TRX} to see long transactions first.
 */
public final class InstantAlter {
    private static final String ROLE = "online-ddl:instant";
    private static final Pattern CHOOSES_ALGORITHM = Pattern.compile("(?i)\\b(ALGORITHM|LOCK)\\s*=");
    private static final GhostNames PROBES = new GhostNames("_" + GhostNames.PLACEHOLDER + "_ins");

    private InstantAlter() {
    }

    /** Whether the ALTER names its own ALGORITHM or LOCK: then it is the operator's choice, never run instantly. */
    public static boolean choosesAlgorithm(String body) {
        return CHOOSES_ALGORITHM.matcher(body).find();
    }

    /**
     * What the server says of an instant ALTER on a probe table: why it cannot run it instantly (its own words), or
     * else null and the definition the table will have after it ({@link SchemaReader#definition}).
     */
    public record Probe(String refusal, String definition) {
    }

    /**
     * Asks the server whether it can run {@code body} instantly on {@code database.table}: the ALTER runs with
     * {@code ALGORITHM=INSTANT} on an empty probe table made {@code LIKE} the table (same columns, indexes, row
     * format), whose definition after it is the one the table will have; the probe is dropped again.
     *
     * @throws SQLException when the shard fails (a lost connection): the question is still open
     */
    public static Probe probe(Connection c, String database, String table, String body) throws SQLException {
        String probe = PROBES.ghostOf(table);
        String qualifiedProbe = SqlIdentifiers.qualify(database, probe);
        if (SchemaReader.tableType(c, database, probe) != null) {
            return new Probe("a table named " + qualifiedProbe + " exists (the name of the probe table): not tried",
                    null);
        }
        try {
            execute(c, "CREATE TABLE " + qualifiedProbe + " LIKE " + SqlIdentifiers.qualify(database, table));
            execute(c, "ALTER TABLE " + qualifiedProbe + " " + body + ", ALGORITHM=INSTANT");
            return new Probe(null, SchemaReader.definition(c, database, probe));
        } catch (SQLException e) {
            if (ErrorClassifier.isRetriable(e)) {
                throw e;
            }
            return new Probe(e.getMessage() + " (error " + e.getErrorCode() + ")", null);
        } finally {
            execute(c, "DROP TABLE IF EXISTS " + qualifiedProbe);
        }
    }

    /**
     * The oldest transaction open on the server for longer than {@code age} (it may hold the table's metadata lock,
     * which the ALTER would then wait for while new writes queue behind it), described; null when there is none that
     * this account can see (without the PROCESS privilege only its own).
     */
    public static String longTransaction(Connection c, Duration age) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(SqlTag.tag(ROLE, "SELECT trx_mysql_thread_id,"
                + " TIMESTAMPDIFF(SECOND, trx_started, NOW()) FROM information_schema.INNODB_TRX WHERE trx_started <"
                + " NOW() - INTERVAL ? SECOND AND trx_mysql_thread_id <> CONNECTION_ID() ORDER BY trx_started LIMIT"
                + " 1"))) {
            ps.setLong(1, Math.max(1, age.toSeconds()));
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? "connection " + rs.getLong(1) + " has had a transaction open for " + rs.getLong(2)
                        + " s" : null;
            }
        }
    }

    /**
     * Runs the ALTER on the table with {@code ALGORITHM=INSTANT}, waiting at most {@code lockWait} (whole seconds, at
     * least one) for its metadata lock.
     *
     * @throws SQLException the server's refusal, or a lock wait timeout (1205) when the table was busy
     */
    public static void apply(Connection c, String database, String table, String body, Duration lockWait)
            throws SQLException {
        long seconds = Math.max(1, (lockWait.toMillis() + 999) / 1000);
        try (Statement st = c.createStatement()) {
            st.execute("SET SESSION lock_wait_timeout = " + seconds);
            st.execute(SqlTag.tag(ROLE, "ALTER TABLE " + SqlIdentifiers.qualify(database, table) + " " + body
                    + ", ALGORITHM=INSTANT"));
        }
    }

    /** Whether a server error says the operation cannot run instantly (rather than that the table was busy). */
    public static boolean notInstant(SQLException e) {
        return ServerErrors.isAlterNotSupported(e)
                || e.getMessage() != null && e.getMessage().toUpperCase(Locale.ROOT).contains("ALGORITHM=INSTANT");
    }

    private static void execute(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute(SqlTag.tag(ROLE, sql));
        }
    }
}
