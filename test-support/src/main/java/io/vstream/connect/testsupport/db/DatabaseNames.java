package io.vstream.connect.testsupport.db;

import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Turns a hint (usually a test method name) into a unique, valid, unquoted-safe database name:
 * lower case {@code [a-z0-9_]}, at most 64 characters, ending in a JVM-wide counter. Touches no server.
 */
public final class DatabaseNames {

    private static final int MAX_HINT = 48;
    private static final AtomicInteger COUNTER = new AtomicInteger();

    private DatabaseNames() {
    }

    /** A name never returned before by this JVM, e.g. {@code "copies_all_rows_7"} for {@code "copiesAllRows()"}. */
    public static String next(String hint) {
        return sanitize(hint) + "_" + COUNTER.incrementAndGet();
    }

    static String sanitize(String hint) {
        String raw = hint == null ? "" : hint;
        StringBuilder out = new StringBuilder();
        char previous = '_';
        for (int i = 0; i < raw.length() && out.length() < MAX_HINT; i++) {
            char c = raw.charAt(i);
            if (Character.isUpperCase(c) && Character.isLetterOrDigit(previous) && previous != '_'
                    && !Character.isUpperCase(previous)) {
                out.append('_');
            }
            char lower = Character.toLowerCase(c);
            boolean keep = (lower >= 'a' && lower <= 'z') || (lower >= '0' && lower <= '9');
            char next = keep ? lower : '_';
            if (next != '_' || (out.length() > 0 && out.charAt(out.length() - 1) != '_')) {
                out.append(next);
            }
            previous = c;
        }
        String name = out.toString().toLowerCase(Locale.ROOT);
        while (name.endsWith("_")) {
            name = name.substring(0, name.length() - 1);
        }
        if (name.isEmpty()) {
            name = "db";
        } else if (Character.isDigit(name.charAt(0))) {
            name = "db_" + name;
        }
        return name.length() > MAX_HINT ? name.substring(0, MAX_HINT) : name;
    }
}
