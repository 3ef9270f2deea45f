package io.vstream.connect.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Deploys a workflow's connectors: validates each configuration on the cluster first
 * ({@code PUT /connector-plugins/{class}/config/validate}) and deploys none if any has an error; then
 * {@code PUT /connectors/{name}/config} for each, in order. {@code --dry-run} only prints the configurations.
 */
final class Deployer {
    private Deployer() {
    }

    static int run(ClusterOptions cluster, String workflow, List<ConnectorConfig> configs, boolean dryRun,
                   boolean json, PrintWriter out) {
        ObjectNode report = ConnectRestClient.JSON.createObjectNode();
        report.put("workflow", workflow);
        report.put("dry_run", dryRun);
        ArrayNode list = report.putArray("connectors");
        if (dryRun) {
            for (ConnectorConfig c : configs) {
                ObjectNode n = list.addObject();
                n.put("role", c.role().label());
                n.put("name", c.name());
                n.set("config", ConnectRestClient.JSON.valueToTree(c.masked()));
            }
            if (json) {
                Output.json(out, report);
            } else {
                for (ConnectorConfig c : configs) {
                    out.println("# " + c.role().label() + ": PUT /connectors/" + c.name() + "/config");
                    out.println(Output.pretty(ConnectRestClient.JSON.valueToTree(c.masked())));
                }
            }
            return ExitCodes.OK;
        }
        ConnectRestClient rest = cluster.rest();
        Map<ConnectorConfig, ValidationResult> results = new LinkedHashMap<>();
        int errors = 0;
        for (ConnectorConfig c : configs) {
            Map<String, String> withName = new LinkedHashMap<>(c.config());
            withName.put("name", c.name());
            ValidationResult r = rest.validate(c.connectorClass(), withName);
            results.put(c, r);
            errors += r.errorCount();
        }
        for (ConnectorConfig c : configs) {
            ValidationResult r = results.get(c);
            ObjectNode n = list.addObject();
            n.put("role", c.role().label());
            n.put("name", c.name());
            n.put("error_count", r.errorCount());
            n.set("errors", ConnectRestClient.JSON.valueToTree(r.errors()));
            n.put("deployed", false);
            if (!json) {
                out.println("validate " + c.role().label() + " " + c.name() + ": "
                        + (r.ok() ? "ok" : r.errorCount() + " error(s)"));
                Output.errors(out, "  ", r);
            }
        }
        if (errors > 0) {
            report.put("error_count", errors);
            if (json) {
                Output.json(out, report);
            } else {
                out.println("nothing deployed: fix the " + errors + " error(s) above");
            }
            return ExitCodes.FAILURE;
        }
        int i = 0;
        for (ConnectorConfig c : configs) {
            try {
                putWithRetries(rest, c);
            } catch (CliException e) {
                throw new CliException(e.exitCode(), e.getMessage() + "; " + halfDeployed(rest, configs, i)
                        + ". Run the same vsc start again to finish: deploying is idempotent (PUT replaces a"
                        + " connector's config with the same one)", e);
            }
            ((ObjectNode) list.get(i++)).put("deployed", true);
            if (!json) {
                out.println("deployed " + c.role().label() + " " + c.name());
            }
            if (c.role() == ConnectorConfig.Role.COORDINATOR) {
                // the coordinator refuses at start what it cannot run (a stored state of another workflow under
                // this name): say so instead of "started", and deploy nothing more
                String failure = startFailure(rest, c.name());
                if (failure != null) {
                    report.put("error_count", 1);
                    report.put("failure", failure);
                    if (json) {
                        Output.json(out, report);
                    } else {
                        out.println("the coordinator " + c.name() + " failed as it started; nothing more deployed:");
                        out.println("  " + failure);
                    }
                    return ExitCodes.FAILURE;
                }
            }
        }
        report.put("error_count", 0);
        if (json) {
            Output.json(out, report);
        } else {
            out.println("workflow " + workflow + " started; follow it with: vsc status " + workflow + " --watch");
        }
        return ExitCodes.OK;
    }

    private static final int PUT_ATTEMPTS = 3;
    private static final long START_WAIT_MS = 30_000;

    /**
     * Waits (up to {@value #START_WAIT_MS} ms) for the connector's task to run; the first line of its error when it
     * failed, {@code null} when it runs or has not started yet (a busy cluster: {@code vsc status} follows it).
     */
    static String startFailure(ConnectRestClient rest, String name) {
        long deadline = System.nanoTime() + START_WAIT_MS * 1_000_000L;
        while (System.nanoTime() < deadline) {
            com.fasterxml.jackson.databind.JsonNode status = rest.status(name);
            if (status != null) {
                for (com.fasterxml.jackson.databind.JsonNode t : status.path("tasks")) {
                    String state = t.path("state").asText();
                    if ("FAILED".equals(state)) {
                        return firstLine(t.path("trace").asText("the task failed"));
                    }
                    if ("RUNNING".equals(state)) {
                        return null;
                    }
                }
            }
            try {
                Thread.sleep(500);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return null;
            }
        }
        return null;
    }

    /** The exception's message line of a Java stack trace, without the exception's class name. */
    static String firstLine(String trace) {
        String line = trace.lines().findFirst().orElse(trace).strip();
        int colon = line.indexOf(": ");
        return colon > 0 && !line.substring(0, colon).contains(" ") ? line.substring(colon + 2) : line;
    }

    /**
     * {@code PUT /connectors/{name}/config}, tried again when the REST API did not answer (a timeout may come after
     * Connect has stored the config: PUT is idempotent, so trying again is safe).
     */
    private static void putWithRetries(ConnectRestClient rest, ConnectorConfig c) {
        for (int attempt = 1; ; attempt++) {
            try {
                rest.putConfig(c.name(), c.config());
                return;
            } catch (CliException e) {
                if (e.exitCode() != ExitCodes.UNREACHABLE || attempt == PUT_ATTEMPTS) {
                    throw e;
                }
                try {
                    Thread.sleep(1_000L * attempt);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    throw e;
                }
            }
        }
    }

    /** Which of the workflow's connectors the cluster has now, as far as it answers. */
    private static String halfDeployed(ConnectRestClient rest, List<ConnectorConfig> configs, int failedAt) {
        String stopped = "stopped at " + configs.get(failedAt).name();
        try {
            List<String> existing = rest.connectors();
            List<String> have = new java.util.ArrayList<>();
            List<String> missing = new java.util.ArrayList<>();
            for (ConnectorConfig c : configs) {
                (existing.contains(c.name()) ? have : missing).add(c.name());
            }
            return stopped + "; the cluster has " + (have.isEmpty() ? "none of them" : have) + (missing.isEmpty()
                    ? "" : ", not " + missing);
        } catch (CliException e) {
            return stopped + "; which of " + configs.stream().map(ConnectorConfig::name).toList()
                    + " the cluster has is unknown (it does not answer)";
        }
    }
}
