package io.vstream.connect.sink;

import io.vstream.connect.core.position.OffsetCodec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The copy progress the applier's state row records: the last copied key of each table still being copied (the
 * {@code copy_state} JSON, {@code []} once the copy has completed, null before it started) and the rows copied so
 * far, each chunk counted once (a chunk the source sends again replaces its earlier rows). The rows of the chunk
 * being committed count from the next state row on ({@link #settle}). Touches nothing.
 */
final class CopyProgress {
    private final Map<String, String> tables = new LinkedHashMap<>(); // table -> its one-entry copy state JSON
    private boolean completed;
    private long rowsCopied;
    private long delta; // rows_copied change of the chunk being committed

    /** What the target's state row holds ({@code json} and {@code rows} may be null: nothing copied yet). */
    void load(String json, Long rows) {
        tables.clear();
        completed = false;
        rowsCopied = rows == null ? 0 : rows;
        delta = 0;
        if (json != null && !json.isEmpty()) {
            readSource(json);
        }
    }

    /** Replaces the progress with a copy state JSON (the source's, at a VGTID; {@code []}: the copy completed). */
    void readSource(String json) {
        tables.clear();
        var read = OffsetCodec.copyStateFromJson(json);
        completed = read.isEmpty();
        for (var t : read) {
            tables.put(t.table(), OffsetCodec.copyStateJson(List.of(t)));
        }
    }

    /** A chunk of {@code table} was written: {@code rows} rows replaced {@code replaced} rows of its key range. */
    void copied(int rows, int replaced) {
        // a first copy of the range replaces nothing (the stream skips keys beyond the last copied one); a chunk the
        // source sends again after a restart replaces its own earlier rows, which were counted already
        delta += rows - replaced;
    }

    /** {@code table}'s copy reached {@code lastPkJson}, or completed. */
    void chunkClosed(String table, boolean tableCompleted, String lastPkJson) {
        if (tableCompleted) {
            tables.remove(table);
        } else {
            tables.put(table, lastPkJson);
        }
    }

    /** The whole copy completed (COPY_COMPLETED). */
    void complete() {
        tables.clear();
        completed = true;
    }

    /** The copy state JSON for the state row: null before the copy, {@code []} after it. */
    String json() {
        String copy = completed ? "[]" : null;
        if (!tables.isEmpty()) {
            List<String> parts = new ArrayList<>();
            for (String json : tables.values()) {
                parts.add(json.substring(1, json.length() - 1)); // each is a one-entry JSON array
            }
            copy = "[" + String.join(",", parts) + "]";
        }
        return copy;
    }

    /** The rows copied, counting the chunk being committed. */
    long rowsCopiedWithChunk() {
        return Math.max(0, rowsCopied + delta);
    }

    /** The state row with {@code copied} rows is written: the chunk being committed is counted. */
    void settle(long copied) {
        rowsCopied = copied;
        delta = 0;
    }

    /** The chunk being committed was rolled back. */
    void discardChunk() {
        delta = 0;
    }
}
