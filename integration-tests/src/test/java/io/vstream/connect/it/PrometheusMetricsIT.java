package io.vstream.connect.it;

import static io.vstream.connect.it.LocalPorts.freePort;
import static io.vstream.connect.it.LocalPorts.freshDir;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.vstream.connect.core.event.TopicNames;
import io.vstream.connect.local.ConnectRest;
import io.vstream.connect.local.ConnectWorker;
import io.vstream.connect.local.KafkaBroker;
import io.vstream.connect.local.KafkaClasspath;
import io.vstream.connect.local.load.LoadTable;
import io.vstream.connect.local.load.Target;
import io.vstream.connect.local.load.WriteLoad;
import io.vstream.connect.testsupport.db.MariaDbServer;
import io.vstream.connect.testsupport.db.MariaDbShards;
import java.io.IOException;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;

/**
 * Metrics as operators collect them: a Kafka Connect worker in its own JVM (as {@link PackagedWorkerIT} starts it)
 * runs with the Prometheus JMX exporter agent and the rules we ship ({@code monitoring/jmx-exporter.yml}); a clone
 * workflow (source, sink, coordinator from their plugin archives) copies and streams a table under a write load while
 * the test scrapes {@code /metrics} over HTTP every second. The series move as the workflow does (copy rows, row
 * changes, rows applied, the sink's multi-row statements, the workflow's state through to COMPLETE), and every series
 * the shipped Grafana dashboard and alert rules use is one the scrape exposes, with the labels they use. The scrapes
 * are drawn as the dashboard's main panels ({@code target/monitoring/dashboard-panels.png}, shown in
 * docs/monitoring.md).
 */
class PrometheusMetricsIT {
    @RegisterExtension
    static final MariaDbShards SERVERS = MariaDbShards.builder().count(2).name("PrometheusMetricsIT").build();

    private static final Path MONITORING = Path.of("../monitoring");
    private static final Pattern SERIES = Pattern.compile("\\b((?:vstream|kafka_connect|jvm)_[a-z0-9_]+)\\b");
    private static final Pattern MATCHER_LABEL = Pattern.compile("([a-z_]+)\\s*(?:=~|!=|!~|=)\\s*\"");
    private static final Pattern BY_LABELS = Pattern.compile("\\bby\\s*\\(([^)]*)\\)");
    private static final Pattern TEMPLATE_LABEL = Pattern.compile("\\{\\{\\s*\\$?(?:labels\\.)?([a-z_]+)\\s*}}");

    @Test
    void aWorkerWithTheExporterAgentExposesTheWorkflowsMetricsAndEverySeriesTheDashboardAndAlertsUse()
            throws Exception {
        MariaDbServer source = SERVERS.server(0);
        MariaDbServer target = SERVERS.server(1);
        String db = SERVERS.freshDatabase();
        target.execute("mysql", "DROP DATABASE `" + db + "`");
        source.execute("mysql", DocumentedGrants.statements("clone source", db).toArray(String[]::new));
        target.execute("mysql", DocumentedGrants.statements("clone target", db).toArray(String[]::new));

        Path dir = freshDir(Path.of("target", "prometheus-worker").toAbsolutePath());
        Path plugins = Path.of(System.getProperty("vstream.plugins.dir", "target/plugins")).toAbsolutePath();
        Path agent = Path.of(System.getProperty("vstream.jmx-exporter.jar",
                "target/jmx-exporter/jmx_prometheus_javaagent.jar")).toAbsolutePath();
        Path rules = MONITORING.resolve("jmx-exporter.yml").toAbsolutePath().normalize();
        assertThat(agent).as("the exporter agent (copied by the build)").exists();
        Path secrets = Files.createDirectories(dir.resolve("secrets"));
        int metricsPort = freePort();
        String metricsUrl = "http://127.0.0.1:" + metricsPort + "/metrics";

        KafkaClasspath classpath = KafkaClasspath.load();
        KafkaBroker broker = new KafkaBroker(dir.resolve("kafka"), freePort(), freePort(), classpath, null, true);
        ConnectWorker worker = new ConnectWorker(dir.resolve("connect"), freePort(), broker.bootstrapServers(),
                plugins, secrets, classpath, null, true)
                .jvmOptions(List.of("-javaagent:" + agent + "=127.0.0.1:" + metricsPort + ":" + rules));
        Thread reaper = new Thread(() -> stopAll(worker, broker), "prometheus-worker-reaper");
        Runtime.getRuntime().addShutdownHook(reaper);
        List<PrometheusText> scrapes = new ArrayList<>();
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(30)).build();
        try (WriteLoad load = WriteLoad.builder(Target.single(source, db)).table(LoadTable.standard("orders"))
                .threads(2).keySpace(5_000).statementsPerTransaction(1, 3).deleteRatio(0.1)
                .transactionsPerSecond(60).duration(Duration.ofSeconds(300)).failOnError(false).seed(11).build()) {
            load.createTables().preload(20_000);
            broker.start(Duration.ofSeconds(60));
            ConnectRest rest = worker.start(Duration.ofSeconds(60));
            scrapes.add(PrometheusText.scrape(http, metricsUrl));
            assertThat(scrapes.get(0).names()).as("the agent serves the worker's JVM before any connector runs")
                    .contains("jvm_heap_used_bytes", "kafka_connect_worker_connector_count");

            String sinkName = "prom-sink";
            String statusTopic = "status-" + db;
            load.start();
            rest.putConfig("prom-coordinator", CloneHandoffIT.coordinator(source, target, sinkName, statusTopic));
            rest.putConfig("prom-source", CompactFormat.onSource(SourceConfigs.with(SourceConfigs.keyspace("ks", db,
                    List.of(source), 1), "user", "vstream", "password", DocumentedGrants.PASSWORD)));
            rest.putConfig(sinkName, CompactFormat.on(SourceConfigs.with(SinkConfigs.clone(
                    TopicNames.shardTopic("vs_" + db, "ks", "-"), target), "table.engine", "InnoDB",
                    "target.user", "vstream_applier", "target.password", DocumentedGrants.PASSWORD)));

            // scrape every second until the workflow is COMPLETE and the source's stream has run on after it (its
            // row changes read from the binlog have grown since the scrape that saw COMPLETE)
            Map<String, String> shard = Map.of("keyspace", "ks", "shard", "-");
            long deadline = System.nanoTime() + Duration.ofSeconds(240).toNanos();
            Double eventsAtComplete = null;
            boolean ranOn = false;
            while (System.nanoTime() < deadline && !ranOn) {
                Thread.sleep(1_000);
                PrometheusText s = PrometheusText.scrape(http, metricsUrl);
                scrapes.add(s);
                boolean complete = s.sum("vstream_workflow_state", Map.of("state", "COMPLETE")).orElse(0.0) == 1;
                assertThat(s.sum("vstream_workflow_state", Map.of("state", "FAILED")).orElse(0.0))
                        .as("the workflow failed; worker log %s", worker.logFile()).isZero();
                double events = s.sum("vstream_source_row_events_total", shard).orElse(0.0);
                if (eventsAtComplete != null) {
                    ranOn = events > eventsAtComplete;
                } else if (complete) {
                    eventsAtComplete = events;
                }
            }
            assertThat(eventsAtComplete).as("the workflow reached COMPLETE; worker log %s", worker.logFile())
                    .isNotNull();
            assertThat(ranOn).as("the source's stream ran on after COMPLETE; worker log %s", worker.logFile())
                    .isTrue();
            load.stop();
            PrometheusText last = scrapes.get(scrapes.size() - 1);

            // the series move as the workflow does
            // the preload writes 20,000 rows over 5,000 keys: about 5,000 rows are there to copy
            assertThat(last.sum("vstream_source_copy_rows_total", shard).orElse(0.0)).as("rows copied")
                    .isGreaterThan(4_000);
            assertThat(first(scrapes, "vstream_source_row_events_total", shard))
                    .as("row changes read from the binlog grow under the load")
                    .isLessThan(last.sum("vstream_source_row_events_total", shard).orElseThrow());
            assertThat(last.sum("vstream_source_transactions_total", shard).orElseThrow()).isPositive();
            assertThat(last.sum("vstream_source_millis_since_last_event", shard).orElseThrow())
                    .as("the shard's reader receives events").isBetween(0.0, 30_000.0);
            double applied = last.sum("vstream_sink_rows_applied_total").orElseThrow();
            double written = last.sum("vstream_sink_rows_written_total").orElseThrow();
            double statements = last.sum("vstream_sink_write_statements_total").orElseThrow();
            assertThat(applied).as("rows applied by the sink").isGreaterThan(4_000);
            assertThat(statements).as("the sink's write statements").isPositive();
            assertThat(written / statements).as("rows per statement: the copy is written in multi-row statements")
                    .isGreaterThan(10);
            assertThat(last.sum("vstream_sink_retries_total").orElseThrow()).isZero();
            List<Integer> states = new ArrayList<>();
            for (PrometheusText s : scrapes) {
                s.sum("vstream_workflow_state_code", Map.of("workflow", "prom-coordinator")).ifPresent(v -> {
                    if (states.isEmpty() || states.get(states.size() - 1) != v.intValue()) {
                        states.add(v.intValue());
                    }
                });
            }
            assertThat(states).as("the workflow's state code over the scrapes").endsWith(7).hasSizeGreaterThan(1);
            assertThat(last.sum("kafka_connect_task_status", Map.of("connector", "prom-source", "status",
                    "running"))).as("Connect's task status").contains(1.0);

            // every series (and label) the dashboard and the alert rules use is exposed
            Set<String> exposed = new TreeSet<>();
            scrapes.forEach(s -> exposed.addAll(s.names()));
            List<String> expressions = new ArrayList<>();
            JsonNode dashboard = new ObjectMapper().readTree(MONITORING.resolve("grafana-dashboard.json").toFile());
            for (JsonNode panel : dashboard.path("panels")) {
                for (JsonNode t : panel.path("targets")) {
                    expressions.add(t.path("expr").asText() + " " + t.path("legendFormat").asText());
                }
            }
            assertThat(expressions).as("dashboard panels' queries").hasSizeGreaterThan(10);
            List<String> alerts = alertExpressions(Files.readString(MONITORING.resolve("prometheus-alerts.yml")));
            assertThat(alerts).as("alert rules").hasSizeGreaterThanOrEqualTo(8);
            expressions.addAll(alerts);
            for (String expr : expressions) {
                Set<String> used = new LinkedHashSet<>();
                Matcher m = SERIES.matcher(expr);
                while (m.find()) {
                    used.add(m.group(1));
                }
                assertThat(used).as("series in %s", expr).isNotEmpty();
                assertThat(exposed).as("series the scrape exposes, for %s", expr).containsAll(used);
                Set<String> labelsOfUsed = new TreeSet<>();
                for (PrometheusText s : scrapes) {
                    s.samples().stream().filter(x -> used.contains(x.name()))
                            .forEach(x -> labelsOfUsed.addAll(x.labels().keySet()));
                }
                assertThat(labelsOfUsed).as("labels of %s, for %s", used, expr).containsAll(labels(expr));
            }
            Files.createDirectories(Path.of("target", "monitoring"));
            Files.writeString(Path.of("target", "monitoring", "last-scrape.txt"), String.join("\n",
                    last.samples().stream().map(Object::toString).toList()));
            Path png = Path.of("target", "monitoring", "dashboard-panels.png");
            drawPanels(scrapes, png);
            assertThat(png).exists();
        } finally {
            stopAll(worker, broker);
            Runtime.getRuntime().removeShutdownHook(reaper);
        }
    }

    /** The {@code expr:} of each alert rule, with its annotations (their {@code $labels} must exist too). */
    static List<String> alertExpressions(String yaml) {
        List<String> out = new ArrayList<>();
        StringBuilder current = null;
        for (String line : yaml.split("\n")) {
            String t = line.strip();
            if (t.startsWith("- alert:")) {
                if (current != null) {
                    out.add(current.toString());
                }
                current = new StringBuilder();
            } else if (current != null && (t.startsWith("expr:") || t.startsWith("summary:")
                    || t.startsWith("description:"))) {
                current.append(t.substring(t.indexOf(':') + 1)).append(' ');
            }
        }
        if (current != null) {
            out.add(current.toString());
        }
        return out;
    }

    /** The label names an expression filters, groups or prints by. */
    static Set<String> labels(String expr) {
        Set<String> out = new TreeSet<>();
        Matcher m = MATCHER_LABEL.matcher(expr);
        while (m.find()) {
            out.add(m.group(1));
        }
        m = BY_LABELS.matcher(expr);
        while (m.find()) {
            for (String l : m.group(1).split(",")) {
                if (!l.isBlank()) {
                    out.add(l.strip());
                }
            }
        }
        m = TEMPLATE_LABEL.matcher(expr);
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }

    private static double first(List<PrometheusText> scrapes, String name, Map<String, String> labels) {
        return scrapes.stream().map(s -> s.sum(name, labels)).filter(java.util.Optional::isPresent)
                .map(java.util.Optional::get).findFirst().orElseThrow(() -> new AssertionError("no " + name));
    }

    /** The dashboard's main panels drawn from the scrapes: rates from successive counters, gauges as they are. */
    static void drawPanels(List<PrometheusText> scrapes, Path png) throws IOException {
        long t0 = scrapes.get(0).atMs();
        XYChart rows = chart("Rows/s: copy and binlog (source), applied (sink)", "rows/s");
        XYChart lag = chart("Lag (ms): source and applier", "ms");
        XYChart state = chart("Workflow state code (1 COPYING ... 5 CUTTING_OVER, 7 COMPLETE)", "state");
        XYChart heap = chart("Worker heap used (MiB)", "MiB");
        series(rows, "copy rows/s", scrapes, t0, "vstream_source_copy_rows_total", true, 1);
        series(rows, "row changes/s", scrapes, t0, "vstream_source_row_events_total", true, 1);
        series(rows, "rows applied/s", scrapes, t0, "vstream_sink_rows_applied_total", true, 1);
        series(lag, "source lag", scrapes, t0, "vstream_source_lag_ms", false, 1);
        series(lag, "applier lag", scrapes, t0, "vstream_sink_lag_ms", false, 1);
        series(state, "state", scrapes, t0, "vstream_workflow_state_code", false, 1);
        series(heap, "heap used", scrapes, t0, "jvm_heap_used_bytes", false, 1.0 / (1 << 20));
        Files.createDirectories(png.getParent());
        BitmapEncoder.saveBitmap(List.of(rows, lag, state, heap), 2, 2, png.toString(),
                BitmapEncoder.BitmapFormat.PNG);
    }

    private static XYChart chart(String title, String yTitle) {
        XYChart c = new XYChartBuilder().width(640).height(320).title(title).xAxisTitle("s").yAxisTitle(yTitle)
                .build();
        c.getStyler().setMarkerSize(0);
        c.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.InsideNW);
        return c;
    }

    private static void series(XYChart chart, String label, List<PrometheusText> scrapes, long t0, String name,
                               boolean rate, double factor) {
        List<Double> xs = new ArrayList<>();
        List<Double> ys = new ArrayList<>();
        PrometheusText previous = null;
        for (PrometheusText s : scrapes) {
            var v = s.sum(name);
            if (v.isEmpty()) {
                continue;
            }
            if (!rate) {
                xs.add((s.atMs() - t0) / 1000.0);
                ys.add(v.get() * factor);
            } else if (previous != null && previous.sum(name).isPresent() && s.atMs() > previous.atMs()) {
                double dv = v.get() - previous.sum(name).get();
                xs.add((s.atMs() - t0) / 1000.0);
                ys.add(Math.max(0, dv) * 1000.0 / (s.atMs() - previous.atMs()) * factor);
            }
            previous = s;
        }
        if (!xs.isEmpty()) {
            chart.addSeries(label, xs, ys);
        }
    }

    private static void stopAll(ConnectWorker worker, KafkaBroker broker) {
        worker.stop();
        broker.stop();
    }
}
