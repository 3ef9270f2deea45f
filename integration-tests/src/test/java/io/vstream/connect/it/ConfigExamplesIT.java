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
            config.put("name", f.getFileName().toString().replace(".json", ""));
            ConfigInfos infos = connect.validate(config.get("connector.class"), config);
            for (ConfigInfo ci : infos.configs()) {
                for (String e : ci.configValue().errors()) {
                    problems.add(f.getFileName() + ": " + ci.configValue().name() + ": " + e);
                }
            }
        }
        assertThat(problems).isEmpty();
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
