package io.vstream.connect.core.error;

import io.vstream.connect.core.error.Classification.Kind;
import java.sql.SQLException;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The one table of MySQL/MariaDB vendor error codes and SQLStates that {@link ErrorClassifier} recognises, each with
 * its verdict and the advice an operator needs. Codes below 2000 are server errors, 2000 and up client (driver)
 * errors; 1927 is MariaDB only.
 */
final class MysqlErrorCodes {

    /** How much of the server's message a reason may quote. */
    private enum Quote {
        /** The whole message: it names objects (tables, privileges, binlog files), not row values. */
        MESSAGE,
        /** Only the column or key it names: the message may hold row values (personal data). */
        NAMES_ONLY
    }

    private record Rule(int code, String symbol, Kind kind, String advice, Quote quote) {
    }

    private static final Map<Integer, Rule> RULES = Stream.of(
            // Transient: the same work succeeds once the lock, the connection or the failover has passed.
            retriable(1213, "ER_LOCK_DEADLOCK", "deadlock: the server rolled the transaction back; replay it"),
            retriable(1205, "ER_LOCK_WAIT_TIMEOUT", "lock wait timeout: another transaction held a lock longer than "
                    + "innodb_lock_wait_timeout"),
            retriable(1040, "ER_CON_COUNT_ERROR", "too many connections: the server is at max_connections"),
            retriable(1053, "ER_SERVER_SHUTDOWN", "the server is shutting down"),
            retriable(1158, "ER_NET_READ_ERROR", "network error while reading from the connection"),
            retriable(1159, "ER_NET_READ_INTERRUPTED", "timeout while reading from the connection (net_read_timeout)"),
            retriable(1160, "ER_NET_ERROR_ON_WRITE", "network error while writing to the connection"),
            retriable(1161, "ER_NET_WRITE_INTERRUPTED", "timeout while writing to the connection (net_write_timeout)"),
            retriable(1927, "ER_CONNECTION_KILLED", "the connection was killed (KILL, or the server is restarting)"),
            retriable(2002, "CR_CONNECTION_ERROR", "cannot connect to the server's socket"),
            retriable(2003, "CR_CONN_HOST_ERROR", "cannot connect to the server host"),
            retriable(2006, "CR_SERVER_GONE_ERROR", "the server has gone away"),
            retriable(2013, "CR_SERVER_LOST", "lost the connection to the server during a query"),
            // A failover first makes the old primary read-only; writes fail until we reconnect to the new primary.
            // Retrying with a backoff rides through that; if the server stays read-only the retries run out.
            retriable(1290, "ER_OPTION_PREVENTS_STATEMENT", "the server is read-only (--read-only / super_read_only), "
                    + "as an old primary is during a failover; reconnect and retry. If it lasts, the connector "
                    + "points at a replica, not the primary"),
            retriable(1836, "ER_READ_ONLY_MODE", "the server is in read-only mode, as during a failover; reconnect and "
                    + "retry. If it lasts, the connector points at a replica, not the primary"),
            // Operator errors: retrying repeats them.
            fatal(1045, "ER_ACCESS_DENIED_ERROR", "access denied: check the user, the password and the host it may "
                    + "connect from in the connector config", Quote.MESSAGE),
            fatal(1044, "ER_DBACCESS_DENIED_ERROR", "missing privilege on a database: grant the connector's user "
                    + "access to the database the server names", Quote.MESSAGE),
            fatal(1142, "ER_TABLEACCESS_DENIED_ERROR", "missing table privilege: grant the command the server names "
                    + "on that table to the connector's user", Quote.MESSAGE),
            fatal(1143, "ER_COLUMNACCESS_DENIED_ERROR", "missing column privilege: grant the command the server names "
                    + "on that column to the connector's user", Quote.MESSAGE),
            fatal(1227, "ER_SPECIFIC_ACCESS_DENIED_ERROR", "missing global privilege: grant the privilege the server "
                    + "names (e.g. REPLICATION SLAVE, REPLICATION CLIENT, RELOAD) to the connector's user",
                    Quote.MESSAGE),
            fatal(1370, "ER_PROCACCESS_DENIED_ERROR", "missing routine privilege: grant EXECUTE (or ALTER ROUTINE) on "
                    + "the routine the server names to the connector's user", Quote.MESSAGE),
            fatal(1146, "ER_NO_SUCH_TABLE", "no such table: check the configured tables, or whether the table was "
                    + "dropped or renamed", Quote.MESSAGE),
            fatal(1054, "ER_BAD_FIELD_ERROR", "unknown column: the table's schema differs from the one the statement "
                    + "was built for; align the target schema", Quote.MESSAGE),
            fatal(1062, "ER_DUP_ENTRY", "duplicate key: the row collides with another row on a unique key (a unique "
                    + "key the migration added, or rows in the target that the stream did not write)",
                    Quote.NAMES_ONLY),
            fatal(1366, "ER_TRUNCATED_WRONG_VALUE_FOR_FIELD", "poison record: a value is not valid for its column's "
                    + "type; fix the target column or route the record to the dead letter queue", Quote.NAMES_ONLY),
            fatal(1264, "ER_WARN_DATA_OUT_OF_RANGE", "poison record: a value is out of range for its column; widen "
                    + "the target column or route the record to the dead letter queue", Quote.NAMES_ONLY),
            fatal(1406, "ER_DATA_TOO_LONG", "poison record: a value is too long for its column; widen the target "
                    + "column or route the record to the dead letter queue", Quote.NAMES_ONLY),
            fatal(1236, "ER_MASTER_FATAL_ERROR_READING_BINLOG", "the binlog position the stream needs is gone "
                    + "(purged, or never on this server); re-copy: restart the stream from a fresh copy phase",
                    Quote.MESSAGE)
    ).collect(Collectors.toUnmodifiableMap(Rule::code, Function.identity()));

    /** Names a message quotes after "column" or "key", in MySQL ('a') or MariaDB (`db`.`t`.`a`) style. */
    private static final Pattern NAME = Pattern.compile(
            "\\b(column|key) ((?:'[^']*'|`[^`]*`)(?:\\.(?:'[^']*'|`[^`]*`))*)");

    private MysqlErrorCodes() {
    }

    /** The verdict for {@code e}'s vendor code, if the table knows it. */
    /** The server's "access denied" errors: a wrong password, or a missing privilege (1698: no password given). */
    static final java.util.Set<Integer> ACCESS_DENIED = java.util.Set.of(1044, 1045, 1142, 1143, 1227, 1370, 1698);

    static Optional<Classification> byVendorCode(SQLException e) {
        Rule rule = RULES.get(e.getErrorCode());
        if (rule == null) {
            return Optional.empty();
        }
        String message = e.getMessage() == null ? "" : e.getMessage();
        if (rule.code() == 1290 && !mentionsReadOnly(message)) {
            return Optional.of(Classification.fatal("a server option prevents this statement "
                    + tag(rule, e) + ": " + message));
        }
        String reason = rule.advice() + " " + tag(rule, e) + quoted(rule.quote(), message);
        return Optional.of(new Classification(rule.kind(), reason));
    }

    /** The verdict for {@code e}'s SQLState: class 08 (connection exception) and 40001 (serialization failure). */
    static Optional<Classification> bySqlState(SQLException e) {
        String state = e.getSQLState();
        if (state == null) {
            return Optional.empty();
        }
        if (state.startsWith("08")) {
            return Optional.of(Classification.retriable("connection failure [SQLState " + state + "]"));
        }
        if (state.equals("40001")) {
            return Optional.of(Classification.retriable("serialization failure or deadlock: the transaction was "
                    + "rolled back; replay it [SQLState 40001]"));
        }
        return Optional.empty();
    }

    private static boolean mentionsReadOnly(String message) {
        String lower = message.toLowerCase(Locale.ROOT);
        return lower.contains("read-only") || lower.contains("read_only");
    }

    private static String tag(Rule rule, SQLException e) {
        return "[error " + rule.code() + " " + rule.symbol()
                + (e.getSQLState() == null ? "" : ", SQLState " + e.getSQLState()) + "]";
    }

    private static String quoted(Quote quote, String message) {
        if (message.isEmpty()) {
            return "";
        }
        if (quote == Quote.MESSAGE) {
            return ": " + message;
        }
        Matcher m = NAME.matcher(message);
        StringBuilder names = new StringBuilder();
        while (m.find()) {
            names.append(names.length() == 0 ? "" : ", ").append(m.group(1)).append(' ').append(m.group(2));
        }
        return names.length() == 0 ? "" : " (" + names + "; the message is not quoted: it may hold row data)";
    }

    private static Rule retriable(int code, String symbol, String advice) {
        return new Rule(code, symbol, Kind.RETRIABLE, advice, Quote.MESSAGE);
    }

    private static Rule fatal(int code, String symbol, String advice, Quote quote) {
        return new Rule(code, symbol, Kind.FATAL, advice, quote);
    }
}
