package io.vstream.connect.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.vstream.connect.cli.ExitCodes;
import io.vstream.connect.cli.Vsc;
import io.vstream.connect.local.load.LoadStats;
import io.vstream.connect.local.load.LoadTable;
import io.vstream.connect.local.load.Target;
import io.vstream.connect.local.load.WriteLoad;
import io.vstream.connect.testsupport.connect.ConnectCluster;
import io.vstream.connect.testsupport.db.MariaDbServer;
import io.vstream.connect.testsupport.db.MariaDbShards;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The operator CLI against a real cluster: {@code vsc validate} on every config example (zero errors) and on a broken
 * file (the field named); an online ALTER on two real shards started by {@code vsc start online-ddl}, postponed with
 * {@code vsc postpone}, followed with {@code vsc status --json} through its states, released with
 * {@code vsc cutover} and complete under a write load (every acknowledged write is in the new table), while {@code vsc status --watch} records it (target/cli-docs/, the source of
 * docs/cli.md's recording). vsc runs in-process through its main entry ({@link Vsc#execute}).
 */
class CliIT {
    @RegisterExtension
    static final MariaDbShards SHARDS = MariaDbShards.builder().count(2).name("CliIT").build();

    static ConnectCluster connect;
    static final Path CAPTURE = Path.of("target/cli-docs");
    static final ObjectMapper JSON = new ObjectMapper();

    @BeforeAll
    static void startConnect() throws IOException {
        connect = ConnectCluster.builder().name("cli").workers(1).start();
        Files.createDirectories(CAPTURE);
    }

    @AfterAll
    static void stopConnect() {
        if (connect != null) {
            connect.close();
        }
    }

    record Run(int code, String out, String err) {
    }

    static Run vsc(String... args) {
        return vsc(connect, args);
    }

    /** Runs the CLI in-process against {@code cluster} (its REST API and its Kafka). */
    static Run vsc(ConnectCluster cluster, String... args) {
        List<String> a = new ArrayList<>(List.of(args));
        a.addAll(List.of("--connect-url", cluster.restUrl(), "--bootstrap-servers", cluster.bootstrapServers()));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Vsc.execute(a.toArray(String[]::new), new PrintWriter(out), new PrintWriter(err));
        return new Run(code, out.toString(), err.toString());
    }

    static void capture(String file, String commandLine, Run r) throws IOException {
        Files.writeString(CAPTURE.resolve(file), "$ " + commandLine + "\n" + r.out() + r.err() + "[exit " + r.code()
                + "]\n");
    }

    @Test
    void validateReportsNoErrorForTheExamplesAndNamesTheBrokenField() throws IOException {
        List<String> files = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(Path.of("../config-examples"), "*.json")) {
            ds.forEach(p -> files.add(p.toString()));
        }
        files.sort(null);
        assertThat(files).hasSizeGreaterThanOrEqualTo(6);
        List<String> args = new ArrayList<>(List.of("validate"));
        args.addAll(files);
        Run text = vsc(args.toArray(String[]::new));
        capture("validate-examples.txt", "vsc validate config-examples/*.json", text);
        assertThat(text.code()).as(text.out() + text.err()).isEqualTo(ExitCodes.OK);
        for (String f : files) {
            assertThat(text.out()).contains(f + ": ok");
        }
        args.add(1, "--json");
        Run json = vsc(args.toArray(String[]::new));
        JsonNode report = JSON.readTree(json.out());
        assertThat(report).hasSize(files.size());
        report.forEach(n -> assertThat(n.get("error_count").asInt()).as(n.toString()).isZero());

        Path broken = CAPTURE.resolve("broken-coordinator.json");
        String example = Files.readString(Path.of("../config-examples/online-ddl-coordinator.json"));
        Files.writeString(broken, example.replace("\"cutover.mode\": \"all-at-once\"", "\"cutover.mode\": \"sometimes\"")
                .replace("\"cutover.lock.timeout.ms\": \"3000\"", "\"cutover.lock.timeout.ms\": \"soon\""));
        Run bad = vsc("validate", broken.toString());
        capture("validate-broken.txt", "vsc validate broken-coordinator.json", bad);
        assertThat(bad.code()).isEqualTo(ExitCodes.FAILURE);
        assertThat(bad.out()).contains("error(s)").contains("  cutover.mode: ").contains("sometimes")
                .contains("  cutover.lock.timeout.ms: ");
        Run badJson = vsc("validate", "--json", broken.toString());
        assertThat(JSON.readTree(badJson.out()).get(0).get("errors").has("cutover.mode")).isTrue();
    }

    @Test
    void anOnlineDdlStartedPostponedReleasedAndFollowedByTheCli() throws Exception {
        String db = SHARDS.freshDatabase();
        String w = "orders-ddl";
        try (WriteLoad load = WriteLoad.builder(Target.byModulo(SHARDS.servers(), db))
                .table(LoadTable.standard("orders")).threads(1).keySpace(20_000).statementsPerTransaction(1, 2)
                .transactionsPerSecond(30).duration(Duration.ofSeconds(120)).failOnError(false).seed(8).build()) {
            load.createTables();
            load.preload(12_000);
            load.start();
            migrate(db, w);
            load.awaitCommits(load.stats().commits() + 30, Duration.ofSeconds(60)); // writes to the new table
            LoadStats stats = load.stop();
            assertThat(stats.errors()).as("failed writes").isZero();
            for (int i = 0; i < 2; i++) {
                var r = load.verifyShard(i, "orders");
                assertThat(r.isEqual()).as("shard %d holds every acknowledged write: %s", i, r).isTrue();
            }
        }
    }

    private void migrate(String db, String w) throws Exception {
        Path password = CAPTURE.resolve("password");
        Files.writeString(password, MariaDbServer.PASSWORD + "\n");
        List<MariaDbServer> s = SHARDS.servers();
        String shards = "-80=" + s.get(0).host() + ":" + s.get(0).port() + ",80-=" + s.get(1).host() + ":"
                + s.get(1).port();
        String[] start = {"start", "online-ddl", "--name", w, "--keyspace", "commerce", "--database", db,
            "--table", "orders", "--alter", "MODIFY amount DECIMAL(14,2) NOT NULL, ADD INDEX k_amount (k, amount)",
            "--shards", shards, "--user", MariaDbServer.USER, "--password-file", password.toString(),
            "--replication-factor", "1", "--status-topic", "cli-status",
            "--set", "coordinator:poll.interval.ms=300",
            "--set", "coordinator:ddl.copy.chunk.max.rows=100",
            "--set", "coordinator:ddl.copy.max.rows.per.second=1000",
            "--set", "sink:consumer.override.metadata.max.age.ms=1000"};

        Run dry = vsc(concat(start, "--dry-run"));
        assertThat(dry.code()).as(dry.err()).isEqualTo(ExitCodes.OK);
        capture("start-dry-run.txt", "vsc start online-ddl ... --dry-run", dry);

        Run started = vsc(start);
        capture("start.txt", "vsc start online-ddl --name " + w + " ...", started);
        assertThat(started.code()).as(started.out() + started.err()).isEqualTo(ExitCodes.OK);
        assertThat(started.out()).contains("deployed coordinator " + w).contains("deployed source " + w + "-source")
                .contains("deployed sink " + w + "-sink");

        // the recording: vsc status --watch, appending a frame at every change, until the workflow is final
        Path recording = CAPTURE.resolve("status-watch.txt");
        AtomicInteger watchCode = new AtomicInteger(-1);
        Thread watcher = new Thread(() -> {
            try (PrintWriter out = new PrintWriter(Files.newBufferedWriter(recording, StandardCharsets.UTF_8), true)) {
                out.println("$ vsc status " + w + " --watch");
                watchCode.set(Vsc.execute(new String[] {"status", w, "--watch", "--no-redraw", "--max-wait-s", "240",
                    "--connect-url", connect.restUrl(), "--bootstrap-servers", connect.bootstrapServers()}, out, out));
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }, "vsc-watch");
        watcher.start();

        Run postpone = vsc("postpone", w);
        capture("postpone.txt", "vsc postpone " + w, postpone);
        assertThat(postpone.code()).as(postpone.err()).isEqualTo(ExitCodes.OK);
        assertThat(postpone.out()).contains("handoff.postpone=true");

        List<String> seen = new ArrayList<>();
        JsonNode last = awaitState(w, "POSTPONED", seen, Duration.ofSeconds(150));
        assertThat(last.get("connectors").get("coordinator").get("state").asText()).isEqualTo("RUNNING");
        assertThat(last.get("connectors").get("source").get("name").asText()).isEqualTo(w + "-source");
        assertThat(last.get("connectors").get("sink").get("tasks").get(0).get("state").asText()).isEqualTo("RUNNING");
        assertThat(last.get("progress_percent").asInt()).isEqualTo(100);
        capture("status-json.txt", "vsc status " + w + " --json", vsc("status", w, "--json"));
        capture("status.txt", "vsc status", vsc("status"));
        HeldState.await(connect, "cli-status", w, "POSTPONED", Duration.ofSeconds(2)); // held while postponed
        assertThat(JSON.readTree(vsc("status", w, "--json").out()).get("state").asText())
                .as("vsc status, held while postponed").isEqualTo("POSTPONED");

        Run cutover = vsc("cutover", w);
        capture("cutover.txt", "vsc cutover " + w, cutover);
        assertThat(cutover.code()).isEqualTo(ExitCodes.OK);
        assertThat(cutover.out()).contains("handoff.postpone=false");
        awaitState(w, "COMPLETE", seen, Duration.ofSeconds(120));
        assertThat(seen).containsSubsequence("COPYING", "POSTPONED", "COMPLETE");

        watcher.join(Duration.ofSeconds(60).toMillis());
        assertThat(watchCode.get()).as("--watch ends with the workflow").isEqualTo(ExitCodes.OK);
        String frames = Files.readString(recording);
        assertThat(frames).contains("COPYING").contains("POSTPONED").contains("COMPLETE")
                .contains("[##############################] 100%");

        for (MariaDbServer server : s) {
            assertThat(server.queryString(db, "SELECT COLUMN_TYPE FROM information_schema.COLUMNS WHERE"
                    + " TABLE_SCHEMA = ? AND TABLE_NAME = 'orders' AND COLUMN_NAME = 'amount'", db))
                    .isEqualTo("decimal(14,2)");
        }
        Run done = vsc("status", w);
        capture("status-complete.txt", "vsc status " + w, done);
        assertThat(done.code()).isEqualTo(ExitCodes.OK);
        Run revert = vsc("revert", w); // no revert window: nothing to swap back, and nothing changed
        assertThat(revert.code()).isEqualTo(ExitCodes.FAILURE);
        assertThat(revert.err()).contains("the workflow is COMPLETE").contains("nothing changed");
        for (String n : List.of(w + "-sink", w + "-source", w)) {
            connect.delete(n);
        }

        // the name again, for another ALTER: the old workflow's stored state is not taken for this one's
        String[] reuse = start.clone();
        reuse[java.util.Arrays.asList(reuse).indexOf("--alter") + 1] = "ADD COLUMN note2 VARCHAR(8) NULL";
        Run reused = vsc(reuse);
        capture("start-reused-name.txt", "vsc start online-ddl --name " + w + " --alter 'ADD COLUMN note2 ...' ...",
                reused);
        assertThat(reused.code()).as(reused.out() + reused.err()).isEqualTo(ExitCodes.FAILURE);
        assertThat(reused.out()).contains("the coordinator " + w + " failed as it started; nothing more deployed")
                .contains("belongs to a different workflow under the same name")
                .doesNotContain("deployed source").doesNotContain("workflow " + w + " started");
        connect.delete(w);
    }

    private static JsonNode awaitState(String w, String state, List<String> seen, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        JsonNode last = null;
        while (System.nanoTime() < deadline) {
            Run r = vsc("status", w, "--json");
            assertThat(r.code()).as(r.out() + r.err()).isEqualTo(ExitCodes.OK);
            last = JSON.readTree(r.out());
            String now = last.get("state").isNull() ? null : last.get("state").asText();
            if (now != null && (seen.isEmpty() || !seen.get(seen.size() - 1).equals(now))) {
                seen.add(now);
            }
            if (state.equals(now)) {
                return last;
            }
            assertThat(now).as("states so far: %s; last: %s", seen, last).isNotIn("FAILED", "CANCELLED");
            Thread.sleep(300);
        }
        throw new AssertionError("timed out waiting for " + state + "; states seen " + seen + "; last " + last);
    }

    private static String[] concat(String[] a, String... b) {
        String[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
