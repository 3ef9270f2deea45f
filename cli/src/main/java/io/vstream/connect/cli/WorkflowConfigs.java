package io.vstream.connect.cli;

import io.vstream.connect.cli.ConnectorConfig.Role;
import io.vstream.connect.cli.Endpoints.HostPort;
import io.vstream.connect.core.event.TopicNames;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Generates the three connector configurations of a workflow with exactly the keys of config-examples/ for that
 * workflow (online DDL: online-ddl-{source,sink,coordinator}.json; clone: clone-source.json,
 * clone-sink.json, clone-coordinator.json). Naming: the coordinator is the workflow's name {@code W} (so its status
 * records are keyed by {@code W} and the migration id is {@code W}), the source {@code W-source}, the sink
 * {@code W-sink} (its stream name, the coordinator's {@code applier.stream}). The list is in deployment order:
 * coordinator first (the clone preflight checks the target before the applier writes; the ghost sink waits for the
 * coordinator's plan), then the source, then the sink. No I/O.
 */
public final class WorkflowConfigs {
    private WorkflowConfigs() {
    }

    /**
     * What every workflow shares: names, topics, per-role overrides ({@code --set role:key=value}) and the Connect
     * REST URL through which the coordinator watches the workflow's source and sink.
     */
    public record Common(String name, String statusTopic, String topicPrefix, String replicationFactor,
                         Map<Role, Map<String, String>> overrides, String watchUrl, Tls tls) {
        public Common {
            overrides = overrides == null ? Map.of() : overrides;
            tls = tls == null ? Tls.NONE : tls;
        }

        public Common(String name, String statusTopic, String topicPrefix, String replicationFactor,
                      Map<Role, Map<String, String>> overrides, String watchUrl) {
            this(name, statusTopic, topicPrefix, replicationFactor, overrides, watchUrl, Tls.NONE);
        }

        String prefix() {
            return topicPrefix == null || topicPrefix.isBlank() ? name : topicPrefix;
        }
    }

    /**
     * {@code --ssl-mode} and {@code --ssl-ca}: the TLS of every connection of the workflow (its servers share a CA),
     * written into each connector's keys for the servers it reaches (docs/tls.md); none set: the connectors'
     * default ({@code disable}).
     */
    public record Tls(String mode, String ca) {
        public static final Tls NONE = new Tls(null, null);

        void putInto(Map<String, String> config, String prefix) {
            putIfSet(config, prefix + "ssl.mode", mode);
            putIfSet(config, prefix + "ssl.ca", ca);
        }
    }

    /** {@code vsc start online-ddl}. */
    public record OnlineDdl(Common common, String keyspace, String database, String table, String alter,
                            LinkedHashMap<String, HostPort> shards, String user, String password, boolean postpone,
                            String cutoverMode, long lockTimeoutMs, long heartbeatMs, long revertWindowMs) {
    }

    /** {@code vsc start clone}: one source shard into an empty target, handed over to native replication. */
    public record Clone(Common common, String keyspace, String database, HostPort source,
                        HostPort target, String tables, String user, String password, String applierUser,
                        String applierPassword, String targetUser, String targetPassword, String replicationUser,
                        String replicationPassword, String tableEngine, boolean postpone) {
    }

    /** {@code vsc start reshard}: the keyspace's old shards into new ones, switched with a journal. */
    public record Reshard(Common common, String keyspace, String database, LinkedHashMap<String, HostPort> from,
                          LinkedHashMap<String, HostPort> to, String vindex, String columns, String columnDefault,
                          String user, String password, boolean postpone) {
    }

    public static String sourceName(String workflow) {
        return workflow + "-source";
    }

    public static String sinkName(String workflow) {
        return workflow + "-sink";
    }

    public static List<ConnectorConfig> onlineDdl(OnlineDdl w) {
        Common c = w.common();
        String topology = Endpoints.topology(w.shards());
        String database = w.database() == null || w.database().isBlank() ? w.keyspace() : w.database();

        Map<String, String> coord = new LinkedHashMap<>();
        coord.put("connector.class", ConnectorConfig.COORDINATOR_CLASS);
        coord.put("tasks.max", "1");
        coord.put("workflow", "online-ddl");
        coord.put("shards", topology);
        coord.put("source.user", w.user());
        coord.put("source.password", w.password());
        coord.put("ddl.database", database);
        coord.put("ddl.table", w.table());
        coord.put("ddl.alter", w.alter());
        coord.put("ddl.migration", c.name());
        coord.put("ddl.copy.start", "at-once"); // the source starts where the copy does (start.mode=migration)
        coord.put("applier.stream", sinkName(c.name()));
        coord.put("status.topic", c.statusTopic());
        coord.put("cutover.mode", w.cutoverMode());
        coord.put("cutover.lock.timeout.ms", String.valueOf(w.lockTimeoutMs()));
        coord.put("handoff.postpone", String.valueOf(w.postpone()));
        coord.put("ddl.revert.window.ms", String.valueOf(w.revertWindowMs()));
        coord.put("topic.creation.default.partitions", "1");
        coord.put("topic.creation.default.replication.factor", c.replicationFactor());

        Map<String, String> source = new LinkedHashMap<>();
        source.put("connector.class", ConnectorConfig.SOURCE_CLASS);
        source.put("tasks.max", String.valueOf(w.shards().size()));
        source.put("keyspace", w.keyspace());
        source.put("database", database);
        source.put("topology", topology);
        source.put("user", w.user());
        source.put("password", w.password());
        source.put("topic.prefix", c.prefix());
        // the coordinator copies the rows on each shard (ddl.copy.method=server) from the position it records there,
        // and the stream starts at it
        source.put("start.mode", "migration");
        source.put("start.migration", c.name());
        source.put("table.include.list", w.table());
        source.put("heartbeat.interval.ms", String.valueOf(w.heartbeatMs()));
        source.put("topic.creation.default.partitions", "1");
        source.put("topic.creation.default.replication.factor", c.replicationFactor());
        producerBatching(source);
        // only the changes travel (the server copy): a linger would add to the cut-over's wait for the applier
        source.remove("producer.override.linger.ms");
        compactSource(source);

        List<String> topics = new ArrayList<>();
        w.shards().keySet().forEach(s -> topics.add(TopicNames.shardTopic(c.prefix(), w.keyspace(), s)));
        Map<String, String> sink = new LinkedHashMap<>();
        sink.put("connector.class", ConnectorConfig.SINK_CLASS);
        sink.put("tasks.max", String.valueOf(topics.size())); // one applier task per shard
        sink.put("topics", String.join(",", topics));
        sink.put("mode", "ghost");
        compactSink(sink);
        sink.put("ghost.migration", c.name());
        sink.put("target.topology", topology);
        sink.put("target.user", w.user());
        sink.put("target.password", w.password());
        sink.put("consumer.override.metadata.max.age.ms", "10000");
        sink.put("consumer.override.partition.assignment.strategy", ROUND_ROBIN); // each task its own shards
        return assemble(c, coord, source, sink);
    }

    /** The consumer assignment that spreads single-partition shard topics over the tasks (docs/sink.md). */
    static final String ROUND_ROBIN = "org.apache.kafka.clients.consumer.RoundRobinAssignor";
    /** Copy rows per ROWS record on a clone's or reshard's source (docs/benchmarks.md measures the gain). */
    static final String COPY_ROWS_PER_RECORD = "500";

    public static List<ConnectorConfig> clone(Clone w) {
        Common c = w.common();
        String database = w.database() == null || w.database().isBlank() ? w.keyspace() : w.database();
        String applierUser = w.applierUser() == null || w.applierUser().isBlank() ? w.targetUser() : w.applierUser();
        String applierPassword = w.applierUser() == null || w.applierUser().isBlank() ? w.targetPassword()
                : w.applierPassword();

        Map<String, String> coord = new LinkedHashMap<>();
        coord.put("connector.class", ConnectorConfig.COORDINATOR_CLASS);
        coord.put("tasks.max", "1");
        coord.put("workflow", "clone");
        coord.put("applier.stream", sinkName(c.name()));
        coord.put("status.topic", c.statusTopic());
        coord.put("source.host", w.source().host());
        coord.put("source.port", String.valueOf(w.source().port()));
        coord.put("source.user", w.user());
        coord.put("source.password", w.password());
        coord.put("target.host", w.target().host());
        coord.put("target.port", String.valueOf(w.target().port()));
        coord.put("target.user", w.targetUser());
        coord.put("target.password", w.targetPassword());
        coord.put("replication.user", w.replicationUser());
        coord.put("replication.password", w.replicationPassword());
        coord.put("handoff.postpone", String.valueOf(w.postpone()));
        coord.put("topic.creation.default.partitions", "1");
        coord.put("topic.creation.default.replication.factor", c.replicationFactor());

        Map<String, String> source = new LinkedHashMap<>();
        source.put("connector.class", ConnectorConfig.SOURCE_CLASS);
        source.put("tasks.max", "1");
        source.put("keyspace", w.keyspace());
        source.put("database", database);
        // the one server as an unsharded stream: a shard's name alone would not cover the key space (validation)
        source.put("topology", "-=" + w.source());
        source.put("user", w.user());
        source.put("password", w.password());
        source.put("topic.prefix", c.prefix());
        source.put("start.mode", "copy");
        source.put("heartbeat.interval.ms", "1000");
        if (w.tables() != null && !w.tables().isBlank()) {
            source.put("table.include.list", w.tables());
        }
        source.put("topic.creation.default.partitions", "1");
        source.put("topic.creation.default.replication.factor", c.replicationFactor());
        producerBatching(source);
        compactSource(source);
        source.put("copy.rows.per.record", COPY_ROWS_PER_RECORD);
        source.put("exactly.once.support", "requested");
        source.put("transaction.boundary", "connector");

        Map<String, String> sink = new LinkedHashMap<>();
        sink.put("connector.class", ConnectorConfig.SINK_CLASS);
        sink.put("tasks.max", "1");
        sink.put("topics", TopicNames.shardTopic(c.prefix(), w.keyspace(), "-"));
        sink.put("mode", "clone");
        compactSink(sink);
        sink.put("target.host", w.target().host());
        sink.put("target.port", String.valueOf(w.target().port()));
        sink.put("target.user", applierUser);
        sink.put("target.password", applierPassword);
        sink.put("target.binlog", "off");
        sink.put("table.create", "true");
        sink.put("table.engine", w.tableEngine());
        sink.put("ddl.apply", "true");
        sink.put("state.database", "_vstream");
        sink.put("errors.tolerance", "none");
        sink.put("consumer.override.max.poll.records", "2000");
        return assemble(c, coord, source, sink);
    }

    /** The keys of config-examples/reshard-{source,sink,coordinator}.json. */
    public static List<ConnectorConfig> reshard(Reshard w) {
        Common c = w.common();
        String from = Endpoints.topology(w.from());
        String to = Endpoints.topology(w.to());
        String database = w.database() == null || w.database().isBlank() ? w.keyspace() : w.database();
        Map<String, String> coord = new LinkedHashMap<>();
        coord.put("connector.class", ConnectorConfig.COORDINATOR_CLASS);
        coord.put("tasks.max", "1");
        coord.put("workflow", "reshard");
        coord.put("workflow.name", c.name());
        coord.put("reshard.keyspace", w.keyspace());
        coord.put("reshard.database", database);
        coord.put("shards", from);
        coord.put("reshard.target.shards", to);
        coord.put("source.user", w.user());
        coord.put("source.password", w.password());
        coord.put("reshard.vindex", w.vindex());
        putIfSet(coord, "reshard.columns", w.columns());
        putIfSet(coord, "reshard.column.default", w.columnDefault());
        coord.put("applier.stream", sinkName(c.name()));
        coord.put("status.topic", c.statusTopic());
        coord.put("handoff.postpone", String.valueOf(w.postpone()));
        coord.put("ready.max.lag.transactions", "100");
        coord.put("handoff.stop.timeout.ms", "60000");
        coord.put("topic.creation.default.partitions", "1");
        coord.put("topic.creation.default.replication.factor", c.replicationFactor());

        Map<String, String> source = new LinkedHashMap<>();
        source.put("connector.class", ConnectorConfig.SOURCE_CLASS);
        source.put("tasks.max", String.valueOf(w.from().size()));
        source.put("keyspace", w.keyspace());
        source.put("database", database);
        source.put("topology", from);
        source.put("user", w.user());
        source.put("password", w.password());
        source.put("topic.prefix", c.prefix());
        source.put("start.mode", "copy");
        source.put("heartbeat.interval.ms", "500");
        source.put("reshard.journal.database", "_vstream");
        source.put("reshard.fallback", "copy");
        source.put("topic.creation.default.partitions", "1");
        source.put("topic.creation.default.replication.factor", c.replicationFactor());
        producerBatching(source);
        compactSource(source);
        source.put("copy.rows.per.record", COPY_ROWS_PER_RECORD);

        List<String> topics = new ArrayList<>();
        w.from().keySet().forEach(shard -> topics.add(TopicNames.shardTopic(c.prefix(), w.keyspace(), shard)));
        Map<String, String> sink = new LinkedHashMap<>();
        sink.put("connector.class", ConnectorConfig.SINK_CLASS);
        sink.put("tasks.max", String.valueOf(w.from().size()));
        sink.put("topics", String.join(",", topics));
        sink.put("mode", "reshard");
        compactSink(sink);
        sink.put("target.topology", to);
        sink.put("target.user", w.user());
        sink.put("target.password", w.password());
        sink.put("reshard.vindex", w.vindex());
        putIfSet(sink, "reshard.columns", w.columns());
        putIfSet(sink, "reshard.column.default", w.columnDefault());
        sink.put("table.create", "true");
        sink.put("table.engine", "InnoDB");
        sink.put("ddl.apply", "true");
        sink.put("state.database", "_vstream");
        sink.put("errors.tolerance", "none");
        sink.put("consumer.override.max.poll.records", "2000");
        sink.put("consumer.override.metadata.max.age.ms", "10000");
        return assemble(c, coord, source, sink);
    }

    /**
     * The workflow source's converter: Kafka's JsonConverter's bytes, written at a fraction of its cost (core's
     * {@code SchemaCachingJsonConverter}, in every vstream-connect plugin).
     */
    static final String SOURCE_CONVERTER = "io.vstream.connect.core.convert.SchemaCachingJsonConverter";
    /**
     * The workflow sink's value converter: the JSON bytes as they are, which the sink reads in one pass straight into
     * rows typed by their table's FIELD record (docs/sink.md, "Record format"); JsonConverter would first build a tree
     * and maps of them.
     */
    static final String SINK_CONVERTER = "org.apache.kafka.connect.converters.ByteArrayConverter";
    /** The workflow sink's key converter: JSON without schemas (the key names a row in the sink's messages). */
    static final String SINK_KEY_CONVERTER = "org.apache.kafka.connect.json.JsonConverter";

    /**
     * The workflow stream's compact record format on a source: JSON without schemas (a row record of ~0.3 KB
     * instead of ~3 KB), the sink typing each row by the row schema its table's FIELD record carries (docs/sink.md,
     * "Record format"). Set on the connector, so the worker's converter (often with schemas, for CDC) stays as it is.
     */
    private static void compactSource(Map<String, String> source) {
        source.put("key.converter", SOURCE_CONVERTER);
        source.put("key.converter.schemas.enable", "false");
        source.put("value.converter", SOURCE_CONVERTER);
        source.put("value.converter.schemas.enable", "false");
    }

    /** The sink's side of {@link #compactSource}: keys as JSON without schemas, values as their bytes. */
    private static void compactSink(Map<String, String> sink) {
        sink.put("key.converter", SINK_KEY_CONVERTER);
        sink.put("key.converter.schemas.enable", "false");
        sink.put("value.converter", SINK_CONVERTER); // ByteArrayConverter: no schemas.enable
    }

    /**
     * The producer settings docs/benchmarks.md measured at about 4x the default's rate: large batches, a short linger,
     * lz4 (a record with its schema is ~3 KB of JSON).
     */
    private static void producerBatching(Map<String, String> source) {
        source.put("producer.override.batch.size", "1048576");
        source.put("producer.override.linger.ms", "20");
        source.put("producer.override.compression.type", "lz4");
        // rows up to 8 MB (docs/source.md, "Large rows"); Kafka's defaults stop at 1 MiB
        source.put("producer.override.max.request.size", "8388608");
        source.put("topic.creation.default.max.message.bytes", "8388608");
    }

    private static void putIfSet(Map<String, String> m, String key, String value) {
        if (value != null && !value.isBlank()) {
            m.put(key, value);
        }
    }

    private static List<ConnectorConfig> assemble(Common c, Map<String, String> coord, Map<String, String> source,
                                                  Map<String, String> sink) {
        coord.put("watch.connect.url", c.watchUrl());
        coord.put("watch.connectors", sourceName(c.name()) + "," + sinkName(c.name()));
        c.tls().putInto(coord, "source.");
        c.tls().putInto(coord, "target.");
        c.tls().putInto(source, "");
        c.tls().putInto(sink, "target.");
        coord.putAll(c.overrides().getOrDefault(Role.COORDINATOR, Map.of()));
        source.putAll(c.overrides().getOrDefault(Role.SOURCE, Map.of()));
        sink.putAll(c.overrides().getOrDefault(Role.SINK, Map.of()));
        return List.of(new ConnectorConfig(Role.COORDINATOR, c.name(), coord),
                new ConnectorConfig(Role.SOURCE, sourceName(c.name()), source),
                new ConnectorConfig(Role.SINK, sinkName(c.name()), sink));
    }

    /**
     * Parses {@code --set role:key=value} (role: source, sink or coordinator) into per-role overrides; a usage
     * error names a malformed entry.
     */
    public static Map<Role, Map<String, String>> overrides(List<String> entries) {
        Map<Role, Map<String, String>> out = new LinkedHashMap<>();
        for (String e : entries == null ? List.<String>of() : entries) {
            int colon = e.indexOf(':');
            int eq = e.indexOf('=');
            if (colon <= 0 || eq < colon + 2) {
                throw CliException.usage("--set '" + e + "' must be <source|sink|coordinator>:<key>=<value>,"
                        + " e.g. coordinator:poll.interval.ms=500");
            }
            Role role;
            try {
                role = Role.valueOf(e.substring(0, colon).strip().toUpperCase(java.util.Locale.ROOT));
            } catch (IllegalArgumentException ex) {
                throw CliException.usage("--set '" + e + "': the role must be source, sink or coordinator");
            }
            out.computeIfAbsent(role, r -> new LinkedHashMap<>()).put(e.substring(colon + 1, eq).strip(),
                    e.substring(eq + 1));
        }
        return out;
    }
}
