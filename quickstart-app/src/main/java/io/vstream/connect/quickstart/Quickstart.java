package io.vstream.connect.quickstart;

import com.fasterxml.jackson.databind.JsonNode;
import io.vstream.connect.core.event.TopicNames;
import io.vstream.connect.local.ConnectRest;
import io.vstream.connect.local.ConnectWorker;
import io.vstream.connect.local.KafkaBroker;
import io.vstream.connect.local.KafkaClasspath;
import io.vstream.connect.local.ManagedProcess;
import io.vstream.connect.local.Sleeper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code ./quickstart}: two local MariaDB shards, a single-node Kafka and a Kafka Connect worker, each a separate
 * process, with our plugins from their archives; the sample keyspace and a live write load; the CDC example and the
 * online ALTER example deployed through the REST API; the ALTER's progress until its cut-over; then the checks (the
 * ALTER took effect, original = new through the mapping, every acknowledged write is there, no write failed) and what
 * to look at next. Ctrl-C or the end stops everything it started, unless {@code --keep}.
 */
public final class Quickstart {
    static final String CDC = "commerce-cdc";
    static final String CDC_PASSWORD = "quickstart-cdc";
    static final String DDL_PASSWORD = "quickstart-ddl";

    private final Settings settings;
    private final RunDirectory run;
    private final Console out = new Console();
    private final List<MariaDbShard> shards = new ArrayList<>();
    private KafkaBroker broker;
    private ConnectWorker worker;
    private LiveLoad load;
    private StatusWatcher watcher;
    private boolean stopped;
    private FailureHelp failureHelp;

    Quickstart(Settings settings) {
        this.settings = settings;
        this.run = new RunDirectory(settings.runDir());
    }

    public static void main(String[] args) {
        if (java.util.Arrays.asList(args).contains("--help") || java.util.Arrays.asList(args).contains("-h")) {
            System.out.println(Settings.USAGE);
            return;
        }
        Settings settings;
        try {
            settings = Settings.parse(Path.of("").toAbsolutePath(), args);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.exit(2);
            return;
        }
        if (settings.stop()) {
            int n = new RunDirectory(settings.runDir()).stopLeftovers();
            System.out.println(n == 0 ? "Nothing of the quickstart is running." : "Stopped " + n + " process(es).");
            return;
        }
        Quickstart q = new Quickstart(settings);
        Thread hook = new Thread(q::stopAll, "quickstart-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        int code;
        try {
            code = q.run() ? 0 : 1;
        } catch (RuntimeException | SQLException | IOException e) {
            System.out.println();
            System.out.println("FAILED: " + e.getMessage());
            if (q.startedAnything()) {
                System.out.println("Logs are in " + settings.runDir() + " (*/*.log).");
            }
            q.printFailureHelp();
            code = 1;
        }
        if (settings.keep()) {
            Runtime.getRuntime().removeShutdownHook(hook);
            q.closeClients();
            q.printKeep();
        } else {
            q.stopAll();
            Runtime.getRuntime().removeShutdownHook(hook);
        }
        System.exit(code);
    }

    boolean run() throws SQLException, IOException {
        out.plain("vstream-connect quickstart: run directory %s", run.path());
        int leftovers = run.stopLeftovers();
        if (leftovers > 0) {
            out.step("stopped %d process(es) an earlier run had left running", leftovers);
        }
        settings.checkPortsFree();
        run.wipe();
        out.step("ports free: %s", settings.ports());

        KafkaClasspath classpath = KafkaClasspath.load();
        List<String> ours = classpath.entriesWithOurClasses();
        if (!ours.isEmpty()) {
            throw new IllegalStateException("the Kafka classpath holds our classes: " + ours);
        }
        Path plugins = run.path().resolve("plugins");
        PluginArchives.unpack(PluginArchives.find(settings.repo()), plugins);
        out.step("plugin archives unpacked into %s (the worker's plugin.path)", plugins);

        Keyspace keyspace = startShards();
        SampleData data = new SampleData(keyspace, settings.orders());
        data.createSchema(CDC_PASSWORD, DDL_PASSWORD);
        int[] perShard = data.load();
        out.step("sample data loaded: orders %,d rows on -80 + %,d on 80- (hash vindex on id); customer %,d; corder"
                + " %,d (hash vindex on customer_id)", perShard[0], perShard[1], SampleData.CUSTOMERS,
                SampleData.CORDERS);

        broker = new KafkaBroker(run.path().resolve("kafka"), settings.kafkaPort(), settings.controllerPort(),
                classpath, run.pids(), !settings.keep());
        broker.start(Duration.ofSeconds(90));
        out.step("Kafka (KRaft, one node) started on %s, pid %d", broker.bootstrapServers(), broker.process().pid());

        Path secrets = writeSecrets();
        worker = new ConnectWorker(run.path().resolve("connect"), settings.connectPort(), broker.bootstrapServers(),
                plugins, secrets.getParent(), classpath, run.pids(), !settings.keep());
        ConnectRest rest = worker.start(Duration.ofSeconds(90));
        out.step("Kafka Connect worker started, REST %s, pid %d", rest.url(), worker.process().pid());
        List<String> ourPlugins = new ArrayList<>();
        for (JsonNode p : rest.connectorPlugins()) {
            if (p.path("class").asText().startsWith("io.vstream.")) {
                ourPlugins.add(p.path("class").asText().replaceAll(".*\\.", "") + " " + p.path("version").asText());
            }
        }
        out.detail("GET /connector-plugins: %s", String.join(", ", ourPlugins));
        if (ourPlugins.size() != 3) {
            throw new IllegalStateException("the worker lists " + ourPlugins + ", expected our 3 connectors; see "
                    + worker.logFile());
        }
        NextSteps next = new NextSteps(out, settings, run.path(), worker.restUrl(), broker.bootstrapServers());
        next.writeConsumerScript(classpath);

        load = new LiveLoad(keyspace, 2, settings.loadTps(), settings.orders());
        load.start();
        out.step("write load started: %d transactions/s over both shards (orders, corder, customer)",
                settings.loadTps());

        Map<String, String> replace = new LinkedHashMap<>();
        replace.put("127.0.0.1:3307", keyspace.shards().get(0).hostPort());
        replace.put("127.0.0.1:3308", keyspace.shards().get(1).hostPort());
        replace.put("/etc/kafka-connect/secrets.properties", secrets.toString());
        replace.put("http://localhost:8083", worker.restUrl()); // the coordinator watches its connectors there
        Map<String, String> singleBroker = Map.of("topic.creation.default.replication.factor", "1");
        Path examples = settings.repo().resolve("config-examples");

        Map<String, String> cdc = ConfigExamples.load(examples.resolve("cdc-source.json"), replace, singleBroker);
        rest.putConfig(CDC, cdc);
        rest.awaitRunning(CDC, 2, Duration.ofSeconds(60));
        out.step("CDC deployed: PUT /connectors/%s/config with config-examples/cdc-source.json (topology %s,"
                + " password from %s, replication factor 1): RUNNING, 2 tasks", CDC, cdc.get("topology"), secrets);

        Map<String, String> coordinator = ConfigExamples.load(examples.resolve("online-ddl-coordinator.json"), replace,
                singleBroker);
        Map<String, String> source = ConfigExamples.load(examples.resolve("online-ddl-source.json"), replace,
                singleBroker);
        Map<String, String> sink = ConfigExamples.load(examples.resolve("online-ddl-sink.json"), replace, Map.of());
        String workflow = coordinator.get("ddl.migration");
        String sinkName = coordinator.get("applier.stream");
        String sourceName = workflow + "-source";
        watcher = new StatusWatcher(broker.bootstrapServers(), coordinator.get("status.topic"), workflow);
        failureHelp = new FailureHelp(worker.restUrl(), broker.bootstrapServers(), worker.logFile(), workflow,
                coordinator.get("status.topic"), List.of(workflow, sourceName, sinkName, CDC));
        rest.putConfig(workflow, coordinator);
        rest.putConfig(sourceName, source);
        rest.putConfig(sinkName, sink);
        out.step("online ALTER deployed: %s (coordinator), %s, %s from config-examples/online-ddl-*.json", workflow,
                sourceName, sinkName);
        out.detail("ALTER TABLE %s.%s %s", coordinator.get("ddl.database"), coordinator.get("ddl.table"),
                coordinator.get("ddl.alter"));

        StatusWatcher.Status last = new MigrationProgress(out, keyspace, rest, watcher, load)
                .follow(List.of(workflow, sourceName, sinkName, CDC), settings.migrationTimeout(), worker.logFile());
        Sleeper.sleep(3_000); // writes to the new table after the swap
        load.close();
        out.step("write load stopped: %,d transactions, %d failed, longest %d ms", load.commits(), load.failures(),
                load.maxLatencyMillis());

        ResultCheck check = new ResultCheck(keyspace);
        check.add(new ResultCheck.Verdict("the workflow completed", "COMPLETE".equals(last.state()),
                String.join(" > ", watcher.states()) + (last.reason() == null ? "" : " (" + last.reason() + ")")));
        if ("COMPLETE".equals(last.state())) {
            check.alterTookEffect();
            check.originalMatchesNew(load.ordersWrittenSince(watcher.cutOverStartMs()));
            check.acknowledgedWritesArePresent(load);
        }
        check.noFailedWrites(load);
        try (TopicSampler sampler = new TopicSampler(broker.bootstrapServers())) {
            List<String> counts = new ArrayList<>();
            boolean streamed = true;
            for (MariaDbShard s : keyspace.shards()) {
                String topic = TopicNames.shardTopic(cdc.get("topic.prefix"), cdc.get("keyspace"), s.shard());
                long n = sampler.count(topic);
                streamed &= n > 0;
                counts.add(String.format("%s: %,d records", topic, n));
            }
            String state = rest.status(CDC).path("connector").path("state").asText();
            check.add(new ResultCheck.Verdict("CDC streamed both shards and still runs",
                    streamed && "RUNNING".equals(state), String.join(", ", counts) + "; connector " + state));
            String example = sampler.firstRowEvent(TopicNames.shardTopic(cdc.get("topic.prefix"), cdc.get("keyspace"),
                    keyspace.shards().get(0).shard()));
            if (example != null) {
                out.detail("a CDC event: %s", example.length() > 240 ? example.substring(0, 240) + "..." : example);
            }
        }

        out.plain("");
        out.plain("Checks:");
        for (ResultCheck.Verdict v : check.verdicts()) {
            out.plain("  %s %s: %s", v.ok() ? "OK  " : "FAIL", v.what(), v.detail());
        }
        next.print(cdc, workflow, coordinator.get("status.topic"), shards);
        out.plain("");
        out.plain(check.allOk() ? "Quickstart passed in %.0f s." : "Quickstart FAILED after %.0f s (see above).",
                out.seconds());
        return check.allOk();
    }

    private Keyspace startShards() {
        List<String> names = List.of("-80", "80-");
        for (int i = 0; i < 2; i++) {
            shards.add(new MariaDbShard(names.get(i), run.path().resolve("shard_" + names.get(i)),
                    settings.shardPorts().get(i), 101 + i, run.pids(), !settings.keep()));
        }
        List<ManagedProcess> installs = shards.stream().map(MariaDbShard::initialize).toList();
        for (ManagedProcess p : installs) {
            p.awaitSuccess(Duration.ofSeconds(60));
        }
        for (MariaDbShard s : shards) {
            s.start();
        }
        String version = "?";
        try (Connection c = shards.get(0).connect(""); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT VERSION()")) {
            rs.next();
            version = rs.getString(1);
        } catch (SQLException e) {
            // only for the message
        }
        out.step("MariaDB %s shards started: -80 on %s, 80- on %s (binlog ROW, FULL metadata, strict GTID)", version,
                shards.get(0).hostPort(), shards.get(1).hostPort());
        return new Keyspace(shards);
    }

    private Path writeSecrets() {
        Path file = run.path().resolve("secrets").resolve("secrets.properties");
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, "vstream.password=" + CDC_PASSWORD + "\nvstream.ddl.password=" + DDL_PASSWORD
                    + "\n");
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return file;
    }

    /** What the operator can look at when a run failed after the workflow was deployed (else nothing). */
    private void printFailureHelp() {
        if (failureHelp != null) {
            failureHelp.print(settings.keep());
        }
    }

    private void printKeep() {
        out.plain("");
        out.plain("--keep: the shards, Kafka and the worker keep running (the write load has stopped).");
        out.plain("Stop them with: ./quickstart --stop   (or kill the pids in %s)", run.pids());
    }

    private void closeClients() {
        if (load != null) {
            load.close();
        }
        if (watcher != null) {
            watcher.close();
        }
    }

    boolean startedAnything() {
        return !shards.isEmpty() || broker != null || worker != null;
    }

    /** Stops everything this run started, the worker first and the shards last; safe to call twice. */
    synchronized void stopAll() {
        if (stopped) {
            return;
        }
        stopped = true;
        if (!startedAnything()) {
            return;
        }
        System.out.println("Stopping the worker, Kafka and the shards (logs stay in " + run.path() + ")");
        closeClients();
        if (worker != null) {
            worker.stop();
        }
        if (broker != null) {
            broker.stop();
        }
        for (MariaDbShard s : shards) {
            s.stop();
        }
        System.out.println("Stopped.");
    }
}
