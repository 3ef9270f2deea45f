package io.vstream.connect.core.vindex;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The bytes of a value as MySQL sends it in a text-protocol row, which is what Vitess's {@code xxhash} and
 * {@code binary} vindexes read ({@code sqltypes.Value.ToBytes()}): decimal text for integers and decimals, UTF-8 for
 * strings, the raw bytes for binary values, no bytes for NULL.
 *
 * <p>Types whose text MySQL formats differently from Java (floating point, dates and times, booleans) are refused
 * rather than guessed: a wrong guess would silently place rows on the wrong shard.
 */
final class SqlValueBytes {

    private static final byte[] NONE = new byte[0];

    private SqlValueBytes() {
    }

    static byte[] of(String vindex, Object value) {
        if (value == null) {
            return NONE;
        }
        if (value instanceof byte[]) {
            return ((byte[]) value).clone();
        }
        if (value instanceof ByteBuffer) {
            ByteBuffer view = ((ByteBuffer) value).duplicate();
            byte[] bytes = new byte[view.remaining()];
            view.get(bytes);
            return bytes;
        }
        if (value instanceof String) {
            return ((String) value).getBytes(StandardCharsets.UTF_8);
        }
        if (value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte
                || value instanceof BigInteger) {
            return value.toString().getBytes(StandardCharsets.US_ASCII);
        }
        if (value instanceof BigDecimal) {
            return ((BigDecimal) value).toPlainString().getBytes(StandardCharsets.US_ASCII);
        }
        throw new IllegalArgumentException("The " + vindex + " vindex hashes a value's MySQL text form, which is "
                + "defined here for integers, BigDecimal, String, byte[] and ByteBuffer; got "
                + value.getClass().getName() + " (convert it to the column's text or bytes first)");
    }
}
