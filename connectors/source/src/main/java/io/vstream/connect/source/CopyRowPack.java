package io.vstream.connect.source;

import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;

/**
 * The copy rows of one chunk gathered for the next ROWS record ({@code copy.rows.per.record}): at most
 * {@code maxRows} rows and about {@code maxBytes} bytes (each row counted as the lower bound of its values plus its
 * field names and a few bytes of punctuation per field); a single row larger than that still makes a record of its
 * own. Pure logic.
 */
final class CopyRowPack {
    private static final int PER_FIELD = 8;

    private final int maxRows;
    private final long maxBytes;
    private final long perRow;
    private List<Struct> rows = new ArrayList<>();
    private long bytes;

    CopyRowPack(int maxRows, long maxBytes, Schema rowSchema) {
        if (maxRows < 1 || maxBytes < 1) {
            throw new IllegalArgumentException("a pack holds at least one row and one byte");
        }
        this.maxRows = maxRows;
        this.maxBytes = maxBytes;
        long names = 0;
        for (Field f : rowSchema.fields()) {
            names += f.name().length() + PER_FIELD;
        }
        this.perRow = names;
    }

    /** The bytes {@code row} counts for in a pack, from the lower bound of its values. */
    long bytesOf(long valueBytes) {
        return valueBytes + perRow;
    }

    /** Whether a row of {@code rowBytes} ({@link #bytesOf}) may join without passing the bounds; an empty pack takes any. */
    boolean fits(long rowBytes) {
        return rows.isEmpty() || rows.size() < maxRows && bytes + rowBytes <= maxBytes;
    }

    void add(Struct row, long rowBytes) {
        rows.add(row);
        bytes += rowBytes;
    }

    boolean isEmpty() {
        return rows.isEmpty();
    }

    /** The rows gathered, in order; the pack is empty afterwards. */
    List<Struct> drain() {
        List<Struct> out = rows;
        rows = new ArrayList<>(Math.min(maxRows, Math.max(16, out.size())));
        bytes = 0;
        return out;
    }
}
