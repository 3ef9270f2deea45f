package io.vstream.connect.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.vstream.connect.cli.ConnectorConfig.Role;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class WorkflowConfigsTest {
    static final Path EXAMPLES = Path.of("../config-examples");

    static Set<String> exampleKeys(String file) throws IOException {
        JsonNode n = ConnectRestClient.JSON.readTree(EXAMPLES.resolve(file).toFile());
        Set<String> keys = new TreeSet<>();
        n.fieldNames().forEachRemaining(keys::add);
        keys.remove("name"); // the examples name their connector; vsc puts the name in the URL
        return keys;
    }

    static WorkflowConfigs.OnlineDdl onlineDdl(Map<Role, Map<String, String>> overrides) {
        return new WorkflowConfigs.OnlineDdl(new WorkflowConfigs.Common("orders-amount", "vstream.status", null, "3",
                overrides, "http://localhost:8083"), "commerce", null, "orders", "MODIFY amount DECIMAL(14,2) NOT NULL",
                Endpoints.shards("--shards", "-80=127.0.0.1:3307,80-=127.0.0.1:3308"), "vstream_ddl", "s3cret", true,
                "all-at-once", 3000, 200, 0);
    }

    @Test
    void onlineDdlHasExactlyTheKeysOfTheExamples() throws IOException {
        List<ConnectorConfig> cs = WorkflowConfigs.onlineDdl(onlineDdl(Map.of()));
        assertThat(cs).extracting(ConnectorConfig::role).containsExactly(Role.COORDINATOR, Role.SOURCE, Role.SINK);
        assertThat(cs).extracting(ConnectorConfig::name)
                .containsExactly("orders-amount", "orders-amount-source", "orders-amount-sink");
        assertThat(new TreeSet<>(cs.get(0).config().keySet())).isEqualTo(exampleKeys("online-ddl-coordinator.json"));
        assertThat(new TreeSet<>(cs.get(1).config().keySet())).isEqualTo(exampleKeys("online-ddl-source.json"));
        assertThat(new TreeSet<>(cs.get(2).config().keySet())).isEqualTo(exampleKeys("online-ddl-sink.json"));
    }

    @Test
    void onlineDdlWiresTheThreeConnectorsTogether() {
        List<ConnectorConfig> cs = WorkflowConfigs.onlineDdl(onlineDdl(Map.of()));
        Map<String, String> coord = cs.get(0).config();
        Map<String, String> source = cs.get(1).config();
        Map<String, String> sink = cs.get(2).config();
        assertThat(coord).containsEntry("workflow", "online-ddl").containsEntry("ddl.migration", "orders-amount")
                .containsEntry("applier.stream", "orders-amount-sink").containsEntry("handoff.postpone", "true")
                .containsEntry("ddl.database", "commerce").containsEntry("ddl.table", "orders")
                .containsEntry("shards", "-80=127.0.0.1:3307,80-=127.0.0.1:3308")
                .containsEntry("ddl.copy.start", "at-once");
        assertThat(source).containsEntry("start.mode", "migration").containsEntry("start.migration", "orders-amount")
                .containsEntry("table.include.list", "orders")
                .containsEntry("tasks.max", "2").containsEntry("topic.prefix", "orders-amount")
                .containsEntry("topology", coord.get("shards")).containsEntry("heartbeat.interval.ms", "200");
        assertThat(sink).containsEntry("mode", "ghost").containsEntry("ghost.migration", "orders-amount")
                .containsEntry("topics", "orders-amount.commerce.-80,orders-amount.commerce.80-")
                .containsEntry("target.topology", coord.get("shards"));
    }

    @Test
    void reshardHasExactlyTheKeysOfTheExamplesAndWiresThemTogether() throws IOException {
        List<ConnectorConfig> cs = WorkflowConfigs.reshard(new WorkflowConfigs.Reshard(new WorkflowConfigs.Common(
                "reshard-commerce", "vstream.status", "vstream", "3", Map.of(), "http://localhost:8083"), "commerce", null,
                Endpoints.shards("--from", "-=127.0.0.1:3310"),
                Endpoints.shards("--to", "-80=127.0.0.1:3311,80-=127.0.0.1:3312"), "hash",
                "customer:customer_id,corder:customer_id", "id", "vstream_reshard", "s", false));
        assertThat(new TreeSet<>(cs.get(0).config().keySet())).isEqualTo(exampleKeys("reshard-coordinator.json"));
        assertThat(new TreeSet<>(cs.get(1).config().keySet())).isEqualTo(exampleKeys("reshard-source.json"));
        assertThat(new TreeSet<>(cs.get(2).config().keySet())).isEqualTo(exampleKeys("reshard-sink.json"));
        assertThat(cs.get(0).config()).containsEntry("applier.stream", "reshard-commerce-sink")
                .containsEntry("shards", "-=127.0.0.1:3310")
                .containsEntry("reshard.target.shards", "-80=127.0.0.1:3311,80-=127.0.0.1:3312");
        assertThat(cs.get(2).config()).containsEntry("topics", "vstream.commerce.-").containsEntry("mode", "reshard")
                .containsEntry("target.topology", cs.get(0).config().get("reshard.target.shards"))
                .containsEntry("reshard.columns", cs.get(0).config().get("reshard.columns"));
    }

    @Test
    void cloneHasExactlyTheKeysOfTheExamples() throws IOException {
        List<ConnectorConfig> cs = WorkflowConfigs.clone(new WorkflowConfigs.Clone(new WorkflowConfigs.Common(
                "commerce-80-clone", "vstream.status", "clone-80", "3", Map.of(), "http://localhost:8083"), "commerce", null,
                Endpoints.hostPort("--source", "127.0.0.1:3308"), Endpoints.hostPort("--target", "127.0.0.1:3309"),
                null, "vstream", "a", "vstream_applier", "b", "vstream_admin", "c", "repl", "d",
                "InnoDB", false));
        assertThat(new TreeSet<>(cs.get(0).config().keySet())).isEqualTo(exampleKeys("clone-coordinator.json"));
        assertThat(new TreeSet<>(cs.get(1).config().keySet())).isEqualTo(exampleKeys("clone-source.json"));
        assertThat(new TreeSet<>(cs.get(2).config().keySet())).isEqualTo(exampleKeys("clone-sink.json"));
        assertThat(cs.get(1).config()).containsEntry("start.mode", "copy").containsEntry("topology", "-=127.0.0.1:3308");
        assertThat(cs.get(2).config()).containsEntry("topics", "clone-80.commerce.-")
                .containsEntry("target.user", "vstream_applier").containsEntry("target.password", "b");
        assertThat(cs.get(0).config()).containsEntry("applier.stream", "commerce-80-clone-sink")
                .containsEntry("target.user", "vstream_admin").containsEntry("source.port", "3308")
                .containsEntry("replication.password", "d");
    }

    @Test
    void theApplierDefaultsToTheTargetUser() {
        List<ConnectorConfig> cs = WorkflowConfigs.clone(new WorkflowConfigs.Clone(new WorkflowConfigs.Common(
                "c", "s", null, "1", Map.of(), "http://localhost:8083"), "ks", "db", Endpoints.hostPort("--source", "h:1"),
                Endpoints.hostPort("--target", "h:2"), null, "u", "p", null, null, "admin", "ap", "repl", "rp",
                "Aria", true));
        assertThat(cs.get(2).config()).containsEntry("target.user", "admin").containsEntry("target.password", "ap")
                .containsEntry("table.engine", "Aria");
        assertThat(cs.get(1).config()).doesNotContainKey("table.include.list").containsEntry("database", "db");
    }

    @Test
    void theTlsOptionsReachEveryConnectionsKeysAndSetStillWins() {
        List<ConnectorConfig> cs = WorkflowConfigs.clone(new WorkflowConfigs.Clone(new WorkflowConfigs.Common(
                "c", "s", null, "1", WorkflowConfigs.overrides(List.of("sink:target.ssl.mode=verify-ca")),
                "http://localhost:8083", new WorkflowConfigs.Tls("verify-full", "/etc/vstream/ca.pem")), "ks", "db",
                Endpoints.hostPort("--source", "h:1"), Endpoints.hostPort("--target", "h:2"), null, "u", "p", null,
                null, "admin", "ap", "repl", "rp", null, true));
        assertThat(cs.get(0).config()).containsEntry("source.ssl.mode", "verify-full")
                .containsEntry("source.ssl.ca", "/etc/vstream/ca.pem").containsEntry("target.ssl.mode", "verify-full");
        assertThat(cs.get(1).config()).containsEntry("ssl.mode", "verify-full")
                .containsEntry("ssl.ca", "/etc/vstream/ca.pem");
        assertThat(cs.get(2).config()).containsEntry("target.ssl.mode", "verify-ca")
                .containsEntry("target.ssl.ca", "/etc/vstream/ca.pem");
        List<ConnectorConfig> plain = WorkflowConfigs.onlineDdl(onlineDdl(Map.of()));
        assertThat(plain).allSatisfy(c -> assertThat(c.config().keySet()).noneMatch(k -> k.contains("ssl.")));
    }

    @Test
    void overridesGoToTheirRoleOnly() {
        var o = WorkflowConfigs.overrides(List.of("coordinator:poll.interval.ms=300", "sink:retry.backoff.max.ms=2000",
                "source:table.include.list=orders|items"));
        List<ConnectorConfig> cs = WorkflowConfigs.onlineDdl(onlineDdl(o));
        assertThat(cs.get(0).config()).containsEntry("poll.interval.ms", "300").doesNotContainKey("retry.backoff.max.ms");
        assertThat(cs.get(1).config()).containsEntry("table.include.list", "orders|items");
        assertThat(cs.get(2).config()).containsEntry("retry.backoff.max.ms", "2000");
        assertThatThrownBy(() -> WorkflowConfigs.overrides(List.of("poll.interval.ms=3")))
                .isInstanceOf(CliException.class).hasMessageContaining("<source|sink|coordinator>:<key>=<value>");
        assertThatThrownBy(() -> WorkflowConfigs.overrides(List.of("worker:a=b")))
                .hasMessageContaining("source, sink or coordinator");
    }

    @Test
    void maskedHidesLiteralPasswordsButNotReferences() {
        ConnectorConfig c = new ConnectorConfig(Role.SINK, "s", Map.of("target.password", "s3cret",
                "password", "${file:/etc/x.properties:k}", "user", "u"));
        assertThat(c.masked()).containsEntry("target.password", "********")
                .containsEntry("password", "${file:/etc/x.properties:k}").containsEntry("user", "u");
        List<String> values = new ArrayList<>(c.masked().values());
        assertThat(values).doesNotContain("s3cret");
    }
}
