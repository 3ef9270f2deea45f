package io.vstream.connect.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Finds the workflows of a Connect cluster from its connectors' configurations: every coordinator is a workflow; its
 * sink is the connector whose stream is the coordinator's {@code applier.stream}; its source is the source connector
 * whose topics the sink reads. No I/O: the configurations come from {@code GET /connectors?expand=info}.
 */
public final class Workflows {
    private Workflows() {
    }

    /** A workflow and the names of its connectors (source or sink null when not found). */
    public record Info(String name, String type, String coordinator, String source, String sink, String statusTopic,
                       int shardCount, long readyMaxLag, boolean postponed, boolean cancelled) {
    }

    public static List<Info> find(Map<String, Map<String, String>> configs) {
        List<Info> out = new ArrayList<>();
        for (Map.Entry<String, Map<String, String>> e : configs.entrySet()) {
            Map<String, String> c = e.getValue();
            if (!ConnectorConfig.COORDINATOR_CLASS.equals(c.get("connector.class"))) {
                continue;
            }
            String coordinator = e.getKey();
            String name = blank(c.get("workflow.name")) ? coordinator : c.get("workflow.name");
            String type = blank(c.get("workflow")) ? "clone" : c.get("workflow").toLowerCase(java.util.Locale.ROOT);
            String stream = c.get("applier.stream");
            String sink = sinkOf(configs, stream).orElse(null);
            String source = sink == null ? null : sourceOf(configs, configs.get(sink)).orElse(null);
            int shards = 0;
            if (!blank(c.get("shards"))) {
                shards = c.get("shards").split(",").length;
            }
            long readyMaxLag = parseLong(c.get("ready.max.lag.transactions"), 100);
            out.add(new Info(name, type, coordinator, source, sink,
                    blank(c.get("status.topic")) ? "vstream.status" : c.get("status.topic"), shards, readyMaxLag,
                    Boolean.parseBoolean(c.get("handoff.postpone")), Boolean.parseBoolean(c.get("workflow.cancel"))));
        }
        return out;
    }

    /** The workflow named {@code name} (its workflow name or its coordinator's connector name). */
    public static Optional<Info> named(List<Info> all, String name) {
        return all.stream().filter(i -> i.name().equals(name)).findFirst()
                .or(() -> all.stream().filter(i -> i.coordinator().equals(name)).findFirst());
    }

    /** {@link #named}, or the failure (exit 1) every command reports for an unknown workflow on {@code cluster}. */
    public static Info required(List<Info> all, String name, java.net.URI cluster) {
        return named(all, name).orElseThrow(() -> CliException.failure("no workflow " + name + " on " + cluster
                + ": no coordinator connector has that name or workflow.name"));
    }

    private static Optional<String> sinkOf(Map<String, Map<String, String>> configs, String stream) {
        if (blank(stream)) {
            return Optional.empty();
        }
        for (Map.Entry<String, Map<String, String>> e : configs.entrySet()) {
            Map<String, String> c = e.getValue();
            if (ConnectorConfig.SINK_CLASS.equals(c.get("connector.class"))
                    && stream.equals(blank(c.get("stream.name")) ? e.getKey() : c.get("stream.name"))) {
                return Optional.of(e.getKey());
            }
        }
        return Optional.empty();
    }

    private static Optional<String> sourceOf(Map<String, Map<String, String>> configs, Map<String, String> sink) {
        String topics = sink.get("topics");
        if (blank(topics)) {
            return Optional.empty();
        }
        String first = topics.split(",")[0].strip();
        for (Map.Entry<String, Map<String, String>> e : configs.entrySet()) {
            Map<String, String> c = e.getValue();
            if (ConnectorConfig.SOURCE_CLASS.equals(c.get("connector.class")) && !blank(c.get("topic.prefix"))
                    && !blank(c.get("keyspace"))
                    && first.startsWith(c.get("topic.prefix") + "." + c.get("keyspace") + ".")) {
                return Optional.of(e.getKey());
            }
        }
        return Optional.empty();
    }

    private static boolean blank(String s) {
        return s == null || s.isBlank();
    }

    private static long parseLong(String s, long dflt) {
        try {
            return blank(s) ? dflt : Long.parseLong(s.strip());
        } catch (NumberFormatException e) {
            return dflt;
        }
    }
}
