package io.vstream.connect.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigValue;
import org.junit.jupiter.api.Test;

/**
 * The connector's {@code validate}: the keys each workflow needs, with the workflow read as the task reads it
 * ({@link WorkflowType#named}: blanks around it and its case do not matter).
 */
class VStreamCoordinatorConnectorTest {
    private static final Map<String, String> RESHARD = Map.of("shards", "-=old:3306", "reshard.keyspace", "commerce",
            "reshard.database", "commerce", "reshard.target.shards", "-80=new1:3306,80-=new2:3306");
    private static final Map<String, String> CLONE = Map.of("source.host", "source", "target.host", "target",
            "target.user", "vsc", "replication.user", "repl");

    /** The errors {@code validate} reports, per field, on {@code props} with the keys every workflow needs. */
    private static Map<String, List<String>> errors(String workflow, Map<String, String> props) {
        Map<String, String> p = new HashMap<>(Map.of("applier.stream", "w", "source.user", "vsc"));
        p.putAll(props);
        if (workflow != null) {
            p.put("workflow", workflow);
        }
        Map<String, List<String>> out = new HashMap<>();
        for (ConfigValue v : new VStreamCoordinatorConnector().validate(p).configValues()) {
            if (!v.errorMessages().isEmpty()) {
                out.put(v.name(), v.errorMessages());
            }
        }
        return out;
    }

    @Test
    void theWorkflowIsReadAsTheTaskReadsItWhateverItsCaseAndTheBlanksAroundIt() {
        for (String value : List.of("reshard", "Reshard", " RESHARD ", "reshard\t")) {
            assertThat(errors(value, RESHARD)).as("'%s'", value).isEmpty();
            Map<String, String> p = new HashMap<>(RESHARD);
            p.putAll(Map.of("workflow", value, "applier.stream", "w", "source.user", "vsc"));
            assertThat(new VStreamCoordinatorConnectorConfig(p).workflowType()).isEqualTo(WorkflowType.RESHARD);
        }
    }

    @Test
    void eachWorkflowNeedsItsOwnKeysNamedOnTheirFields() {
        Map<String, List<String>> e = errors(" Online-DDL", Map.of("shards", "-=db1:3306"));
        assertThat(e).containsOnlyKeys("ddl.database", "ddl.table", "ddl.alter");
        assertThat(e.get("ddl.table")).containsExactly("The online-ddl workflow needs ddl.table");
        assertThat(errors("reshard", CLONE)).containsKeys("shards", "reshard.target.shards")
                .doesNotContainKeys("source.host");
        assertThat(errors(null, Map.of())).as("clone by default")
                .containsOnlyKeys("source.host", "target.host", "target.user", "replication.user");
        assertThat(errors(null, CLONE)).isEmpty();
    }

    @Test
    void theShardsMustCoverTheKeySpaceAsTheWorkflowNeeds() {
        Map<String, String> half = Map.of("shards", "-80=db1:3306", "ddl.database", "shop", "ddl.table", "orders",
                "ddl.alter", "ADD COLUMN note TEXT");
        assertThat(errors("ONLINE-DDL", half)).containsOnlyKeys("shards");
        Map<String, String> reshard = new HashMap<>(RESHARD);
        reshard.put("reshard.target.shards", "-80=new1:3306");
        assertThat(errors("Reshard", reshard).get("reshard.target.shards")).anyMatch(m -> m.contains("cover"));
    }

    @Test
    void aCopyThatStartsAtOnceIsTheServerCopysAndOnlyThenStartsAtOnce() {
        Map<String, String> ddl = new HashMap<>(Map.of("shards", "-=db1:3306", "ddl.database", "shop", "ddl.table",
                "orders", "ddl.alter", "ADD COLUMN note TEXT", "ddl.copy.start", "AT-ONCE"));
        assertThat(errors("online-ddl", ddl)).isEmpty();
        ddl.put("ddl.copy.method", "stream");
        Map<String, List<String>> e = errors("online-ddl", ddl);
        assertThat(e).containsOnlyKeys("ddl.copy.start");
        assertThat(e.get("ddl.copy.start").get(0)).contains("ddl.copy.method=stream");
        ddl.putAll(Map.of("workflow", "online-ddl", "source.user", "vsc", "applier.stream", "w"));
        assertThat(new VStreamCoordinatorConnectorConfig(ddl).copyStartsAtOnce()).isFalse();
        ddl.put("ddl.copy.method", "server");
        assertThat(new VStreamCoordinatorConnectorConfig(ddl).copyStartsAtOnce()).isTrue();
        ddl.remove("ddl.copy.start");
        assertThat(new VStreamCoordinatorConnectorConfig(ddl).copyStartsAtOnce()).as("after-applier by default")
                .isFalse();
    }

    @Test
    void aValueThatNamesNoWorkflowIsRefusedOnItsFieldAlone() {
        Map<String, List<String>> e = errors("split", Map.of());
        assertThat(e).containsOnlyKeys("workflow");
        assertThat(e.get("workflow").get(0)).startsWith("Invalid value split for configuration workflow");
    }
}
