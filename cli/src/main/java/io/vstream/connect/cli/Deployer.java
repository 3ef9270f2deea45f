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
            rest.putConfig(c.name(), c.config());
            ((ObjectNode) list.get(i++)).put("deployed", true);
            if (!json) {
                out.println("deployed " + c.role().label() + " " + c.name());
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
}
