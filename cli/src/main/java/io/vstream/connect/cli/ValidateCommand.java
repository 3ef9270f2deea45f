package io.vstream.connect.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
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
 * {@code vsc validate FILE...}: sends each connector configuration file (the form config-examples/ uses: one flat
 * JSON object) to {@code PUT /connector-plugins/{class}/config/validate} and prints the errors by field.
 */
@Command(name = "validate", mixinStandardHelpOptions = true,
        description = "Validate connector configuration files on the cluster; print errors by field.")
final class ValidateCommand implements Callable<Integer> {
    @Mixin
    ClusterOptions cluster;

    @Spec
    CommandSpec spec;

    @Parameters(arity = "1..*", paramLabel = "FILE", description = "JSON files as in config-examples/.")
    List<Path> files;

    @Option(names = "--json", description = "Print the result as JSON.")
    boolean json;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        Map<Path, Map<String, String>> configs = new LinkedHashMap<>();
        for (Path f : files) {
            configs.put(f, read(f));
        }
        ConnectRestClient rest = cluster.rest();
        ArrayNode report = ConnectRestClient.JSON.createArrayNode();
        int errors = 0;
        for (Map.Entry<Path, Map<String, String>> e : configs.entrySet()) {
            Map<String, String> c = e.getValue();
            c.putIfAbsent("name", e.getKey().getFileName().toString().replaceAll("\\.json$", ""));
            ValidationResult r = rest.validate(c.get("connector.class"), c);
            errors += r.errorCount();
            if (json) {
                ObjectNode n = report.addObject();
                n.put("file", e.getKey().toString());
                n.put("connector_class", c.get("connector.class"));
                n.put("error_count", r.errorCount());
                n.set("errors", ConnectRestClient.JSON.valueToTree(r.errors()));
            } else {
                out.println(e.getKey() + ": " + (r.ok() ? "ok" : r.errorCount() + " error(s)"));
                Output.errors(out, "  ", r);
            }
        }
        if (json) {
            Output.json(out, report);
        }
        return errors == 0 ? ExitCodes.OK : ExitCodes.FAILURE;
    }

    /** The file as a flat map of strings; a usage error (exit 2) when it is not one, or has no connector.class. */
    static Map<String, String> read(Path f) {
        JsonNode root;
        try {
            root = ConnectRestClient.JSON.readTree(f.toFile());
        } catch (IOException e) {
            throw CliException.usage(f + " is not readable JSON: " + e.getMessage());
        }
        if (root == null || !root.isObject()) {
            throw CliException.usage(f + " must hold one JSON object of configuration keys (as config-examples/)");
        }
        Map<String, String> out = new LinkedHashMap<>();
        root.properties().forEach(e -> out.put(e.getKey(), e.getValue().isNull() ? null
                : e.getValue().isValueNode() ? e.getValue().asText() : e.getValue().toString()));
        if (out.get("connector.class") == null || out.get("connector.class").isBlank()) {
            throw CliException.usage(f + " has no connector.class");
        }
        return out;
    }
}
