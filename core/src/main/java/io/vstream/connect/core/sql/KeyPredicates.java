package io.vstream.connect.core.sql;

import java.util.ArrayList;
import java.util.List;

/**
 * SQL predicates over a (composite) key that the optimizer turns into one index range: "after a key"
 * ({@code k1 > ? OR (k1 = ? AND k2 > ?)}) and "at or before a key", in the expanded form, since row-constructor
 * comparisons ({@code (k1, k2) > (?, ?)}) are not range-optimized by every MySQL/MariaDB version. Each predicate comes
 * with the order in which the key's values are bound.
 */
public final class KeyPredicates {
    private KeyPredicates() {
    }

    /** {@code (k1 > ?) OR (k1 = ? AND k2 > ?) OR ...}: rows strictly after the key. */
    public static String after(List<String> key) {
        return compare(key, " > ?", false);
    }

    /** {@code (k1 < ?) OR (k1 = ? AND k2 < ?) OR (k1 = ? AND k2 = ?)}: rows at or before the key. */
    public static String atOrBefore(List<String> key) {
        return compare(key, " < ?", true);
    }

    private static String compare(List<String> key, String op, boolean orEqual) {
        List<String> terms = new ArrayList<>();
        for (int i = 0; i < key.size(); i++) {
            StringBuilder t = new StringBuilder("(");
            for (int j = 0; j < i; j++) {
                t.append(SqlIdentifiers.quote(key.get(j))).append(" = ? AND ");
            }
            t.append(SqlIdentifiers.quote(key.get(i))).append(op).append(")");
            terms.add(t.toString());
        }
        if (orEqual) {
            StringBuilder eq = new StringBuilder("(");
            for (int j = 0; j < key.size(); j++) {
                eq.append(j == 0 ? "" : " AND ").append(SqlIdentifiers.quote(key.get(j))).append(" = ?");
            }
            terms.add(eq.append(")").toString());
        }
        return "(" + String.join(" OR ", terms) + ")";
    }

    /** The values of {@code key} in the order {@link #after} binds them. */
    public static List<Object> afterArgs(List<?> values) {
        List<Object> args = new ArrayList<>();
        for (int i = 0; i < values.size(); i++) {
            for (int j = 0; j <= i; j++) {
                args.add(values.get(j));
            }
        }
        return args;
    }

    /** The values of {@code key} in the order {@link #atOrBefore} binds them. */
    public static List<Object> atOrBeforeArgs(List<?> values) {
        List<Object> args = afterArgs(values);
        args.addAll(values);
        return args;
    }

    /**
     * {@code " WHERE <after> AND <at or before>"}: the rows of the key range {@code (from, to]}, each side present
     * only when its bound is ({@code false}: open on that side); {@code ""} for the whole table. The values are bound
     * in the order {@link #rangeArgs} gives them.
     */
    public static String range(List<String> key, boolean from, boolean to) {
        List<String> terms = new ArrayList<>();
        if (from) {
            terms.add(after(key));
        }
        if (to) {
            terms.add(atOrBefore(key));
        }
        return terms.isEmpty() ? "" : " WHERE " + String.join(" AND ", terms);
    }

    /** The values of {@link #range} for the bounds {@code from} and {@code to} (null: open on that side). */
    public static List<Object> rangeArgs(List<?> from, List<?> to) {
        List<Object> args = new ArrayList<>();
        if (from != null) {
            args.addAll(afterArgs(from));
        }
        if (to != null) {
            args.addAll(atOrBeforeArgs(to));
        }
        return args;
    }
}
