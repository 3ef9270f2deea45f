package io.vstream.connect.core.sql;

import java.util.List;
import java.util.stream.Collectors;

/**
 * Quotes MySQL/MariaDB identifiers (schema, table, column names) for statements we build: every identifier is
 * wrapped in backticks with embedded backticks doubled, whatever it contains, so no name can end the quoting or
 * change a statement. Quoting does not check the server's own rules (64 characters, no trailing space, BMP only);
 * the server reports those.
 */
public final class SqlIdentifiers {

    private static final char BACKTICK = '`';

    private SqlIdentifiers() {
    }

    /**
     * {@code name} as a quoted identifier: {@code order} becomes {@code `order`}, {@code a`b} becomes
     * {@code `a``b`}.
     *
     * @throws IllegalArgumentException if {@code name} is null, empty or contains a NUL character
     */
    public static String quote(String name) {
        requireValid(name);
        StringBuilder quoted = new StringBuilder(name.length() + 2).append(BACKTICK);
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            quoted.append(c);
            if (c == BACKTICK) {
                quoted.append(BACKTICK);
            }
        }
        return quoted.append(BACKTICK).toString();
    }

    /** {@code `db`.`table`}, each part quoted by {@link #quote}. */
    public static String qualify(String database, String table) {
        return quote(database) + "." + quote(table);
    }

    /** The names quoted by {@link #quote} and joined with {@code ", "}, e.g. for a column list. */
    public static String quoteList(List<String> names) {
        if (names == null || names.isEmpty()) {
            throw new IllegalArgumentException("Identifier list is empty; a column list needs at least one name");
        }
        return names.stream().map(SqlIdentifiers::quote).collect(Collectors.joining(", "));
    }

    /**
     * The name inside one quoted identifier, the inverse of {@link #quote}: {@code `a``b`} becomes {@code a`b}.
     *
     * @throws IllegalArgumentException if {@code quoted} is not exactly one backtick-quoted identifier
     */
    public static String unquote(String quoted) {
        if (quoted == null || quoted.length() < 3 || quoted.charAt(0) != BACKTICK
                || quoted.charAt(quoted.length() - 1) != BACKTICK) {
            throw new IllegalArgumentException("Not a quoted identifier: " + quoted + "; expected e.g. `orders`");
        }
        StringBuilder name = new StringBuilder(quoted.length());
        for (int i = 1; i < quoted.length() - 1; i++) {
            char c = quoted.charAt(i);
            if (c == BACKTICK) {
                if (i + 1 >= quoted.length() - 1 || quoted.charAt(i + 1) != BACKTICK) {
                    throw new IllegalArgumentException("Not a quoted identifier: " + quoted
                            + "; a backtick inside the name must be doubled, e.g. `a``b`");
                }
                i++;
            }
            name.append(c);
        }
        return name.toString();
    }

    private static void requireValid(String name) {
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("Identifier is " + (name == null ? "null" : "empty")
                    + "; a schema, table or column name needs at least one character");
        }
        int nul = name.indexOf('\0');
        if (nul >= 0) {
            throw new IllegalArgumentException("Identifier \"" + name.replace('\0', '?') + "\" contains a NUL "
                    + "character at index " + nul + "; MySQL and MariaDB do not allow NUL in names, even quoted");
        }
    }
}
