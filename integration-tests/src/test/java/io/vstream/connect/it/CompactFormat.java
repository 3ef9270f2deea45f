package io.vstream.connect.it;

import java.util.Map;

/**
 * The workflow streams' compact record format, as config-examples and {@code vsc start} set it on a workflow's source
 * and sink connectors: JSON without schemas (written by our SchemaCachingJsonConverter), read by the sink as the bytes
 * they are (ByteArrayConverter) and typed by their table's FIELD record in one pass (docs/sink.md); or, as a user who
 * keeps JsonConverter on the sink has it, read as maps ({@link #onSinkReadingMaps}).
 */
final class CompactFormat {
    private CompactFormat() {
    }

    /** Rows per copy record of a workflow's source, as config-examples and {@code vsc start} set it. */
    static final String ROWS_PER_RECORD = "500";

    /**
     * A workflow's source {@code config} in the compact format: its converters ({@link #on}) and copy rows several to
     * a record ({@code copy.rows.per.record}, ROWS records).
     */
    static Map<String, String> onSource(Map<String, String> config) {
        config.put("copy.rows.per.record", ROWS_PER_RECORD);
        config.put("key.converter", SOURCE_CONVERTER);
        config.put("key.converter.schemas.enable", "false");
        config.put("value.converter", SOURCE_CONVERTER);
        config.put("value.converter.schemas.enable", "false");
        return config;
    }

    /** The converter config-examples and {@code vsc start} set on a workflow's source: JsonConverter's bytes, faster. */
    static final String SOURCE_CONVERTER = "io.vstream.connect.core.convert.SchemaCachingJsonConverter";

    /**
     * A workflow's sink {@code config} with the compact format's converters, as config-examples and {@code vsc start}
     * set them (on the connector, over the worker's): keys as JSON without schemas, values as their bytes.
     */
    static Map<String, String> on(Map<String, String> config) {
        config.put("key.converter", "org.apache.kafka.connect.json.JsonConverter");
        config.put("key.converter.schemas.enable", "false");
        config.put("value.converter", "org.apache.kafka.connect.converters.ByteArrayConverter");
        config.remove("value.converter.schemas.enable");
        return config;
    }

    /** A sink {@code config} that reads the compact format with JsonConverter (values as maps), as it did before. */
    static Map<String, String> onSinkReadingMaps(Map<String, String> config) {
        config.put("key.converter", "org.apache.kafka.connect.json.JsonConverter");
        config.put("key.converter.schemas.enable", "false");
        config.put("value.converter", "org.apache.kafka.connect.json.JsonConverter");
        config.put("value.converter.schemas.enable", "false");
        return config;
    }
}
