package io.vstream.connect.it;

import java.util.Map;

/**
 * The workflow streams' compact record format, as config-examples and {@code vsc start} set it on a workflow's source
 * and sink connectors: JsonConverter without schemas, the sink typing rows by their table's FIELD record (docs/sink.md).
 */
final class CompactFormat {
    private CompactFormat() {
    }

    /** {@code config} with the compact format's converters (set on the connector, over the worker's). */
    static Map<String, String> on(Map<String, String> config) {
        config.put("key.converter", "org.apache.kafka.connect.json.JsonConverter");
        config.put("key.converter.schemas.enable", "false");
        config.put("value.converter", "org.apache.kafka.connect.json.JsonConverter");
        config.put("value.converter.schemas.enable", "false");
        return config;
    }
}
