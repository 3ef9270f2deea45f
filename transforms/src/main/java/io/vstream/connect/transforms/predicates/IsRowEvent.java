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
 * True for row changes: records whose {@code vstream.event} header is {@code ROW}. Reads only the header, so it also
 * holds for a row's tombstone and after ExtractNewRow. Touches no server.
 */
public class IsRowEvent<R extends ConnectRecord<R>> implements Predicate<R>, Versioned {

    public static final String OVERVIEW_DOC = "True for vstream row changes: records whose vstream.event header is "
            + "ROW (also a row's tombstone, and rows already unwrapped). False for control events and for records "
            + "without the header.";

    public static final ConfigDef CONFIG_DEF = new ConfigDef();

    @Override
    public boolean test(R record) {
        return VStreamRecords.eventType(record) == EventType.ROW;
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
        return "IsRowEvent";
    }
}
