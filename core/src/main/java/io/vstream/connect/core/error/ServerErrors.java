package io.vstream.connect.core.error;

import java.sql.SQLException;

/**
 * The MySQL/MariaDB vendor error codes the components test for by name, and the tests they make most often, so that
 * no module compares an error with a bare number ({@link ErrorClassifier} decides what is retriable or fatal; this is
 * for the few codes a caller handles itself). Touches nothing.
 */
public final class ServerErrors {
    /** ER_DBACCESS_DENIED_ERROR: no privilege on a database. */
    public static final int DATABASE_ACCESS_DENIED = 1044;
    /** ER_ACCESS_DENIED_ERROR: wrong user, password or host (MariaDB also answers a plain connection so under TLS). */
    public static final int ACCESS_DENIED = 1045;
    /** ER_BAD_DB_ERROR: no such database. */
    public static final int NO_SUCH_DATABASE = 1049;
    /** ER_TABLE_EXISTS_ERROR. */
    public static final int TABLE_EXISTS = 1050;
    /** ER_BAD_FIELD_ERROR: no such column. */
    public static final int NO_SUCH_COLUMN = 1054;
    /** ER_DUP_ENTRY: a duplicate on a unique key. */
    public static final int DUPLICATE_KEY = 1062;
    /** ER_TABLEACCESS_DENIED_ERROR: no privilege on a table. */
    public static final int TABLE_ACCESS_DENIED = 1142;
    /** ER_NO_SUCH_TABLE. */
    public static final int NO_SUCH_TABLE = 1146;
    /** ER_LOCK_WAIT_TIMEOUT: a row lock (innodb_lock_wait_timeout) or a metadata lock (lock_wait_timeout) not had. */
    public static final int LOCK_WAIT_TIMEOUT = 1205;
    /** ER_LOCK_DEADLOCK. */
    public static final int DEADLOCK = 1213;
    /** ER_SPECIFIC_ACCESS_DENIED_ERROR: a global privilege is missing. */
    public static final int GLOBAL_PRIVILEGE_DENIED = 1227;
    /** ER_MASTER_FATAL_ERROR_READING_BINLOG: the binlog position asked for is gone or invalid. */
    public static final int BINLOG_READ_FATAL = 1236;
    /** ER_ALTER_OPERATION_NOT_SUPPORTED: the ALTER cannot run with the ALGORITHM or LOCK asked for. */
    public static final int ALTER_NOT_SUPPORTED = 1845;
    /** ER_ALTER_OPERATION_NOT_SUPPORTED_REASON: the same, with the server's reason. */
    public static final int ALTER_NOT_SUPPORTED_REASON = 1846;

    private ServerErrors() {
    }

    /** Whether {@code e} says a table or its database does not exist (e.g. state tables not created yet). */
    public static boolean isMissingTable(SQLException e) {
        return e.getErrorCode() == NO_SUCH_TABLE || e.getErrorCode() == NO_SUCH_DATABASE;
    }

    /** Whether {@code e} says a lock was not had in time. */
    public static boolean isLockWaitTimeout(SQLException e) {
        return e.getErrorCode() == LOCK_WAIT_TIMEOUT;
    }

    /** Whether {@code e} says the ALTER cannot run with the algorithm or lock it asked for. */
    public static boolean isAlterNotSupported(SQLException e) {
        return e.getErrorCode() == ALTER_NOT_SUPPORTED || e.getErrorCode() == ALTER_NOT_SUPPORTED_REASON;
    }
}
