package io.vstream.connect.core.position;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.StringJoiner;

/**
 * The primary key of the last row a table copy has sent: ordered (column, value) pairs, the copy resumes after it.
 * Values are {@code null}, {@link Long} ({@link Integer}, {@link Short} and {@link Byte} are widened to it),
 * {@link BigInteger} (unsigned BIGINT above {@link Long#MAX_VALUE}), {@link BigDecimal}, {@link String} or
 * {@code byte[]} (binary keys; copied in and out). Floating-point values are refused: FLOAT/DOUBLE keys do not
 * compare exactly, and tables keyed by them are refused before a copy starts.
 *
 * <p>Immutable; equality compares byte arrays by content. {@link #toString()} shows column names and value types
 * only, never values: keys may hold personal data and must not reach logs.
 */
public final class LastPk {

    private final List<String> columns;
    private final List<Object> values;

    private LastPk(List<String> columns, List<Object> values) {
        this.columns = Collections.unmodifiableList(columns);
        this.values = Collections.unmodifiableList(values);
    }

    /** A single-column key. */
    public static LastPk of(String column, Object value) {
        return builder().add(column, value).build();
    }

    /**
     * A key of {@code columns} (in key order) with {@code values} at the same indexes.
     *
     * @throws IllegalArgumentException if the sizes differ, a column is blank or repeated, or a value's type is not supported
     */
    public static LastPk of(List<String> columns, List<?> values) {
        if (columns.size() != values.size()) {
            throw new IllegalArgumentException("A lastPK needs one value per column, got " + columns.size()
                    + " columns " + columns + " and " + values.size() + " values");
        }
        Builder builder = builder();
        for (int i = 0; i < columns.size(); i++) {
            builder.add(columns.get(i), values.get(i));
        }
        return builder.build();
    }

    /** A builder that takes the key's columns in order. */
    public static Builder builder() {
        return new Builder();
    }

    /** The number of key columns. */
    public int size() {
        return columns.size();
    }

    /** The key's column names, in key order. */
    public List<String> columns() {
        return columns;
    }

    /** The value of the {@code index}-th column (a byte array is a fresh copy). */
    public Object value(int index) {
        return copy(values.get(index));
    }

    /** The values in key order (byte arrays are fresh copies); may contain {@code null}. */
    public List<Object> values() {
        List<Object> out = new ArrayList<>(values.size());
        values.forEach(v -> out.add(copy(v)));
        return Collections.unmodifiableList(out);
    }

    private static Object copy(Object value) {
        return value instanceof byte[] bytes ? bytes.clone() : value;
    }

    /** The value as stored, after the type checks, widened to Long where an integer type smaller than long was given. */
    static Object normalize(String column, Object value) {
        if (value == null || value instanceof Long || value instanceof BigInteger || value instanceof BigDecimal
                || value instanceof String) {
            return value;
        }
        if (value instanceof Integer || value instanceof Short || value instanceof Byte) {
            return ((Number) value).longValue();
        }
        if (value instanceof byte[] bytes) {
            return bytes.clone();
        }
        if (value instanceof Double || value instanceof Float) {
            throw new IllegalArgumentException("lastPK column '" + column + "' has a floating-point value ("
                    + value.getClass().getSimpleName() + "); FLOAT/DOUBLE keys do not compare exactly and are not "
                    + "supported, key the table on an exact type");
        }
        throw new IllegalArgumentException("lastPK column '" + column + "' has a value of type "
                + value.getClass().getName() + "; supported are null, Long (Integer, Short, Byte widened), "
                + "BigInteger, BigDecimal, String and byte[]");
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof LastPk other && columns.equals(other.columns)
                && Arrays.deepEquals(values.toArray(), other.values.toArray());
    }

    @Override
    public int hashCode() {
        return 31 * columns.hashCode() + Arrays.deepHashCode(values.toArray());
    }

    /** {@code LastPk[id=Long, name=String]}: names and types, never values. */
    @Override
    public String toString() {
        StringJoiner joiner = new StringJoiner(", ", "LastPk[", "]");
        for (int i = 0; i < columns.size(); i++) {
            Object v = values.get(i);
            joiner.add(columns.get(i) + "=" + (v == null ? "null" : v instanceof byte[] ? "byte[]" : v.getClass().getSimpleName()));
        }
        return joiner.toString();
    }

    /** Collects the key's columns in order; {@link #build()} checks there is at least one. */
    public static final class Builder {
        private final List<String> columns = new ArrayList<>();
        private final List<Object> values = new ArrayList<>();
        private final Set<String> seen = new HashSet<>();

        private Builder() {
        }

        /**
         * Adds the next key column.
         *
         * @throws IllegalArgumentException if the column is blank or already added, or the value's type is not supported
         */
        public Builder add(String column, Object value) {
            Objects.requireNonNull(column, "column");
            if (column.isBlank()) {
                throw new IllegalArgumentException("A lastPK column name must not be blank");
            }
            if (!seen.add(column)) {
                throw new IllegalArgumentException("lastPK column '" + column + "' appears twice in " + columns);
            }
            values.add(normalize(column, value));
            columns.add(column);
            return this;
        }

        /** The key; it must have at least one column. */
        public LastPk build() {
            if (columns.isEmpty()) {
                throw new IllegalArgumentException("A lastPK needs at least one column");
            }
            return new LastPk(List.copyOf(columns), new ArrayList<>(values));
        }
    }
}
