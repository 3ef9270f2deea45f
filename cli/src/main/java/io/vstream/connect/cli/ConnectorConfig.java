package io.vstream.connect.cli;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/** One connector of a workflow: its role, its name, and its configuration in the form {@code PUT /connectors/{name}/config} takes. */
public record ConnectorConfig(Role role, String name, Map<String, String> config) {
    public static final String SOURCE_CLASS = "io.vstream.connect.source.VStreamSourceConnector";
    public static final String SINK_CLASS = "io.vstream.connect.sink.VStreamSinkConnector";
    public static final String COORDINATOR_CLASS = "io.vstream.connect.coordinator.VStreamCoordinatorConnector";

    /** The three roles of a workflow's connectors. */
    public enum Role {
        COORDINATOR, SOURCE, SINK;

        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public ConnectorConfig {
        config = Collections.unmodifiableMap(new LinkedHashMap<>(config));
    }

    public String connectorClass() {
        return config.get("connector.class");
    }

    /** The configuration with every literal password replaced by {@code ********} (references such as {@code ${file:...}} stay). */
    public Map<String, String> masked() {
        Map<String, String> out = new LinkedHashMap<>();
        config.forEach((k, v) -> out.put(k, isSecretKey(k) && v != null && !v.isEmpty() && !v.startsWith("${")
                ? "********" : v));
        return out;
    }

    static boolean isSecretKey(String key) {
        return key.endsWith("password");
    }
}
