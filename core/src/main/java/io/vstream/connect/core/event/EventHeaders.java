package io.vstream.connect.core.event;

/** Names of the Kafka record headers that every vstream-connect record carries. */
public final class EventHeaders {
    /** The {@link EventType} of the record. */
    public static final String EVENT = "vstream.event";
    /** The keyspace the record comes from. */
    public static final String KEYSPACE = "vstream.keyspace";
    /** The shard (key range name, e.g. {@code -80}) the record comes from. */
    public static final String SHARD = "vstream.shard";
    /** The table, on ROW, ROWS, FIELD and LASTPK records. */
    public static final String TABLE = "vstream.table";
    /** The shard generation: 0 before any reshard, then the id of the journal that created the shard. */
    public static final String EPOCH = "vstream.epoch";
    /**
     * On a ROW record whose {@code after} image holds a DATE, DATETIME or TIMESTAMP no calendar has (the zero date,
     * a zero month or day): one header per such column, {@code <column>=<the server's text>} (e.g.
     * {@code born=0000-00-00}); the column's value in the image is {@code null}.
     */
    public static final String INVALID_TEMPORAL = "vstream.invalid.temporal";
    /**
     * On a ROW record whose {@code after} image holds an ENUM's invalid-value entry (index 0, stored under a
     * permissive {@code sql_mode}): one header per such column, its name; the column's value in the image is
     * {@code ""}, which a {@code ''} member would also be.
     */
    public static final String INVALID_ENUM = "vstream.invalid.enum";
    /** On a ROWS record: how many rows it carries (so a consumer can count copy rows without decoding the value). */
    public static final String ROWS = "vstream.rows";

    private EventHeaders() {
    }
}
