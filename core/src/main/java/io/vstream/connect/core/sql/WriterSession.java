package io.vstream.connect.core.sql;

/**
 * The session settings of every connection that writes rows into a table of ours (the sink's target, the ghost's
 * server copy), in one place so that the copy and the change stream write a value the same way.
 * <ul>
 *   <li>strict modes: a value the column cannot hold is an error, never a silent truncation;</li>
 *   <li>{@code NO_AUTO_VALUE_ON_ZERO}: a row whose AUTO_INCREMENT key is 0 (inserted under that mode at the source)
 *   keeps 0 instead of taking the next counter value;</li>
 *   <li>{@code NO_ENGINE_SUBSTITUTION}: a table is never created with another engine than asked;</li>
 *   <li>{@code ALLOW_INVALID_DATES} (and neither {@code NO_ZERO_DATE} nor {@code NO_ZERO_IN_DATE}): a date the source
 *   table holds though no calendar has it ({@code 0000-00-00}, {@code 2024-00-10}, {@code 2024-02-30} under a
 *   permissive mode there) is written as it is;</li>
 *   <li>UTC: temporal values are written as the stream carries them;</li>
 *   <li>{@code READ COMMITTED}: a write by key locks the row it writes and no gap around it. Under the server's
 *   default ({@code REPEATABLE READ}) a delete or update of a key the table does not hold locks the gap where it would
 *   be, up to the next row: in a ghost whose copy has not reached that part yet, the whole rest of a key range, so
 *   every insert of the copy into it would wait for (or, taking its locks without waiting, fail on) the applier's
 *   transaction. Every write of ours names its rows by key, so no gap lock protects anything.</li>
 * </ul>
 * One kind of row cannot be written strictly: an ENUM column holding its invalid-value entry (index 0, stored at the
 * source under a permissive mode). Its statement alone runs without the strict modes ({@link #withoutStrictMode}),
 * and its writer checks that the server warned about nothing else.
 */
public final class WriterSession {
    /** The SQL mode of a writing session. */
    public static final String SQL_MODE =
            "STRICT_TRANS_TABLES,STRICT_ALL_TABLES,NO_AUTO_VALUE_ON_ZERO,NO_ENGINE_SUBSTITUTION,ALLOW_INVALID_DATES";
    /** The SQL mode of one statement that writes an ENUM's index 0: {@link #SQL_MODE} without the strict modes. */
    public static final String RELAXED_SQL_MODE = "NO_AUTO_VALUE_ON_ZERO,NO_ENGINE_SUBSTITUTION,ALLOW_INVALID_DATES";
    /** The statement that sets it. */
    public static final String SET_SQL_MODE = "SET SESSION sql_mode = '" + SQL_MODE + "'";
    /** The statement that sets the session's isolation level (no gap locks). */
    public static final String SET_READ_COMMITTED = "SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED";
    /** The statement that sets the session's time zone to UTC. */
    public static final String SET_UTC = "SET SESSION time_zone = '+00:00'";

    /**
     * {@code statement} (an {@code INSERT}, {@code UPDATE} or {@code DELETE}) run under {@link #RELAXED_SQL_MODE}
     * for itself only: MariaDB's {@code SET STATEMENT ... FOR}, MySQL's {@code SET_VAR} hint after the first keyword.
     */
    public static String withoutStrictMode(String statement, boolean mariaDb) {
        if (mariaDb) {
            return "SET STATEMENT sql_mode = '" + RELAXED_SQL_MODE + "' FOR " + statement;
        }
        int space = statement.indexOf(' ');
        return statement.substring(0, space) + " /*+ SET_VAR(sql_mode = '" + RELAXED_SQL_MODE + "') */"
                + statement.substring(space);
    }

    private WriterSession() {
    }
}
