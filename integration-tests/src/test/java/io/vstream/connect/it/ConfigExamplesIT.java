package io.vstream.connect.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.vstream.connect.testsupport.connect.ConnectCluster;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.runtime.rest.entities.ConfigInfo;
import org.apache.kafka.connect.runtime.rest.entities.ConfigInfos;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every file in config-examples/ is submitted to a real worker's {@code PUT /connector-plugins/{class}/config/validate}
 * (with our plugins loaded from their archives) and must come back with zero errors. The workers have no
 * FileConfigProvider, so {@code ${file:...}} secrets are replaced by a literal first.
 */
class ConfigExamplesIT {
    static ConnectCluster connect;

    @BeforeAll
    static void startConnect() {
        connect = ConnectCluster.builder().name("examples").workers(1).start();
    }

    @AfterAll
    static void stopConnect() {
        if (connect != null) {
            connect.close();
        }
    }

    @Test
    void everyExampleValidatesWithoutErrors() throws IOException {
        Path dir = Path.of("../config-examples");
        List<Path> files = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, "*.json")) {
            ds.forEach(files::add);
        }
        assertThat(files).as("config examples").hasSizeGreaterThanOrEqualTo(6);
        List<String> problems = new ArrayList<>();
        for (Path f : files) {
            Map<String, String> config = read(f);
            ConfigInfos infos = connect.validate(config.get("connector.class"), config);
            for (ConfigInfo ci : infos.configs()) {
                for (String e : ci.configValue().errors()) {
                    problems.add(f.getFileName() + ": " + ci.configValue().name() + ": " + e);
                }
            }
        }
        assertThat(problems).isEmpty();
    }

    /**
     * The sets deploy side by side on one worker: each file names its connector, the sets' topic prefixes differ, each
     * sink reads topics its own set's source writes, and each coordinator's applier stream and watched connectors are
     * the names its set's files give.
     */
    @Test
    void theWorkflowSetsFitTogether() throws IOException {
        Map<String, Map<String, String>> files = new LinkedHashMap<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(Path.of("../config-examples"), "*.json")) {
            for (Path f : ds) {
                files.put(f.getFileName().toString(), read(f));
            }
        }
        Map<String, String> prefixBySet = new LinkedHashMap<>();
        for (Map.Entry<String, Map<String, String>> e : files.entrySet()) {
            assertThat(e.getValue().get("name")).as("%s names its connector", e.getKey()).isNotBlank();
            String set = e.getKey().substring(0, e.getKey().lastIndexOf('-'));
            String prefix = e.getValue().get("topic.prefix");
            if (prefix != null) {
                assertThat(prefixBySet.values()).as("%s's topic prefix is its own", e.getKey()).doesNotContain(prefix);
                prefixBySet.put(set, prefix);
            }
        }
        assertThat(prefixBySet.keySet()).containsExactlyInAnyOrder("cdc", "clone", "online-ddl", "reshard");
        for (String set : List.of("clone", "online-ddl", "reshard")) {
            Map<String, String> source = files.get(set + "-source.json");
            Map<String, String> sink = files.get(set + "-sink.json");
            Map<String, String> coordinator = files.get(set + "-coordinator.json");
            for (String topic : sink.get("topics").split(",")) {
                assertThat(topic.strip()).as("%s-sink reads its source's topics", set)
                        .startsWith(source.get("topic.prefix") + "." + source.get("keyspace") + ".");
            }
            assertThat(coordinator.get("applier.stream")).as("%s: the applier stream is the sink", set)
                    .isEqualTo(sink.get("name"));
            assertThat(List.of(coordinator.get("watch.connectors").split(",")))
                    .as("%s: the coordinator watches its set", set)
                    .containsExactlyInAnyOrder(source.get("name"), sink.get("name"));
        }
        Map<String, String> ddlSource = files.get("online-ddl-source.json");
        Map<String, String> ddlCoordinator = files.get("online-ddl-coordinator.json");
        assertThat(files.get("online-ddl-sink.json").get("ghost.migration")).as("the sink writes the migration's ghost")
                .isEqualTo(ddlCoordinator.get("ddl.migration"));
        // the copy starts at once, and the source streams from the position it starts from
        assertThat(ddlCoordinator.get("ddl.copy.start")).isEqualTo("at-once");
        assertThat(ddlSource.get("start.mode")).isEqualTo("migration");
        assertThat(ddlSource.get("start.migration")).isEqualTo(ddlCoordinator.get("ddl.migration"));
    }

    private static Map<String, String> read(Path f) throws IOException {
        JsonNode root = new ObjectMapper().readTree(f.toFile());
        Map<String, String> out = new LinkedHashMap<>();
        root.fields().forEachRemaining(e -> {
            String v = e.getValue().asText();
            out.put(e.getKey(), v.startsWith("${file:") ? "example-secret" : v);
        });
        return out;
    }
}
