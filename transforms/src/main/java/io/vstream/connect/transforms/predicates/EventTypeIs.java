package io.vstream.connect.transforms.predicates;

import io.vstream.connect.core.Version;
import io.vstream.connect.core.event.EventType;
import io.vstream.connect.transforms.util.VStreamRecords;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.connect.components.Versioned;
import org.apache.kafka.connect.connector.ConnectRecord;
import org.apache.kafka.connect.transforms.predicates.Predicate;

/**
 * True for records whose {@code vstream.event} header names one of the configured event types ({@code types}), e.g.
 * {@code HEARTBEAT} to filter heartbeats out, or {@code BEGIN,COMMIT} to keep transaction boundaries. Touches no
 * server.
 */
public class EventTypeIs<R extends ConnectRecord<R>> implements Predicate<R>, Versioned {

    public static final String OVERVIEW_DOC = "True for records whose vstream.event header names one of the event "
            + "types in <code>types</code>. False for other types and for records without the header.";

    public static final String TYPES_CONFIG = "types";

    public static final ConfigDef CONFIG_DEF = new ConfigDef()
            .define(TYPES_CONFIG, ConfigDef.Type.LIST, ConfigDef.NO_DEFAULT_VALUE, new TypesValidator(),
                    ConfigDef.Importance.HIGH, "The event types to match, comma-separated, in any case: "
                            + names() + ".", "Event types", 1, ConfigDef.Width.MEDIUM, "Event types");

    private Set<EventType> types;

    @Override
    public void configure(Map<String, ?> props) {
        AbstractConfig config = new AbstractConfig(CONFIG_DEF, props, false);
        types = parse(config.getList(TYPES_CONFIG));
    }

    @Override
    public boolean test(R record) {
        EventType type = VStreamRecords.eventType(record);
        return type != null && types.contains(type);
    }

    static Set<EventType> parse(List<String> names) {
        if (names == null || names.isEmpty()) {
            throw new ConfigException(TYPES_CONFIG, names, "names no event type; give one or more of " + names());
        }
        EnumSet<EventType> set = EnumSet.noneOf(EventType.class);
        for (String name : names) {
            EventType type = EventType.fromHeader(name);
            if (type == null) {
                throw new ConfigException(TYPES_CONFIG, names, "'" + name + "' is not an event type; valid types are "
                        + names());
            }
            set.add(type);
        }
        return set;
    }

    private static String names() {
        return Arrays.stream(EventType.values()).map(EventType::headerValue).collect(Collectors.joining(", "));
    }

    @Override
    public ConfigDef config() {
        return CONFIG_DEF;
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
        return "EventTypeIs" + types;
    }

    static final class TypesValidator implements ConfigDef.Validator {
        @Override
        @SuppressWarnings("unchecked")
        public void ensureValid(String name, Object value) {
            parse((List<String>) value);
        }

        @Override
        public String toString() {
            return "one or more of " + names();
        }
    }
}
