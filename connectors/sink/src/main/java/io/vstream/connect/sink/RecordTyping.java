package io.vstream.connect.sink;

import io.vstream.connect.core.event.EventHeaders;
import io.vstream.connect.core.event.EventType;
import io.vstream.connect.jdbc.StreamPartition;
import java.sql.Connection;
import java.sql.SQLException;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * Reads one partition's records as the events they are: the event type of the record's header, and its value typed
 * by the row schema in force at its offset ({@link RowSchemas}, for records written without schemas), the schemas
 * that FIELD records announce kept in memory and on the target ({@link RowSchemaStore}) so that a restarted task
 * still types the rows after them. Refuses, naming the record, one that is not of the source's log. Touches the
 * target's {@code row_schemas} table.
 */
final class RecordTyping {
    private final String source; // topic-partition, for messages
    private final RowSchemas rowSchemas = new RowSchemas();
    private final RowSchemaStore store;

    RecordTyping(SinkSettings settings, String topic, int partition) {
        this.source = topic + "-" + partition;
        this.store = new RowSchemaStore(settings.stateDatabase(), new StreamPartition(settings.stream(), topic,
                partition));
    }

    /** Forgets what it knew and reads the schemas the target keeps for this partition. */
    void load(Connection conn) throws SQLException {
        rowSchemas.forget();
        for (RowSchemaStore.Entry e : store.load(conn)) {
            rowSchemas.learn(e.sourceTable(), e.fieldOffset(), e.rowSchemaJson());
        }
    }

    /** The record's event type; a record without one is not of the source's log. */
    EventType typeOf(SinkRecord record) {
        EventType type = EventType.fromHeader(RecordHeaders.header(record, EventHeaders.EVENT));
        if (type == null) {
            throw new ConnectException("Record at " + source + "@" + record.kafkaOffset() + " has no "
                    + EventHeaders.EVENT + " header: this sink applies the logs of the vstream source connector");
        }
        return type;
    }

    /** The record with its value typed ({@link RowSchemas#typed}); every record of the source's log has a value. */
    SinkRecord typed(SinkRecord record, EventType type) {
        SinkRecord typed = rowSchemas.typed(record, type);
        if (!(typed.value() instanceof Struct)) {
            throw new ConnectException("Record at " + source + "@" + typed.kafkaOffset()
                    + " has no value: every record of the source's log has one");
        }
        return typed;
    }

    /** The record with a typed value; a record without an event header as it is. */
    SinkRecord typedIfEvent(SinkRecord record) {
        EventType type = EventType.fromHeader(RecordHeaders.header(record, EventHeaders.EVENT));
        return type == null ? record : rowSchemas.typed(record, type);
    }

    /**
     * Keeps the row schema a FIELD record announces, for the records of its table that come without schemas: in
     * memory, and on the target (through the autocommit connection {@code conn} gives, asked for only then) when it
     * changed.
     */
    void learn(SinkRecord record, Struct field, StoreConnection conn) throws SQLException {
        String json = field.schema().field("row_schema") == null ? null : field.getString("row_schema");
        String table = field.getString("table");
        if (rowSchemas.learn(table, record.kafkaOffset(), json)) {
            store.save(conn.get(), new RowSchemaStore.Entry(table, record.kafkaOffset(), json));
        }
    }

    /** The connection a changed row schema is saved through. */
    interface StoreConnection {
        Connection get() throws SQLException;
    }
}
