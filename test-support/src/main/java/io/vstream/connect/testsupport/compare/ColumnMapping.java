package io.vstream.connect.testsupport.compare;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * How each target column is compared to the source: by default with the source column of the same name;
 * a renamed column with its source column; an added column either excluded or compared to a fixed SQL
 * expression evaluated on the source (e.g. its default {@code 'new'}); any SQL expression over source
 * columns (e.g. a conversion). Source columns no target column maps to (dropped columns) are not compared.
 * Key columns must map to plain source columns. A fluent, mutable spec; touches no server.
 */
public final class ColumnMapping {

    private final Map<String, String> renamedFrom = new LinkedHashMap<>();
    private final Map<String, String> computed = new LinkedHashMap<>();
    private final Set<String> excluded = new LinkedHashSet<>();

    private ColumnMapping() {
    }

    /** Every target column is compared to the source column of the same name. */
    public static ColumnMapping byName() {
        return new ColumnMapping();
    }

    /** The target column {@code targetColumn} holds what the source has in {@code sourceColumn}. */
    public ColumnMapping renamed(String sourceColumn, String targetColumn) {
        clear(targetColumn);
        renamedFrom.put(targetColumn, sourceColumn);
        return this;
    }

    /**
     * The target column is compared to {@code sourceExpression}, SQL evaluated on the source table (an
     * added column's fixed value such as {@code "'new'"}, or a conversion such as {@code "amount * 100"}).
     */
    public ColumnMapping computed(String targetColumn, String sourceExpression) {
        clear(targetColumn);
        computed.put(targetColumn, sourceExpression);
        return this;
    }

    /** The target column (e.g. one a migration added) is not compared. */
    public ColumnMapping excluded(String targetColumn) {
        clear(targetColumn);
        excluded.add(targetColumn);
        return this;
    }

    boolean isExcluded(String targetColumn) {
        return excluded.contains(targetColumn);
    }

    /** The SQL the source side compares with {@code targetColumn}, given the quoting of plain columns. */
    String sourceExpression(String targetColumn, java.util.function.UnaryOperator<String> quote) {
        String expression = computed.get(targetColumn);
        if (expression != null) {
            return expression;
        }
        return quote.apply(sourceColumn(targetColumn));
    }

    /** The plain source column of {@code targetColumn}, or null when it is computed. */
    String sourceColumn(String targetColumn) {
        if (computed.containsKey(targetColumn)) {
            return null;
        }
        return renamedFrom.getOrDefault(targetColumn, targetColumn);
    }

    Set<String> mentionedTargetColumns() {
        Set<String> all = new LinkedHashSet<>(renamedFrom.keySet());
        all.addAll(computed.keySet());
        all.addAll(excluded);
        return all;
    }

    private void clear(String targetColumn) {
        renamedFrom.remove(targetColumn);
        computed.remove(targetColumn);
        excluded.remove(targetColumn);
    }

    @Override
    public String toString() {
        return "ColumnMapping{renamed=" + renamedFrom + ", computed=" + computed + ", excluded=" + excluded + "}";
    }
}
