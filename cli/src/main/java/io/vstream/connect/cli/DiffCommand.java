package io.vstream.connect.cli;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code vsc diff W}: asks the workflow's coordinator to compare its target with its source on demand (sets a fresh
 * {@code diff.request} on the coordinator connector), then follows the status topic, printing the progress, until the
 * coordinator answers: exit 0 when equal, {@link ExitCodes#DIFFERENT} naming the keys that differ, 1 when the diff
 * could not run (with the reason). The coordinator does the comparing, at exact positions (docs/diff.md).
 */
@Command(name = "diff", mixinStandardHelpOptions = true,
        description = "Compare a workflow's target with its source now, at exact positions, naming the keys that"
                + " differ. Exit 0 equal, 4 different, 1 could not compare.")
final class DiffCommand implements Callable<Integer> {
    static final String KEY = "diff.request";

    @Mixin
    ClusterOptions cluster;

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "W", description = "The workflow (its coordinator connector's name or workflow.name).")
    String workflow;

    @Option(names = "--no-wait", description = "Only request the diff; follow it with 'vsc status W'.")
    boolean noWait;

    @Option(names = "--max-wait-s", defaultValue = "0", paramLabel = "S",
            description = "Give up waiting for the result after S seconds with exit 1 (default 0: never).")
    long maxWaitSeconds;

    @Option(names = "--json", description = "Print the result as JSON.")
    boolean json;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        ConnectRestClient rest = cluster.rest();
        Workflows.Info info = Workflows.required(Workflows.find(rest.connectorConfigs()), workflow, rest.base());
        String id = "diff-" + System.currentTimeMillis();
        Map<String, String> config = new LinkedHashMap<>(rest.config(info.coordinator()));
        config.put(KEY, id);
        rest.putConfig(info.coordinator(), config);
        if (noWait) {
            if (json) {
                var n = ConnectRestClient.JSON.createObjectNode();
                n.put("workflow", info.name());
                n.put("id", id);
                Output.json(out, n);
            } else {
                out.println(info.name() + ": diff " + id + " requested (" + KEY + " on connector "
                        + info.coordinator() + "); follow it with 'vsc status " + info.name() + "'");
            }
            return ExitCodes.OK;
        }
        if (!json) {
            out.println(info.name() + ": diff " + id + " requested; the coordinator compares its target with its"
                    + " source");
            out.flush();
        }
        long deadline = maxWaitSeconds > 0 ? System.nanoTime() + Duration.ofSeconds(maxWaitSeconds).toNanos() : 0;
        try (StatusReader reader = cluster.statusReader()) {
            reader.readAll(List.of(info.statusTopic()));
            String shown = null;
            while (true) {
                WorkflowHistory h = reader.histories().get(info.name());
                StatusRecord latest = h == null ? null : h.latest();
                StatusRecord.Diff d = latest == null ? null : latest.diff();
                if (d != null && id.equals(d.id())) {
                    if (d.isFinal()) {
                        return result(out, info, d);
                    }
                    String line = StatusView.diff(d);
                    if (!json && !line.equals(shown)) {
                        out.println("  " + line);
                        out.flush();
                    }
                    shown = line;
                }
                if (deadline != 0 && System.nanoTime() > deadline) {
                    spec.commandLine().getErr().println("vsc: gave up waiting for diff " + id + " after "
                            + maxWaitSeconds + " s; it goes on: 'vsc status " + info.name() + "' shows it");
                    return ExitCodes.FAILURE;
                }
                reader.poll(Duration.ofMillis(500));
            }
        }
    }

    private int result(PrintWriter out, Workflows.Info info, StatusRecord.Diff d) {
        int code = switch (d.state()) {
            case "EQUAL" -> ExitCodes.OK;
            case "DIFFERENT" -> ExitCodes.DIFFERENT;
            default -> ExitCodes.FAILURE;
        };
        if (json) {
            var n = StatusView.diffJson(d);
            n.put("workflow", info.name());
            Output.json(out, n);
            return code;
        }
        switch (d.state()) {
            case "EQUAL" -> out.println(info.name() + ": EQUAL: " + count(d) + " compared, no difference (each"
                    + " slice at its own source position, the last at " + d.position() + ")");
            case "DIFFERENT" -> {
                out.println(info.name() + ": DIFFERENT: " + d.differences() + (d.differences() == 1 ? " difference"
                        : " differences") + " in " + count(d) + " compared:");
                d.details().forEach(x -> out.println("  " + x));
            }
            default -> out.println(info.name() + ": the diff could not run: " + d.reason());
        }
        return code;
    }

    private static String count(StatusRecord.Diff d) {
        return String.format(java.util.Locale.ROOT, "%,d rows of %d tables", d.rowsCompared() == null ? 0
                : d.rowsCompared(), d.tablesTotal() == null ? 0 : d.tablesTotal());
    }
}
