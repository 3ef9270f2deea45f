package io.vstream.connect.core.event;

import java.util.Locale;

/**
 * The VStream event vocabulary: every record on a shard's log is one of these, named in the {@link EventHeaders#EVENT}
 * header so that consumers, SMTs and predicates can tell them apart without decoding the value.
 */
public enum EventType {
    /** A table's columns (names, MySQL types, Connect types, primary key); sent before its first row and after a DDL. */
    FIELD,
    /** A row change (Debezium envelope: before/after/source/op); copy rows carry only {@code after} and op {@code r}. */
    ROW,
    /** The start of a source transaction that emitted at least one event. */
    BEGIN,
    /** The end of a source transaction; carries the shard's position after it (a resume point). */
    COMMIT,
    /** A schema change as the source ran it. */
    DDL,
    /** A position marker: the shard's position (and copy state) at this point of the log. */
    VGTID,
    /** Emitted while the filtered tables are idle, with the current position, so consumers can prove progress. */
    HEARTBEAT,
    /** Copy progress: the last primary key copied of a table. */
    LASTPK,
    /** The copy phase of a shard (table = null) or of the whole stream (shard = null) has completed. */
    COPY_COMPLETED,
    /** A reshard switch: the participants' final positions and the new shards' start positions. */
    JOURNAL,
    /**
     * Copy rows of one table in one record ({@code copy.rows.per.record} > 1): the {@code after} images of consecutive
     * rows of one chunk, in key order ({@link CopyRows}); to a consumer, as many ROW records with op {@code r}.
     */
    ROWS;

    private static final EventType[] VALUES = values();

    /** The header value, e.g. {@code "ROW"}. */
    public String headerValue() {
        return name();
    }

    /** Parses a header value case-insensitively; {@code null} when it names no event type. */
    public static EventType fromHeader(String value) {
        if (value == null) {
            return null;
        }
        for (EventType t : VALUES) {
            if (t.name().equals(value)) {
                return t; // the source's own spelling: no copy of the text
            }
        }
        try {
            return valueOf(value.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
