package io.vstream.connect.transforms.predicates;

import io.vstream.connect.core.Version;
import io.vstream.connect.core.event.EventType;
import io.vstream.connect.transforms.util.VStreamRecords;
import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.connect.components.Versioned;
import org.apache.kafka.connect.connector.ConnectRecord;
import org.apache.kafka.connect.transforms.predicates.Predicate;

/**
 * True for control events: records whose {@code vstream.event} header is present and is not {@code ROW} (FIELD,
 * BEGIN, COMMIT, DDL, VGTID, HEARTBEAT, LASTPK, COPY_COMPLETED, JOURNAL, and any type a later version adds). Records
 * without the header are not ours, so neither this nor {@link IsRowEvent} holds for them. Touches no server.
 */
public class IsControlEvent<R extends ConnectRecord<R>> implements Predicate<R>, Versioned {

    public static final String OVERVIEW_DOC = "True for vstream control events: records whose vstream.event header "
            + "is present and names neither ROW nor ROWS (FIELD, BEGIN, COMMIT, DDL, VGTID, HEARTBEAT, LASTPK, "
            + "COPY_COMPLETED, JOURNAL). False for rows (ROW, and ROWS: copy rows several to a record) and for "
            + "records without the header.";

    public static final ConfigDef CONFIG_DEF = new ConfigDef();

    @Override
    public boolean test(R record) {
        String event = VStreamRecords.eventHeader(record);
        EventType type = EventType.fromHeader(event);
        return event != null && type != EventType.ROW && type != EventType.ROWS;
    }

    @Override
    public ConfigDef config() {
        return CONFIG_DEF;
    }

    @Override
    public void configure(Map<String, ?> configs) {
    }

    @Override
    public String version() {
        return Version.get();
    }

    @Override
    public void close() {
    }

    @Override
    public String toString() {
        return "IsControlEvent";
    }
}
