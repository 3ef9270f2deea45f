package io.vstream.connect.local.load;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One row change a {@link WriteLoad} statement made, with its full row images (key column included), as a
 * binlog ROW event would carry them.
 *
 * @param table  the table name
 * @param op     what the statement did
 * @param key    the row key
 * @param before the image before ({@code null} for an insert)
 * @param after  the image after ({@code null} for a delete)
 */
public record RowChange(String table, Op op, long key, Map<String, Object> before, Map<String, Object> after) {

    public RowChange {
        before = copy(before);
        after = copy(after);
    }

    /** The kind of statement. */
    public enum Op {
        INSERT, UPDATE, DELETE
    }

    private static Map<String, Object> copy(Map<String, Object> image) {
        return image == null ? null : Collections.unmodifiableMap(new LinkedHashMap<>(image));
    }

    /** Without values (rows may hold personal data in real tables; keep logs free of them). */
    @Override
    public String toString() {
        return op + " " + table + " key " + key;
    }
}
