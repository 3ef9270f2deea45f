package io.vstream.connect.transforms;

import io.vstream.connect.core.Version;
import io.vstream.connect.core.event.EventHeaders;
import io.vstream.connect.core.event.TopicNames;
import io.vstream.connect.transforms.util.EnumChoice;
import io.vstream.connect.transforms.util.VStreamRecords;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.connect.components.Versioned;
import org.apache.kafka.connect.connector.ConnectRecord;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.transforms.Transformation;

/**
 * Routes ROW records from a shard's log ({@code <prefix>.<keyspace>.<shard>}) to one topic per table
 * ({@code topic.format}, default {@code ${prefix}.${keyspace}.${table}}), keeping the key (the primary key) and
 * clearing the partition so that the producer partitions by key. Keyspace, shard and table come from the record's
 * {@code vstream.*} headers, else from the envelope's {@code source} block. Control events are dropped or passed
 * unchanged; records that are not ours pass unchanged. Pure record work: touches no server.
 */
public class ShardToTableRouter<R extends ConnectRecord<R>> implements Transformation<R>, Versioned {

    public static final String OVERVIEW_DOC = "Routes vstream ROW records from the per-shard topics to one topic per "
            + "table, named by <code>topic.format</code> (default <code>${prefix}.${keyspace}.${table}</code>). The "
            + "key (the row's primary key) is kept and the partition is left to the producer, which partitions by "
            + "key, so each row's changes stay in order. Control events are dropped or passed unchanged "
            + "(<code>control.events</code>); other records pass unchanged. Values are not read unless a header is "
            + "missing, so it works before or after ExtractNewRow and on values with or without a schema; a "
            + "tombstone keyed by a row is routed by its headers like its row.";

    public static final String TOPIC_FORMAT_CONFIG = "topic.format";
    public static final String TOPIC_PREFIX_CONFIG = "topic.prefix";
    public static final String CONTROL_EVENTS_CONFIG = "control.events";

    public static final String DEFAULT_TOPIC_FORMAT = "${prefix}.${keyspace}.${table}";

    static final String PREFIX = "prefix";
    static final String KEYSPACE = "keyspace";
    static final String SHARD = "shard";
    static final String TABLE = "table";
    static final String TOPIC = "topic";
    static final Set<String> VARIABLES = Set.of(PREFIX, KEYSPACE, SHARD, TABLE, TOPIC);

    private static final Pattern VARIABLE = Pattern.compile("\\$\\{([^}]*)}");
    private static final String GROUP = "Routing";
    private static final EnumChoice<ControlEventHandling> CONTROL_EVENTS = EnumChoice.of(ControlEventHandling.class);

    public static final ConfigDef CONFIG_DEF = new ConfigDef()
            .define(TOPIC_FORMAT_CONFIG, ConfigDef.Type.STRING, DEFAULT_TOPIC_FORMAT, new TopicFormatValidator(),
                    ConfigDef.Importance.HIGH, "The topic of a row, with variables ${prefix} (topic.prefix), "
                            + "${keyspace}, ${table}, ${shard} and ${topic} (the shard topic the record was on). "
                            + "Keyspace, table and shard come from the vstream.keyspace, vstream.table and "
                            + "vstream.shard headers, else from the envelope's source block. Characters Kafka does "
                            + "not allow in topic names (anything but letters, digits, '.', '_' and '-') become '_'. "
                            + "Omit ${shard} to merge the shards of a table into one topic.",
                    GROUP, 1, ConfigDef.Width.LONG, "Topic format")
            .define(TOPIC_PREFIX_CONFIG, ConfigDef.Type.STRING, null, ConfigDef.Importance.MEDIUM,
                    "The value of ${prefix}. Unset (the default), it is the source connector's topic.prefix as the "
                            + "shard topic shows it: the topic name without its trailing .<keyspace>.<shard>.",
                    GROUP, 2, ConfigDef.Width.MEDIUM, "Topic prefix")
            .define(CONTROL_EVENTS_CONFIG, ConfigDef.Type.STRING, EnumChoice.name(ControlEventHandling.DROP),
                    CONTROL_EVENTS, ConfigDef.Importance.MEDIUM, ControlEventHandling.settingDoc("(passed "
                            + "control events stay on their shard topic)"), GROUP, 3, ConfigDef.Width.SHORT,
                    "Control events");

    private List<Object> format; // literal Strings and Variable names, in order
    private String prefix;
    private ControlEventHandling controlEvents;

    @Override
    public void configure(Map<String, ?> props) {
        AbstractConfig config = new AbstractConfig(CONFIG_DEF, props, false);
        format = parseFormat(config.getString(TOPIC_FORMAT_CONFIG));
        prefix = config.getString(TOPIC_PREFIX_CONFIG);
        controlEvents = CONTROL_EVENTS.parse(CONTROL_EVENTS_CONFIG, config.getString(CONTROL_EVENTS_CONFIG));
    }

    @Override
    public R apply(R record) {
        switch (VStreamRecords.kind(record)) {
            case OTHER:
                return record;
            case CONTROL:
                return controlEvents == ControlEventHandling.PASS ? record : null;
            default:
                break;
        }
        String topic = topicOf(record);
        // a source record leaves the table topic's partition to the producer; a sink record keeps the one it was read
        // from (a sink record cannot be without one)
        Integer partition = record instanceof org.apache.kafka.connect.sink.SinkRecord ? record.kafkaPartition() : null;
        return record.newRecord(topic, partition, record.keySchema(), record.key(), record.valueSchema(), record.value(),
                record.timestamp(), record.headers());
    }

    /** The table topic of a ROW record. */
    String topicOf(ConnectRecord<?> record) {
        StringBuilder topic = new StringBuilder(64);
        for (Object part : format) {
            if (part instanceof Variable v) {
                switch (v.name()) {
                    case PREFIX -> topic.append(prefix != null ? prefix : derivedPrefix(record));
                    case KEYSPACE -> topic.append(required(record, EventHeaders.KEYSPACE, KEYSPACE));
                    case SHARD -> topic.append(required(record, EventHeaders.SHARD, SHARD));
                    case TABLE -> topic.append(required(record, EventHeaders.TABLE, TABLE));
                    case TOPIC -> topic.append(record.topic());
                    default -> throw new IllegalStateException(v.name());
                }
            } else {
                topic.append((String) part);
            }
        }
        return TopicNames.sanitize(topic.toString());
    }

    /** The shard topic without its trailing {@code .<keyspace>.<shard>}: the source connector's topic prefix. */
    private static String derivedPrefix(ConnectRecord<?> record) {
        String suffix = "." + TopicNames.sanitize(required(record, EventHeaders.KEYSPACE, KEYSPACE)) + "."
                + TopicNames.sanitize(required(record, EventHeaders.SHARD, SHARD));
        String topic = record.topic();
        if (topic == null || !topic.endsWith(suffix) || topic.length() == suffix.length()) {
            throw new DataException("ShardToTableRouter derives ${prefix} from the shard topic <prefix>" + suffix
                    + ", but the " + VStreamRecords.describe(record) + " is not on such a topic (was it routed "
                    + "already?); set " + TOPIC_PREFIX_CONFIG + " to the source connector's topic.prefix");
        }
        return topic.substring(0, topic.length() - suffix.length());
    }

    private static String required(ConnectRecord<?> record, String header, String sourceField) {
        String v = VStreamRecords.headerOrSource(record, header, sourceField);
        if (v == null || v.isEmpty()) {
            throw new DataException("ShardToTableRouter cannot name the topic of the ROW " + VStreamRecords.describe(
                    record) + ": it has no " + header + " header and no source." + sourceField + " in its value; "
                    + "was the header dropped by an earlier transform?");
        }
        return v;
    }

    /** The format as literal strings and variables; an unknown variable is a configuration error. */
    static List<Object> parseFormat(String format) {
        List<Object> parts = new ArrayList<>();
        Matcher m = VARIABLE.matcher(format);
        int last = 0;
        while (m.find()) {
            if (m.start() > last) {
                parts.add(format.substring(last, m.start()));
            }
            String name = m.group(1).strip();
            if (!VARIABLES.contains(name)) {
                throw new ConfigException(TOPIC_FORMAT_CONFIG, format, "${" + m.group(1) + "} is not a variable; "
                        + "use ${prefix}, ${keyspace}, ${table}, ${shard} or ${topic}");
            }
            parts.add(new Variable(name));
            last = m.end();
        }
        if (last < format.length()) {
            parts.add(format.substring(last));
        }
        if (parts.stream().noneMatch(p -> p instanceof Variable v && v.name().equals(TABLE))) {
            throw new ConfigException(TOPIC_FORMAT_CONFIG, format, "must contain ${table}, or the rows of several "
                    + "tables would share a topic");
        }
        return List.copyOf(parts);
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

    private record Variable(String name) {
    }

    /** Checks that the format uses only known variables and names the table. */
    static final class TopicFormatValidator implements ConfigDef.Validator {
        @Override
        public void ensureValid(String name, Object value) {
            if (value == null || value.toString().isBlank()) {
                throw new ConfigException(name, value, "must not be empty; e.g. " + DEFAULT_TOPIC_FORMAT);
            }
            parseFormat(value.toString());
        }

        @Override
        public String toString() {
            return "text with ${table} and any of ${prefix}, ${keyspace}, ${shard}, ${topic}";
        }
    }
}
