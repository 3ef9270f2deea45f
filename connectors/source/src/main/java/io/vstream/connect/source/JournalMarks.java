package io.vstream.connect.source;

import io.vstream.connect.core.reshard.Journal;
import java.util.Map;

/**
 * The marks a shard's stored offset carries once its stream has ended at a reshard journal: the journal (id and
 * text) and whether the shard reached it or was given up (fallback to a copy of the new shards). A shard whose offset
 * is marked is never streamed again; the connector switches to the journal's new shards once every participant it
 * streams is marked.
 */
final class JournalMarks {
    static final String JOURNAL_ID = "journal_id";
    static final String JOURNAL = "journal";
    static final String FALLBACK = "journal_fallback";

    private JournalMarks() {
    }

    static void mark(Map<String, Object> offset, Journal journal, boolean fallback) {
        offset.put(JOURNAL_ID, journal.id());
        offset.put(JOURNAL, journal.toJson());
        if (fallback) {
            offset.put(FALLBACK, "true");
        }
    }

    /** The journal a stored shard offset ends at, or null. */
    static Journal journalOf(Map<String, ?> offset) {
        if (offset == null || !(offset.get(JOURNAL) instanceof String json)) {
            return null;
        }
        return Journal.fromJson(json);
    }

    static boolean fallback(Map<String, ?> offset) {
        return offset != null && "true".equals(String.valueOf(offset.get(FALLBACK)));
    }
}
