package io.vstream.connect.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code vsc status [W] [--watch] [--json]}: every workflow (or one) with its state, progress, rates, lag, throttle,
 * cut-over attempts, failure and the Connect status of its connectors. Workflows are the cluster's coordinators; the
 * state is the latest record of each one's status topic.
 */
@Command(name = "status", mixinStandardHelpOptions = true,
        description = "Show every workflow's state and progress, or one workflow's.")
final class StatusCommand implements Callable<Integer> {
    @Mixin
    ClusterOptions cluster;

    @Spec
    CommandSpec spec;

    @Parameters(arity = "0..1", paramLabel = "W", description = "The workflow (default: all).")
    String workflow;

    @Option(names = "--watch", description = "Redraw every interval until the workflow(s) are final or Ctrl-C.")
    boolean watch;

    @Option(names = "--interval-ms", defaultValue = "1000", paramLabel = "MS",
            description = "Redraw interval of --watch (default ${DEFAULT-VALUE}).")
    long intervalMs;

    @Option(names = "--max-wait-s", defaultValue = "0", paramLabel = "S",
            description = "--watch: give up after S seconds with exit 1 (default 0: never).")
    long maxWaitSeconds;

    @Option(names = "--no-redraw", description = "--watch: append a frame whenever it changes instead of clearing the"
            + " screen (the default when stdout is not a terminal).")
    boolean noRedraw;

    @Option(names = "--json", description = "JSON for scripts (with --watch: one JSON document per change).")
    boolean json;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        ConnectRestClient rest = cluster.rest();
        List<Workflows.Info> all = Workflows.find(rest.connectorConfigs());
        List<Workflows.Info> shown = new ArrayList<>();
        if (workflow == null) {
            shown.addAll(all);
        } else {
            shown.add(Workflows.required(all, workflow, rest.base()));
        }
        if (shown.isEmpty()) {
            if (json) {
                Output.json(out, ConnectRestClient.JSON.createArrayNode());
            } else {
                out.println("no workflows: no coordinator connector on " + rest.base());
            }
            return ExitCodes.OK;
        }
        Set<String> topics = new LinkedHashSet<>();
        shown.forEach(i -> topics.add(i.statusTopic()));
        try (StatusReader reader = cluster.statusReader()) {
            reader.readAll(topics);
            List<StatusView.Row> rows = rows(rest, reader, shown);
            if (!watch) {
                print(out, rows, false);
                return exitCode(rows);
            }
            return watch(out, rest, reader, shown, rows);
        }
    }

    private int watch(PrintWriter out, ConnectRestClient rest, StatusReader reader, List<Workflows.Info> shown,
                      List<StatusView.Row> rows) {
        boolean redraw = !noRedraw && !json && System.console() != null;
        long deadline = maxWaitSeconds > 0 ? System.nanoTime() + Duration.ofSeconds(maxWaitSeconds).toNanos() : 0;
        String lastFrame = null;
        while (true) {
            String frame = frame(rows, !redraw);
            if (redraw) {
                out.print("\033[H\033[2J");
                out.print(frame);
                out.flush();
            } else if (!frame.equals(lastFrame)) {
                if (!json) {
                    out.println("--- " + StatusView.TIME.format(Instant.now()));
                }
                out.print(frame);
                out.flush();
            }
            lastFrame = frame;
            if (rows.stream().allMatch(r -> r.progress().latest() != null && r.progress().latest().isFinal())) {
                return exitCode(rows);
            }
            if (deadline != 0 && System.nanoTime() > deadline) {
                spec.commandLine().getErr().println("vsc: gave up waiting after " + maxWaitSeconds + " s");
                return ExitCodes.FAILURE;
            }
            reader.poll(Duration.ofMillis(intervalMs));
            shown = refresh(rest, shown);
            rows = rows(rest, reader, shown);
        }
    }

    private String frame(List<StatusView.Row> rows, boolean stable) {
        java.io.StringWriter sw = new java.io.StringWriter();
        print(new PrintWriter(sw), rows, stable);
        return sw.toString();
    }

    private void print(PrintWriter out, List<StatusView.Row> rows, boolean stable) {
        if (json) {
            ArrayNode a = ConnectRestClient.JSON.createArrayNode();
            rows.forEach(r -> a.add(StatusView.json(r)));
            Output.json(out, workflow == null ? a : a.get(0));
            return;
        }
        long now = System.currentTimeMillis();
        for (int i = 0; i < rows.size(); i++) {
            if (i > 0) {
                out.println();
            }
            out.print(StatusView.text(rows.get(i), now, !stable));
        }
        out.flush();
    }

    /** The workflows again (a config change such as postpone shows at once); a deleted one keeps its last info. */
    private static List<Workflows.Info> refresh(ConnectRestClient rest, List<Workflows.Info> shown) {
        List<Workflows.Info> now = Workflows.find(rest.connectorConfigs());
        List<Workflows.Info> out = new ArrayList<>();
        for (Workflows.Info i : shown) {
            out.add(Workflows.named(now, i.name()).orElse(i));
        }
        return out;
    }

    static List<StatusView.Row> rows(ConnectRestClient rest, StatusReader reader, List<Workflows.Info> shown) {
        List<StatusView.Row> rows = new ArrayList<>();
        for (Workflows.Info i : shown) {
            WorkflowHistory h = reader.histories().getOrDefault(i.name(), new WorkflowHistory(i.name()));
            rows.add(new StatusView.Row(i, WorkflowProgress.of(h, i.shardCount(), i.readyMaxLag()),
                    StatusView.connectStatus(rest, i)));
        }
        return rows;
    }

    private static int exitCode(List<StatusView.Row> rows) {
        return rows.stream().anyMatch(r -> r.progress().latest() != null && "FAILED".equals(r.progress().latest().state()))
                ? ExitCodes.FAILURE : ExitCodes.OK;
    }
}
