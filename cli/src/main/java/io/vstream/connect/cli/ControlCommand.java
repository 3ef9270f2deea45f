package io.vstream.connect.cli;

import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * The operator controls, each a documented config change of the workflow's coordinator connector (GET its config,
 * change one key, PUT it back): {@code postpone} sets {@code handoff.postpone=true}, {@code cutover} sets it back to
 * false (releasing a postponed cut-over), {@code cancel} sets {@code workflow.cancel=true}, {@code release} sets
 * {@code ddl.revert.release=true} (ending an online DDL's revert window), {@code revert} flips {@code ddl.revert}
 * (swapping a revertible online DDL's tables the other way).
 */
abstract class ControlCommand implements Callable<Integer> {
    @Mixin
    ClusterOptions cluster;

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "W", description = "The workflow (its coordinator connector's name or workflow.name).")
    String workflow;

    @Option(names = "--json", description = "Print the result as JSON.")
    boolean json;

    abstract String key();

    abstract String value();

    /** Why the command must change nothing for the workflow as it is now, or null (most commands always may). */
    String refusal(Workflows.Info info) {
        return null;
    }

    /**
     * For the revert window's commands: null when the workflow's latest status (read from its status topic) is
     * REVERTIBLE or REVERTING, or says nothing yet; else why not, with the state and its reason (a window that a value
     * the original cannot hold ended names that key).
     */
    String refusalOutsideTheRevertWindow(Workflows.Info info) {
        try (StatusReader reader = cluster.statusReader()) {
            reader.readAll(java.util.List.of(info.statusTopic()));
            WorkflowHistory h = reader.histories().get(info.name());
            StatusRecord latest = h == null ? null : h.latest();
            if (latest == null || "REVERTIBLE".equals(latest.state()) || "REVERTING".equals(latest.state())) {
                return null;
            }
            return "the workflow is " + latest.state() + (latest.reason() == null ? "" : " (" + latest.reason() + ")")
                    + ": only an online DDL in its revert window (REVERTIBLE, with ddl.revert.window.ms > 0) can be"
                    + " swapped back or released; nothing changed";
        }
    }

    /** Further keys the command sets with its own (none for most). */
    Map<String, String> alsoSet() {
        return Map.of();
    }

    /** The value to set, given the connector's current config (most commands set a fixed one). */
    String value(Map<String, String> current) {
        return value();
    }

    abstract String effect();

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        ConnectRestClient rest = cluster.rest();
        Workflows.Info info = Workflows.required(Workflows.find(rest.connectorConfigs()), workflow, rest.base());
        String refused = refusal(info);
        if (refused != null) {
            throw CliException.failure(info.name() + ": " + refused);
        }
        Map<String, String> config = new LinkedHashMap<>(rest.config(info.coordinator()));
        String before = config.get(key());
        String value = value(config);
        Map<String, String> also = alsoSet();
        boolean changed = !value.equals(before) || also.entrySet().stream()
                .anyMatch(e -> !e.getValue().equals(config.get(e.getKey())));
        if (changed) {
            config.put(key(), value);
            config.putAll(also);
            rest.putConfig(info.coordinator(), config);
        }
        if (json) {
            var n = ConnectRestClient.JSON.createObjectNode();
            n.put("workflow", info.name());
            n.put("coordinator", info.coordinator());
            n.put("key", key());
            n.put("value", value);
            n.put("previous", before);
            n.put("changed", changed);
            Output.json(out, n);
        } else if (changed) {
            out.println(info.name() + ": " + key() + "=" + value + " on connector " + info.coordinator() + "; "
                    + effect());
        } else {
            out.println(info.name() + ": " + key() + " is already " + value + "; nothing changed");
        }
        return ExitCodes.OK;
    }

    @Command(name = "postpone", mixinStandardHelpOptions = true,
            description = "Hold the cut-over: the workflow waits in POSTPONED once ready (handoff.postpone=true).")
    static final class Postpone extends ControlCommand {
        String key() {
            return "handoff.postpone";
        }

        String value() {
            return "true";
        }

        String effect() {
            return "once ready the workflow waits in POSTPONED (the stream keeps applying) until 'vsc cutover "
                    + workflow + "'";
        }
    }

    @Command(name = "cutover", mixinStandardHelpOptions = true,
            description = "Release a postponed cut-over (handoff.postpone=false).")
    static final class Cutover extends ControlCommand {
        String key() {
            return "handoff.postpone";
        }

        String value() {
            return "false";
        }

        String effect() {
            return "the cut-over runs as soon as the workflow is ready";
        }
    }

    @Command(name = "release", mixinStandardHelpOptions = true,
            description = "End a swapped online DDL's revert window now (ddl.revert.release=true): the reverse stream"
                    + " stops, the tables stay as they are, and the workflow is COMPLETE (the ALTERed tables serve) or"
                    + " REVERTED (the originals do).")
    static final class Release extends ControlCommand {
        @Option(names = "--drop", description = "Also drop, on every shard, the table that followed the serving one"
                + " (ddl.revert.drop.on.release=true): the kept original, or after a revert the ALTERed table.")
        boolean drop;

        @Override
        Map<String, String> alsoSet() {
            return drop ? Map.of("ddl.revert.drop.on.release", "true") : Map.of();
        }

        String key() {
            return "ddl.revert.release";
        }

        String value() {
            return "true";
        }

        @Override
        String refusal(Workflows.Info info) {
            return refusalOutsideTheRevertWindow(info);
        }

        String effect() {
            return "the coordinator ends the revert window at its next round (state COMPLETE, or REVERTED if the"
                    + " original tables serve); " + (drop ? "the tables that followed the serving ones are dropped"
                    : "the tables are kept as they are");
        }
    }

    @Command(name = "revert", mixinStandardHelpOptions = true,
            description = "Swap a revertible online DDL's tables the other way (flips ddl.revert): the original tables"
                    + " back in (REVERTING, then REVERTIBLE with the ALTERed tables following), or, run again while"
                    + " the window is open, the ALTERed tables back in. The same cut-over as the ALTER's, on every"
                    + " shard.")
    static final class Revert extends ControlCommand {
        private boolean toOriginal = true;

        String key() {
            return "ddl.revert";
        }

        String value() {
            return String.valueOf(toOriginal);
        }

        @Override
        String refusal(Workflows.Info info) {
            return refusalOutsideTheRevertWindow(info);
        }

        @Override
        String value(Map<String, String> current) {
            toOriginal = !Boolean.parseBoolean(current.getOrDefault(key(), "false"));
            return value();
        }

        String effect() {
            return toOriginal
                    ? "the original tables are swapped back in on every shard (REVERTING); 'vsc status " + workflow
                    + "' follows it"
                    : "the ALTERed tables are swapped back in on every shard (REVERTING); 'vsc status " + workflow
                    + "' follows it";
        }
    }

    @Command(name = "cancel", mixinStandardHelpOptions = true,
            description = "Cancel the workflow (workflow.cancel=true): appliers retired, ghost tables dropped, original"
                    + " tables untouched. A complete workflow cannot be cancelled.")
    static final class Cancel extends ControlCommand {
        String key() {
            return "workflow.cancel";
        }

        String value() {
            return "true";
        }

        String effect() {
            return "the coordinator cancels the workflow at its next round (state CANCELLED)";
        }
    }
}
