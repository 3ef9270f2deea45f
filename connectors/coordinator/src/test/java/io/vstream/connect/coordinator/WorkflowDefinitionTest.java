package io.vstream.connect.coordinator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.errors.ConnectException;
import org.junit.jupiter.api.Test;

class WorkflowDefinitionTest {
    static VStreamCoordinatorConnectorConfig onlineDdl(String alter, String shards) {
        Map<String, String> p = new HashMap<>();
        p.put("workflow", "online-ddl");
        p.put("applier.stream", "orders-sink");
        p.put("shards", shards);
        p.put("source.user", "vstream_ddl");
        p.put("ddl.database", "commerce");
        p.put("ddl.table", "orders");
        p.put("ddl.alter", alter);
        return new VStreamCoordinatorConnectorConfig(p);
    }

    @Test
    void aDifferentAlterUnderAStoredNameIsRefusedNamingBothAndTheFix() {
        String stored = WorkflowDefinition.of(onlineDdl("ADD COLUMN a INT", "-80=h1:3306,80-=h2:3306"));
        String now = WorkflowDefinition.of(onlineDdl("DROP COLUMN b", "-80=h1:3306,80-=h2:3306"));
        Map<String, Object> offset = new HashMap<>(Map.of("state", "COMPLETE", "definition", stored));
        assertThatThrownBy(() -> WorkflowDefinition.check(offset, now, "orders-x", "orders-x"))
                .isInstanceOf(ConnectException.class)
                .hasMessageContaining("ddl.alter=ADD COLUMN a INT").hasMessageContaining("ddl.alter=DROP COLUMN b")
                .hasMessageContaining("COMPLETE").hasMessageContaining("DELETE /connectors/orders-x/offsets")
                .hasMessageContaining("new name");
    }

    @Test
    void theSameWorkflowResumesAlsoWhenAServerMovedOrTheStateIsFromAnOlderVersion() {
        String stored = WorkflowDefinition.of(onlineDdl("ADD COLUMN a INT", "-80=h1:3306,80-=h2:3306"));
        String moved = WorkflowDefinition.of(onlineDdl(" ADD COLUMN a INT ", "-80=h9:3307,80-=h2:3306"));
        assertThat(moved).isEqualTo(stored);
        WorkflowDefinition.check(new HashMap<>(Map.of("state", "COPYING", "definition", stored)), moved, "w", "w");
        WorkflowDefinition.check(new HashMap<>(Map.of("state", "COPYING")), moved, "w", "w");
        WorkflowDefinition.check(null, moved, "w", "w");
        assertThat(WorkflowDefinition.shardNames(List.of("-80=h:1", " 80-=h:2"))).containsExactly("-80", "80-");
    }
}
