package io.vstream.connect.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WorkflowsTest {
    @Test
    void findsTheThreeConnectorsOfEachCoordinator() {
        Map<String, Map<String, String>> configs = new LinkedHashMap<>();
        configs.put("cdc", Map.of("connector.class", ConnectorConfig.SOURCE_CLASS, "topic.prefix", "vstream",
                "keyspace", "commerce"));
        configs.put("ddl-src", Map.of("connector.class", ConnectorConfig.SOURCE_CLASS, "topic.prefix", "ddl-orders",
                "keyspace", "commerce"));
        configs.put("ddl-sink", Map.of("connector.class", ConnectorConfig.SINK_CLASS,
                "topics", "ddl-orders.commerce.-80,ddl-orders.commerce.80-"));
        configs.put("orders-ddl", Map.of("connector.class", ConnectorConfig.COORDINATOR_CLASS, "workflow", "online-ddl",
                "applier.stream", "ddl-sink", "status.topic", "st", "shards", "-80=h:1,80-=h:2",
                "handoff.postpone", "true"));
        configs.put("clone", Map.of("connector.class", ConnectorConfig.COORDINATOR_CLASS, "workflow.name", "c1",
                "applier.stream", "nowhere"));
        var all = Workflows.find(configs);
        assertThat(all).hasSize(2);
        Workflows.Info ddl = Workflows.named(all, "orders-ddl").orElseThrow();
        assertThat(ddl).isEqualTo(new Workflows.Info("orders-ddl", "online-ddl", "orders-ddl", "ddl-src", "ddl-sink",
                "st", 2, 100, true, false));
        Workflows.Info clone = Workflows.named(all, "c1").orElseThrow();
        assertThat(clone.type()).isEqualTo("clone");
        assertThat(clone.statusTopic()).isEqualTo("vstream.status");
        assertThat(clone.sink()).isNull();
        assertThat(Workflows.named(all, "clone")).contains(clone);
    }
}
