package io.vstream.connect.it;

import java.util.Map;

/**
 * The workflow streams' compact record format, as config-examples and {@code vsc start} set it on a workflow's source
 * and sink connectors: JSON without schemas (written by our SchemaCachingJsonConverter, read by JsonConverter), the sink
 * typing rows by their table's FIELD record (docs/sink.md).
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
        on(config);
        config.put("key.converter", SOURCE_CONVERTER);
        config.put("value.converter", SOURCE_CONVERTER);
        return config;
    }

    /** The converter config-examples and {@code vsc start} set on a workflow's source: JsonConverter's bytes, faster. */
    static final String SOURCE_CONVERTER = "io.vstream.connect.core.convert.SchemaCachingJsonConverter";

    /** {@code config} with the compact format's converters (set on the connector, over the worker's). */
    static Map<String, String> on(Map<String, String> config) {
        config.put("key.converter", "org.apache.kafka.connect.json.JsonConverter");
        config.put("key.converter.schemas.enable", "false");
        config.put("value.converter", "org.apache.kafka.connect.json.JsonConverter");
        config.put("value.converter.schemas.enable", "false");
        return config;
    }
}
