package io.vstream.connect.jdbc;

import io.vstream.connect.core.sql.SqlTag;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.Objects;
import java.util.Set;

/**
 * A JDBC connection that tags every statement sent through it with {@link SqlTag} (gh-ost's habit: a DBA reading
 * {@code SHOW PROCESSLIST}, the slow log or the general log sees which vstream-connect component sent it). Statements
 * already tagged by their caller with a finer role ({@code copy}, {@code cutover}, {@code checksum}) keep their tag;
 * the others get the connection's role. Covers {@code prepareStatement}, {@code prepareCall} and every
 * {@code Statement} method that takes SQL text; what the driver sends by itself ({@code COMMIT}, {@code SET
 * autocommit}, its handshake) cannot carry a comment. Touches no server itself.
 */
public final class TaggedConnection {
    private static final String TAG_START = "/* " + SqlTag.PRODUCT + ":";
    private static final Set<String> CONNECTION_SQL_METHODS = Set.of("prepareStatement", "prepareCall");
    private static final Set<String> STATEMENT_SQL_METHODS = Set.of("execute", "executeQuery", "executeUpdate",
            "executeLargeUpdate", "addBatch");

    private TaggedConnection() {
    }

    /** {@code connection}, tagging every statement without a tag of its own with {@code role}. */
    public static Connection wrap(Connection connection, String role) {
        Objects.requireNonNull(connection, "connection");
        String comment = SqlTag.comment(role); // validates the role once
        return (Connection) Proxy.newProxyInstance(TaggedConnection.class.getClassLoader(),
                new Class<?>[] {Connection.class}, new Tagging(connection, comment, CONNECTION_SQL_METHODS, null));
    }

    /** Whether {@code sql} already starts with a vstream-connect tag. */
    static boolean tagged(String sql) {
        return sql.stripLeading().startsWith(TAG_START);
    }

    static String tag(String comment, String sql) {
        return sql == null || tagged(sql) ? sql : comment + " " + sql;
    }

    private static Object call(Object target, Method m, Object[] args) throws Throwable {
        try {
            return m.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    /**
     * Tags the SQL text of {@code sqlMethods} on {@code target}: the connection (whose plain statements it wraps in
     * turn, {@code connection} null) or one of its statements ({@code connection}: the wrapper it answers for).
     */
    private static final class Tagging implements InvocationHandler {
        private final Object target;
        private final String comment;
        private final Set<String> sqlMethods;
        private final Connection connection;

        Tagging(Object target, String comment, Set<String> sqlMethods, Connection connection) {
            this.target = target;
            this.comment = comment;
            this.sqlMethods = sqlMethods;
            this.connection = connection;
        }

        @Override
        public Object invoke(Object proxy, Method m, Object[] args) throws Throwable {
            String name = m.getName();
            if (args != null && args.length > 0 && args[0] instanceof String sql && sqlMethods.contains(name)) {
                args[0] = tag(comment, sql);
            }
            switch (name) {
                case "equals":
                    return proxy == args[0];
                case "hashCode":
                    return System.identityHashCode(proxy);
                case "toString":
                    return "tagged " + target;
                case "getConnection":
                    if (connection != null) {
                        return connection;
                    }
                    break;
                default:
                    break;
            }
            Object out = call(target, m, args);
            if (connection == null && out instanceof Statement st && !(out instanceof PreparedStatement)
                    && !(out instanceof CallableStatement)) {
                return Proxy.newProxyInstance(TaggedConnection.class.getClassLoader(),
                        new Class<?>[] {Statement.class}, new Tagging(st, comment, STATEMENT_SQL_METHODS,
                                (Connection) proxy));
            }
            return out;
        }
    }
}
