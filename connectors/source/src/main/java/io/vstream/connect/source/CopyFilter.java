package io.vstream.connect.source;

import io.vstream.connect.core.event.FieldNames;
import io.vstream.connect.core.position.LastPk;
import io.vstream.connect.core.position.TableLastPk;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import org.apache.kafka.connect.data.Struct;

/**
 * Decides, while a shard is being copied, whether a binlog row event is sent: rows of tables whose copy has not
 * started are dropped (they will be copied), rows of the table in progress are dropped when their key is beyond the
 * last copied key, everything else is sent.
 *
 * <p>Dropping is only an optimisation: a copy row is the row as of the snapshot that follows every event before it
 * in the log, so a consumer that applies the log in order ends right even with the extra events. The filter
 * therefore drops only what it can prove is beyond the last key (integer, decimal and binary keys, compared
 * exactly); keys it cannot compare exactly as the server does (strings in a collation, temporal values) are sent.
 */
final class CopyFilter {
    private CopyFilter() {
    }

    /** Whether to send a row change of {@code table} with these images (either may be null). */
    static boolean send(List<TableLastPk> copyState, String table, Struct before, Struct after) {
        for (TableLastPk t : copyState) {
            if (!t.table().equals(table)) {
                continue;
            }
            if (!t.isStarted()) {
                return false;
            }
            return !beyond(t.lastPk(), before) || !beyond(t.lastPk(), after);
        }
        return true; // copied already, or not part of the copy
    }

    /** True only when the image's key is provably greater than {@code lastPk}; a null image counts as beyond. */
    static boolean beyond(LastPk lastPk, Struct image) {
        if (image == null) {
            return true;
        }
        for (int i = 0; i < lastPk.size(); i++) {
            Object v;
            try {
                String column = lastPk.columns().get(i);
                v = image.get(image.schema().field(column) != null ? column : FieldNames.avro(column));
            } catch (RuntimeException e) {
                return false; // key column not in the image: cannot tell
            }
            Integer c = compare(v, lastPk.value(i));
            if (c == null) {
                return false;
            }
            if (c != 0) {
                return c > 0;
            }
        }
        return false; // equal to the last key: it was copied
    }

    /** Exact comparison where Java orders like the server; {@code null} when it cannot tell. */
    static Integer compare(Object value, Object last) {
        if (value == null || last == null) {
            return null;
        }
        if (value instanceof byte[] a && last instanceof byte[] b) {
            return compareBytes(a, b);
        }
        BigDecimal x = decimal(value);
        BigDecimal y = decimal(last);
        if (x != null && y != null) {
            return Integer.signum(x.compareTo(y));
        }
        return null;
    }

    private static BigDecimal decimal(Object v) {
        if (v instanceof BigDecimal d) {
            return d;
        }
        if (v instanceof BigInteger b) {
            return new BigDecimal(b);
        }
        if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
            return BigDecimal.valueOf(((Number) v).longValue());
        }
        return null;
    }

    private static Integer compareBytes(byte[] a, byte[] b) {
        int n = Math.min(a.length, b.length);
        for (int i = 0; i < n; i++) {
            int c = Integer.compare(a[i] & 0xFF, b[i] & 0xFF);
            if (c != 0) {
                return c;
            }
        }
        byte[] longer = a.length > b.length ? a : b;
        for (int i = n; i < longer.length; i++) {
            if (longer[i] != 0) {
                return a.length > b.length ? 1 : -1;
            }
        }
        return a.length == b.length ? 0 : null; // differ only by trailing zero bytes (BINARY padding): cannot tell
    }
}
