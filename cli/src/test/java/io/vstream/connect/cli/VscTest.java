package io.vstream.connect.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command layer: argument parsing, exit codes and what each command sends, against a fake REST API. */
class VscTest {
    @TempDir
    Path tmp;

    record Run(int code, String out, String err) {
    }

    static Run vsc(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Vsc.execute(args, new PrintWriter(out), new PrintWriter(err));
        return new Run(code, out.toString(), err.toString());
    }

    String[] onlineDdl(String url, String... more) throws IOException {
        Path pw = tmp.resolve("pw");
        Files.writeString(pw, "s3cret\n");
        List<String> a = new ArrayList<>(List.of("start", "online-ddl", "--connect-url", url, "--name", "orders-amount",
                "--keyspace", "commerce", "--table", "orders", "--alter", "MODIFY amount DECIMAL(14,2) NOT NULL",
                "--shards", "-80=127.0.0.1:3307,80-=127.0.0.1:3308", "--user", "vstream_ddl", "--password-file",
                pw.toString()));
        List<String> extra = List.of(more);
        int i = extra.indexOf("--shards");
        if (i >= 0) {
            a.set(a.indexOf("--shards") + 1, extra.get(i + 1));
            extra = new ArrayList<>(extra);
            extra.remove(i + 1);
            extra.remove(i);
        }
        a.addAll(extra);
        return a.toArray(String[]::new);
    }

    @Test
    void usageErrorsExitTwo() throws IOException {
        assertThat(vsc().code()).isEqualTo(ExitCodes.USAGE);
        assertThat(vsc("start", "online-ddl", "--keyspace", "k").code()).isEqualTo(ExitCodes.USAGE);
        assertThat(vsc("frobnicate").code()).isEqualTo(ExitCodes.USAGE);
        Run bad = vsc(onlineDdl("http://127.0.0.1:1", "--dry-run", "--shards", "-80=nohost"));
        assertThat(bad.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(bad.err()).contains("--shards").contains("<host>:<port>");
        Run noPassword = vsc("start", "online-ddl", "--name", "w", "--keyspace", "k", "--table", "t", "--alter",
                "ADD COLUMN c INT", "--shards", "-=h:1", "--user", "u", "--dry-run");
        assertThat(noPassword.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(noPassword.err()).contains("missing --password-file").contains("Try 'vsc start online-ddl --help'");
        assertThat(vsc("--help").code()).isEqualTo(ExitCodes.OK);
        assertThat(vsc("--help").out()).contains("Exit codes: 0 ok, 1 failure");
    }

    @Test
    void dryRunPrintsTheConfigsWithoutContactingTheCluster() throws IOException {
        Run r = vsc(onlineDdl("http://127.0.0.1:1", "--dry-run", "--json", "--postpone"));
        assertThat(r.code()).as(r.err()).isEqualTo(ExitCodes.OK);
        JsonNode n = ConnectRestClient.JSON.readTree(r.out());
        assertThat(n.get("dry_run").asBoolean()).isTrue();
        assertThat(n.get("connectors")).hasSize(3);
        assertThat(n.get("connectors").get(0).get("config").get("handoff.postpone").asText()).isEqualTo("true");
        assertThat(n.get("connectors").get(0).get("config").get("source.password").asText()).isEqualTo("********");
        assertThat(r.out()).doesNotContain("s3cret");
        Run text = vsc(onlineDdl("http://127.0.0.1:1", "--dry-run"));
        assertThat(text.out()).contains("# coordinator: PUT /connectors/orders-amount/config")
                .contains("# sink: PUT /connectors/orders-amount-sink/config");
    }

    @Test
    void anUnreachableClusterExitsThree() throws IOException {
        Run r = vsc("status", "--connect-url", "http://127.0.0.1:1");
        assertThat(r.code()).isEqualTo(ExitCodes.UNREACHABLE);
        assertThat(r.err()).contains("cannot reach the Connect REST API at http://127.0.0.1:1/");
        assertThat(vsc(onlineDdl("http://127.0.0.1:1")).code()).isEqualTo(ExitCodes.UNREACHABLE);
        assertThat(vsc("postpone", "w", "--connect-url", "http://127.0.0.1:1").code()).isEqualTo(ExitCodes.UNREACHABLE);
    }

    @Test
    void startValidatesEveryConnectorThenDeploysThemInOrder() throws IOException {
        try (FakeConnect connect = new FakeConnect()) {
            Run r = vsc(onlineDdl(connect.url()));
            assertThat(r.code()).as(r.out() + r.err()).isEqualTo(ExitCodes.OK);
            assertThat(connect.requests).filteredOn(s -> s.startsWith("PUT /connectors/")).containsExactly(
                    "PUT /connectors/orders-amount/config", "PUT /connectors/orders-amount-source/config",
                    "PUT /connectors/orders-amount-sink/config");
            assertThat(connect.requests.get(0)).startsWith("PUT /connector-plugins/");
            assertThat(connect.configs.get("orders-amount-sink")).containsEntry("target.password", "s3cret");
            assertThat(r.out()).contains("validate coordinator orders-amount: ok")
                    .contains("vsc status orders-amount --watch");
        }
    }

    @Test
    void startDeploysNothingWhenAConnectorHasErrors() throws IOException {
        try (FakeConnect connect = new FakeConnect()) {
            connect.validationErrors.put("ddl.alter", "the ALTER is not valid");
            Run r = vsc(onlineDdl(connect.url()));
            assertThat(r.code()).isEqualTo(ExitCodes.FAILURE);
            assertThat(r.out()).contains("validate coordinator orders-amount: 1 error(s)")
                    .contains("  ddl.alter: the ALTER is not valid").contains("nothing deployed");
            assertThat(connect.configs).isEmpty();
            Run json = vsc(onlineDdl(connect.url(), "--json"));
            JsonNode n = ConnectRestClient.JSON.readTree(json.out());
            assertThat(n.get("error_count").asInt()).isEqualTo(1);
            assertThat(n.get("connectors").get(0).get("errors").get("ddl.alter").get(0).asText())
                    .isEqualTo("the ALTER is not valid");
        }
    }

    @Test
    void validatePrintsErrorsByField() throws IOException {
        try (FakeConnect connect = new FakeConnect()) {
            Path f = tmp.resolve("sink.json");
            Files.writeString(f, "{\"connector.class\": \"io.vstream.connect.sink.VStreamSinkConnector\", \"mode\": \"bogus\","
                    + " \"tasks.max\": 1}");
            Run ok = vsc("validate", "--connect-url", connect.url(), f.toString());
            assertThat(ok.code()).isEqualTo(ExitCodes.OK);
            assertThat(ok.out()).contains("sink.json: ok");
            connect.validationErrors.put("mode", "Invalid value bogus for configuration mode");
            Run bad = vsc("validate", "--connect-url", connect.url(), "--json", f.toString());
            assertThat(bad.code()).isEqualTo(ExitCodes.FAILURE);
            JsonNode n = ConnectRestClient.JSON.readTree(bad.out());
            assertThat(n.get(0).get("errors").get("mode").get(0).asText()).contains("Invalid value bogus");
            Files.writeString(f, "{\"mode\": \"clone\"}");
            assertThat(vsc("validate", "--connect-url", connect.url(), f.toString()).code()).isEqualTo(ExitCodes.USAGE);
        }
    }

    @Test
    void controlsChangeOneKeyOfTheCoordinator() throws IOException {
        try (FakeConnect connect = new FakeConnect()) {
            connect.configs.put("w", new java.util.LinkedHashMap<>(Map.of("connector.class",
                    ConnectorConfig.COORDINATOR_CLASS, "workflow", "online-ddl", "handoff.postpone", "false",
                    "ddl.alter", "ADD COLUMN c INT")));
            Run p = vsc("postpone", "w", "--connect-url", connect.url());
            assertThat(p.code()).as(p.err()).isEqualTo(ExitCodes.OK);
            assertThat(connect.configs.get("w")).containsEntry("handoff.postpone", "true")
                    .containsEntry("ddl.alter", "ADD COLUMN c INT");
            assertThat(vsc("postpone", "w", "--connect-url", connect.url()).out()).contains("already true");
            assertThat(vsc("cutover", "w", "--connect-url", connect.url()).code()).isZero();
            assertThat(connect.configs.get("w")).containsEntry("handoff.postpone", "false");
            assertThat(vsc("cancel", "w", "--connect-url", connect.url()).code()).isZero();
            assertThat(connect.configs.get("w")).containsEntry("workflow.cancel", "true");
            Run missing = vsc("cancel", "nope", "--connect-url", connect.url());
            assertThat(missing.code()).isEqualTo(ExitCodes.FAILURE);
            assertThat(missing.err()).contains("no workflow nope");
        }
    }

    @Test
    void requestsDuringARebalanceAreRetried() throws IOException {
        try (FakeConnect connect = new FakeConnect()) {
            connect.configs.put("w", new java.util.LinkedHashMap<>(Map.of("connector.class",
                    ConnectorConfig.COORDINATOR_CLASS, "handoff.postpone", "true")));
            connect.rebalancing.set(3);
            Run r = vsc("cutover", "w", "--connect-url", connect.url());
            assertThat(r.code()).as(r.err()).isEqualTo(ExitCodes.OK);
            assertThat(connect.configs.get("w")).containsEntry("handoff.postpone", "false");
            connect.rebalancing.set(1000);
            Run gaveUp = vsc("cutover", "w", "--connect-url", connect.url(), "--timeout-ms", "1000");
            assertThat(gaveUp.code()).isEqualTo(ExitCodes.FAILURE);
            assertThat(gaveUp.err()).contains("HTTP 500: Request cannot be completed because a rebalance is expected");
        }
    }

    @Test
    void statusWithoutWorkflowsSaysSo() throws IOException {
        try (FakeConnect connect = new FakeConnect()) {
            Run r = vsc("status", "--connect-url", connect.url());
            assertThat(r.code()).isZero();
            assertThat(r.out()).contains("no workflows");
            assertThat(vsc("status", "nope", "--connect-url", connect.url()).code()).isEqualTo(ExitCodes.FAILURE);
        }
    }

    @Test
    void statusWithUnreachableKafkaExitsThree() throws IOException {
        try (FakeConnect connect = new FakeConnect()) {
            connect.configs.put("w", Map.of("connector.class", ConnectorConfig.COORDINATOR_CLASS));
            Run r = vsc("status", "--connect-url", connect.url(), "--bootstrap-servers", "127.0.0.1:1",
                    "--timeout-ms", "8000"); // also bounds the local fake REST call: generous for a loaded machine
            assertThat(r.code()).as(r.out() + r.err()).isEqualTo(ExitCodes.UNREACHABLE);
            assertThat(r.err()).contains("Kafka at 127.0.0.1:1 did not answer within 8000 ms")
                    .contains("slow or unreachable").contains("--timeout-ms");
        }
    }

    @Test
    void aConnectUrlThatIsNoUrlIsAUsageError() {
        Run r = vsc("status", "--connect-url", "notaurl");
        assertThat(r.code()).as(r.out() + r.err()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("--connect-url notaurl is not a URL of a Connect REST API")
                .doesNotContain("IllegalArgumentException");
    }

    @Test
    void thePasswordRefHelpShowsTheReferenceForm() {
        Run r = vsc("start", "online-ddl", "--help");
        assertThat(r.out().replaceAll("\\s+", "")).as(r.out())
                .contains("'${file:/etc/kafka-connect/secrets.properties:vstream.password}'");
        assertThat(r.out()).doesNotContain("'null'");
    }
}
