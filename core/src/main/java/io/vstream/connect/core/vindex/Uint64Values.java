package io.vstream.connect.core.vindex;

import java.math.BigInteger;

/**
 * Reads a sharding value as the unsigned 64-bit integer that the {@code hash} and {@code numeric} vindexes encode,
 * from the Java types a MySQL integer column arrives as (BIGINT UNSIGNED as {@link BigInteger}) or from decimal text.
 */
final class Uint64Values {

    private static final BigInteger MIN_SIGNED = BigInteger.valueOf(Long.MIN_VALUE);
    private static final BigInteger MAX_UNSIGNED = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);

    private Uint64Values() {
    }

    /**
     * The value's 64 bits. Negative integers are either refused or taken as their two's complement (Vitess's
     * {@code hash} casts a signed column's int64 to uint64; {@code numeric} refuses negatives). Text is parsed as a
     * decimal number and must not be negative, as in Vitess.
     */
    static long of(String vindex, Object value, boolean castNegatives) {
        if (value == null) {
            throw new IllegalArgumentException("The " + vindex + " vindex maps no NULL value to a keyspace id "
                    + "(Vitess routes it nowhere); the sharding column must not be NULL");
        }
        if (value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte) {
            long v = ((Number) value).longValue();
            requireNonNegative(vindex, value, v < 0 && !castNegatives);
            return v;
        }
        if (value instanceof BigInteger) {
            return fromBig(vindex, value, (BigInteger) value, castNegatives);
        }
        if (value instanceof java.math.BigDecimal d) {
            // BIGINT UNSIGNED travels as Decimal(20,0) in our records
            BigInteger integral;
            try {
                integral = d.toBigIntegerExact();
            } catch (ArithmeticException e) {
                throw new IllegalArgumentException("The " + vindex + " vindex needs an integer value; the decimal"
                        + " value has a fraction");
            }
            return fromBig(vindex, value, integral, castNegatives);
        }
        if (value instanceof String) {
            BigInteger parsed;
            try {
                parsed = new BigInteger((String) value);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("The " + vindex + " vindex needs an unsigned 64-bit integer; the "
                        + "text value is not a decimal integer (text is not quoted here: it may be row data)");
            }
            return fromBig(vindex, value, parsed, false);
        }
        throw new IllegalArgumentException("The " + vindex + " vindex needs an integer value (Long, Integer, Short, "
                + "Byte, BigInteger, integral BigDecimal or decimal String), got " + value.getClass().getName());
    }

    private static long fromBig(String vindex, Object value, BigInteger v, boolean castNegatives) {
        requireNonNegative(vindex, value, v.signum() < 0 && !castNegatives);
        if (v.compareTo(MIN_SIGNED) < 0 || v.compareTo(MAX_UNSIGNED) > 0) {
            throw new IllegalArgumentException("The " + vindex + " vindex needs a value in the 64-bit range ["
                    + MIN_SIGNED + ", " + MAX_UNSIGNED + "], got " + value);
        }
        return v.longValue(); // low 64 bits: two's complement for negatives, the unsigned bits above 2^63
    }

    private static void requireNonNegative(String vindex, Object value, boolean refuse) {
        if (refuse) {
            throw new IllegalArgumentException("The " + vindex + " vindex needs an unsigned 64-bit integer, got the "
                    + "negative value " + value);
        }
    }
}
