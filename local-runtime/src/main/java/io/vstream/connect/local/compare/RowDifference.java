package io.vstream.connect.local.compare;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * One row that differs between a source and a target: missing in the target, extra in the target, or
 * present in both with different values in the listed columns. Values are the text the servers return.
 *
 * @param kind    what differs
 * @param key     the row's key, by target key column name, in key order
 * @param columns for {@link Kind#DIFFERENT}: each differing column (target name) with both values
 */
public record RowDifference(Kind kind, Map<String, String> key, List<ColumnDifference> columns) {

    private static final int MAX_VALUE_CHARS = 40;

    public RowDifference {
        key = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(key));
        columns = List.copyOf(columns);
    }

    /** What kind of difference. */
    public enum Kind {
        /** The source has the row, the target does not. */
        MISSING_IN_TARGET,
        /** The target has a row the source does not. */
        EXTRA_IN_TARGET,
        /** Both have the row, with different values. */
        DIFFERENT
    }

    /** One column's two values ({@code null} for SQL NULL). */
    public record ColumnDifference(String column, String sourceValue, String targetValue) {
        @Override
        public String toString() {
            return column + ": " + show(sourceValue) + " -> " + show(targetValue);
        }
    }

    public static RowDifference missing(Map<String, String> key) {
        return new RowDifference(Kind.MISSING_IN_TARGET, key, List.of());
    }

    public static RowDifference extra(Map<String, String> key) {
        return new RowDifference(Kind.EXTRA_IN_TARGET, key, List.of());
    }

    public static RowDifference different(Map<String, String> key, List<ColumnDifference> columns) {
        return new RowDifference(Kind.DIFFERENT, key, columns);
    }

    /** E.g. {@code "different (id=7): v: 'a' -> 'b'"}; values are cut to 40 characters. */
    @Override
    public String toString() {
        String keyText = key.entrySet().stream().map(e -> e.getKey() + "=" + show(e.getValue()))
                .collect(Collectors.joining(", ", "(", ")"));
        switch (kind) {
            case MISSING_IN_TARGET:
                return "missing in target " + keyText;
            case EXTRA_IN_TARGET:
                return "extra in target " + keyText;
            default:
                return "different " + keyText + ": "
                        + columns.stream().map(ColumnDifference::toString).collect(Collectors.joining("; "));
        }
    }

    static String show(String value) {
        if (value == null) {
            return "NULL";
        }
        String cut = value.length() > MAX_VALUE_CHARS ? value.substring(0, MAX_VALUE_CHARS) + "..." : value;
        return "'" + cut + "'";
    }
}
