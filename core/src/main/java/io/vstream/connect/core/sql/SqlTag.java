package io.vstream.connect.core.sql;

import java.util.Objects;

/**
 * Tags every statement we send with a leading comment, <code>/* vstream-connect:&lt;role&gt; *&#47;</code>, so
 * that a DBA reading {@code SHOW PROCESSLIST} or the slow log can tell which vstream-connect role (copy, apply,
 * cut-over, ...) issued it. The role is reduced to letters, digits, {@code - _ . :} so it can never close the comment.
 */
public final class SqlTag {

    /** The product name every tag starts with. */
    public static final String PRODUCT = "vstream-connect";

    private static final int MAX_ROLE_LENGTH = 64;

    private SqlTag() {
    }

    /**
     * {@code sql} with the role's comment in front: {@code tag("copy", "SELECT 1")} is
     * <code>/* vstream-connect:copy *&#47; SELECT 1</code>.
     */
    public static String tag(String role, String sql) {
        Objects.requireNonNull(sql, "sql");
        return comment(role) + " " + sql;
    }

    /** The comment alone: <code>/* vstream-connect:&lt;role&gt; *&#47;</code>. */
    public static String comment(String role) {
        return "/* " + PRODUCT + ":" + sanitize(role) + " */";
    }

    /** The role as it appears in the tag: unsafe characters become {@code _}, at most 64 characters. */
    static String sanitize(String role) {
        if (role == null || role.isBlank()) {
            throw new IllegalArgumentException("Statement role is " + (role == null ? "null" : "blank")
                    + "; name the job that sends the statement, e.g. \"copy\" or \"cutover\"");
        }
        String trimmed = role.strip();
        StringBuilder safe = new StringBuilder(Math.min(trimmed.length(), MAX_ROLE_LENGTH));
        for (int i = 0; i < trimmed.length() && safe.length() < MAX_ROLE_LENGTH; i++) {
            char c = trimmed.charAt(i);
            boolean allowed = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
                    || c == '-' || c == '_' || c == '.' || c == ':';
            safe.append(allowed ? c : '_');
        }
        return safe.toString();
    }
}
