package io.vstream.connect.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.vstream.connect.core.event.TopicNames;
import io.vstream.connect.core.keyrange.KeyRange;
import io.vstream.connect.core.vindex.Vindex;
import io.vstream.connect.core.vindex.Vindexes;
import io.vstream.connect.it.CellDiff.Side;
import io.vstream.connect.testsupport.connect.ConnectCluster;
import io.vstream.connect.testsupport.db.MariaDbServer;
import io.vstream.connect.testsupport.db.MariaDbShards;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The type-fidelity matrix ({@link FidelityMatrix}: every MariaDB 10.11 column type with its edge values, written
 * under a permissive sql_mode) carried through each workflow that writes rows into another table, and compared
 * byte for byte with the source by {@link CellDiff}: every cell's bytes and NULL-ness by key, and for clone and
 * reshard the column definitions. Each workflow copies the rows written before it starts and streams the inserts,
 * updates and the delete written after its copy began. A workflow whose task dies is still compared (what it left
 * is named), and the failure is part of the assertion. Servers: 0 is the source (and the table of the online ALTER),
 * 1 the clone target and new shard -80, 2 new shard 80-; each test its own database, one Connect cluster for all,
 * the accounts docs/grants.md prints.
 */
class TypeFidelityIT {
    @RegisterExtension
    static final MariaDbShards SERVERS = MariaDbShards.builder().count(3).name("TypeFidelityIT").build();

    static final String COORDINATOR_CLASS = "io.vstream.connect.coordinator.VStreamCoordinatorConnector";
    private static final Duration WAIT = Duration.ofSeconds(150);
    private static final Vindex HASH = Vindexes.named("hash");

    static ConnectCluster connect;
    static WorkflowWatch watch;

    @BeforeAll
    static void startConnect() {
        connect = ConnectCluster.builder().name("fidelity").workers(1).start();
        watch = new WorkflowWatch(connect, SERVERS.server(0), WAIT);
    }

    @AfterAll
    static void stopConnect() {
        if (watch != null) {
            watch.close();
        }
        if (connect != null) {
            connect.close();
        }
    }

    private static MariaDbServer source() {
        return SERVERS.server(0);
    }

    /** The clone's copy and stream (source connector + sink in clone mode) into an empty server. */
    @Test
    void cloneCarriesEveryCellExactly() throws Exception {
        Outcome o = new Outcome("clone");
        clone(FidelityMatrix.ALL_TYPES, o, Format.COMPACT);
        o.assertExact();
    }

    /** The same clone in the compact format, the sink reading it with JsonConverter (as maps) instead of as bytes. */
    @Test
    void cloneReadAsMapsCarriesEveryCellExactly() throws Exception {
        Outcome o = new Outcome("clone, compact records read as maps");
        clone(FidelityMatrix.ALL_TYPES, o, Format.COMPACT_READ_AS_MAPS);
        o.assertExact();
    }

    /** The same clone with every record carrying its schema (the worker's JsonConverter with schemas). */
    @Test
    void cloneWithSchemasInEveryRecordCarriesEveryCellExactly() throws Exception {
        Outcome o = new Outcome("clone, records with schemas");
        clone(FidelityMatrix.ALL_TYPES, o, Format.SCHEMAS);
        o.assertExact();
    }

    /** An online ALTER that leaves the matrix's columns alone (server copy, then the stream into the ghost). */
    @Test
    void onlineDdlAddingAColumnCarriesEveryCellExactly() throws Exception {
        Outcome o = new Outcome("online-ddl ADD COLUMN");
        onlineDdl(FidelityMatrix.ALL_TYPES, "fid_ddl_add", "ADD COLUMN extra_col INT NULL", o);
        o.assertExact();
    }

    /** An online ALTER that widens some of the matrix's columns losslessly (INT to BIGINT, VARCHAR(100) to 200...). */
    @Test
    void onlineDdlWideningColumnsCarriesEveryCellExactly() throws Exception {
        Outcome o = new Outcome("online-ddl widening");
        onlineDdl(FidelityMatrix.ALL_TYPES, "fid_ddl_widen", FidelityMatrix.ALL_TYPES.wideningAlter(), o);
        o.assertExact();
    }

    /** A split of shard - into -80 and 80- (source connector + sink in reshard mode creating the tables). */
    @Test
    void reshardCarriesEveryCellExactly() throws Exception {
        Outcome o = new Outcome("reshard");
        reshard(FidelityMatrix.ALL_TYPES, o);
        o.assertExact();
    }

    /**
     * The parts of the matrix kept apart ({@link FidelityMatrix#APART}: ENUM/SET members outside the BMP, the ENUM
     * invalid-value entry, FLOAT at the ends of its range, latin1 bytes Java's windows-1252 lacks, INET6/INET4/UUID),
     * each through the three workflows in its own table: one of their values stops a workflow's task, which would
     * hide every other cell of the matrix.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("apart")
    void apartThroughCloneReshardAndOnlineDdl(FidelityMatrix m) throws Exception {
        throughEveryWorkflow(m);
    }

    static List<FidelityMatrix> apart() {
        return FidelityMatrix.APART;
    }

    /** A small matrix through clone, reshard and an online ALTER (adding a column), all compared, then asserted. */
    private static void throughEveryWorkflow(FidelityMatrix m) throws Exception {
        Outcome o = new Outcome(m.table);
        clone(m, o, Format.COMPACT);
        reshard(m, o);
        onlineDdl(m, "fid_ddl_" + m.table, "ADD COLUMN extra_col INT NULL", o);
        o.assertExact();
    }

    /** How the clone's records are written and read. */
    private enum Format {
        /** Every record with its schema (the worker's JsonConverter with schemas). */
        SCHEMAS,
        /** The workflow configs' compact format ({@link CompactFormat}): the sink reads the bytes. */
        COMPACT,
        /** The compact format, the sink reading it with JsonConverter without schemas. */
        COMPACT_READ_AS_MAPS
    }

    private static void clone(FidelityMatrix m, Outcome o, Format format) throws Exception {
        MariaDbServer target = SERVERS.server(1);
        String db = SERVERS.freshDatabase("fid_clone");
        target.execute("mysql", "DROP DATABASE `" + db + "`"); // the clone target starts empty
        source().execute("mysql", DocumentedGrants.statements("clone source", db).toArray(String[]::new));
        target.execute("mysql", DocumentedGrants.statements("clone target", db).toArray(String[]::new));
        writeBeforeStart(m, db);
        String topic = TopicNames.shardTopic("vs_" + db, "ks", "-");
        String sourceName = "fid-clone-src-" + db;
        String sinkName = "fid-clone-sink-" + db;
        String workflow = "clone " + m.table;
        try {
            Map<String, String> src = SourceConfigs.with(SourceConfigs.keyspace("ks", db, List.of(source()), 1),
                    "user", "vstream", "password", DocumentedGrants.PASSWORD);
            Map<String, String> sink = SourceConfigs.with(SinkConfigs.clone(topic, target),
                    "target.user", "vstream_applier", "target.password", DocumentedGrants.PASSWORD);
            connect.deploy(sourceName, format == Format.SCHEMAS ? src : CompactFormat.onSource(src));
            connect.deploy(sinkName, format == Format.SCHEMAS ? sink : format == Format.COMPACT
                    ? CompactFormat.on(sink) : CompactFormat.onSinkReadingMaps(sink));
            watch.awaitCopied(topic, o.failures(workflow), sourceName, sinkName);
            writeAfterCopyBegan(m, db);
            watch.awaitApplied(target, sinkName, topic, o.failures(workflow), sourceName);
            Side from = Side.of(source(), db, m.table);
            Side to = Side.of(target, db, m.table);
            o.diffs.addAll(CellDiff.compareDefinitions(workflow, from, to));
            o.diffs.addAll(CellDiff.compareCells(workflow, m, from, to));
            o.compared(workflow, m);
        } finally {
            deleteAll(sinkName, sourceName);
        }
    }

    private static void reshard(FidelityMatrix m, Outcome o) throws Exception {
        Map<String, MariaDbServer> next = Map.of("-80", SERVERS.server(1), "80-", SERVERS.server(2));
        String db = SERVERS.freshDatabase("fid_reshard");
        for (MariaDbServer s : next.values()) {
            s.execute("mysql", "DROP DATABASE `" + db + "`"); // new shards start empty
        }
        for (MariaDbServer s : SERVERS.servers()) {
            s.execute("mysql", DocumentedGrants.statements("cdc source", db).toArray(String[]::new));
            s.execute("mysql", DocumentedGrants.statements("reshard shard", db).toArray(String[]::new));
        }
        writeBeforeStart(m, db);
        String topic = TopicNames.shardTopic("vs_" + db, "ks", "-");
        String sourceName = "fid-rs-src-" + db;
        String sinkName = "fid-rs-sink-" + db;
        String workflow = "reshard " + m.table;
        try {
            connect.deploy(sourceName, CompactFormat.onSource(SourceConfigs.with(SourceConfigs.keyspace("ks", db,
                    List.of(source()), 1), "user", "vstream", "password", DocumentedGrants.PASSWORD)));
            Map<String, String> sink = CompactFormat.on(SinkConfigs.clone(topic, source()));
            sink.remove("target.host");
            sink.remove("target.port");
            sink.put("mode", "reshard");
            sink.put("target.topology", "-80=" + hostPort(next.get("-80")) + ",80-=" + hostPort(next.get("80-")));
            sink.put("reshard.vindex", "hash");
            sink.put("reshard.column.default", FidelityMatrix.KEY);
            sink.put("table.create", "true");
            sink.put("target.user", "vstream_applier");
            sink.put("target.password", DocumentedGrants.PASSWORD);
            connect.deploy(sinkName, sink);
            watch.awaitCopied(topic, o.failures(workflow), sourceName, sinkName);
            writeAfterCopyBegan(m, db);
            for (MariaDbServer s : next.values()) {
                watch.awaitApplied(s, sinkName, topic, o.failures(workflow), sourceName);
            }
            int rows = 0;
            for (Map.Entry<String, MariaDbServer> e : next.entrySet()) {
                KeyRange range = KeyRange.parse(e.getKey());
                Side from = new Side(source(), db, m.table, key -> range.contains(HASH.keyspaceId(key)));
                Side to = Side.of(e.getValue(), db, m.table);
                rows += CellDiff.cells(m, from).size();
                o.diffs.addAll(CellDiff.compareDefinitions(workflow + " " + e.getKey(), from, to));
                o.diffs.addAll(CellDiff.compareCells(workflow + " " + e.getKey(), m, from, to));
            }
            assertThat(rows).as("the source rows, over the two key ranges").isEqualTo(m.expectedRows());
            o.compared(workflow, m);
        } finally {
            deleteAll(sinkName, sourceName);
        }
    }

    /**
     * One migration on a one-shard keyspace (server 0): the coordinator creates the ghost and holds its copy back
     * until the stream's rows are written, then copies (server copy), cuts over and keeps the original as
     * {@code <table>_old}, which the new table must equal cell for cell. A migration that fails is compared against
     * its ghost table, so its differences are named too.
     */
    private static void onlineDdl(FidelityMatrix m, String hint, String alter, Outcome o) throws Exception {
        MariaDbServer shard = source();
        String db = SERVERS.freshDatabase(hint);
        shard.execute("mysql", DocumentedGrants.statements("cdc source", db).toArray(String[]::new));
        shard.execute("mysql", DocumentedGrants.statements("online-ddl shard", db).toArray(String[]::new));
        writeBeforeStart(m, db);
        String sourceName = "fid-ddl-src-" + db;
        String sinkName = "fid-ddl-sink-" + db;
        String coordinatorName = "fid-ddl-coord-" + db;
        String statusTopic = "fid-ddl-status-" + db;
        String topology = "-=" + hostPort(shard);
        String workflow = "online-ddl " + m.table + " " + alter;
        List<String> failures = o.failures(workflow);
        try {
            Map<String, String> coordinator = new HashMap<>();
            coordinator.put("connector.class", COORDINATOR_CLASS);
            coordinator.put("tasks.max", "1");
            coordinator.put("workflow", "online-ddl");
            coordinator.put("applier.stream", sinkName);
            coordinator.put("status.topic", statusTopic);
            coordinator.put("shards", topology);
            coordinator.put("source.user", "vstream_ddl");
            coordinator.put("source.password", DocumentedGrants.PASSWORD);
            coordinator.put("ddl.database", db);
            coordinator.put("ddl.table", m.table);
            coordinator.put("ddl.alter", alter);
            coordinator.put("ddl.migration", db);
            coordinator.put("poll.interval.ms", "300");
            coordinator.put("ddl.prefer.instant", "false"); // copy, so that the rows go through the migration
            coordinator.put("ddl.copy.paused", "true"); // until the stream's rows are written
            coordinator.put("topic.creation.default.partitions", "1");
            coordinator.put("topic.creation.default.replication.factor", "1");
            connect.deploy(coordinatorName, coordinator);
            connect.deploy(sourceName, CompactFormat.onSource(SourceConfigs.with(SourceConfigs.keyspace("ks", db,
                    List.of(shard), 1), "table.include.list", m.table, "heartbeat.interval.ms", "200", "start.mode",
                    "current", "user", "vstream", "password", DocumentedGrants.PASSWORD)));
            Map<String, String> sink = CompactFormat.on(SinkConfigs.clone(TopicNames.shardTopic("vs_" + db, "ks",
                    "-"), shard));
            sink.remove("target.host");
            sink.remove("target.port");
            sink.put("mode", "ghost");
            sink.put("target.topology", topology);
            sink.put("ghost.migration", db);
            sink.put("target.binlog", "on");
            sink.put("target.user", "vstream_ddl");
            sink.put("target.password", DocumentedGrants.PASSWORD);
            connect.deploy(sinkName, sink);

            String state = watch.awaitState(statusTopic, "COPYING", failures, sourceName, sinkName, coordinatorName);
            writeAfterCopyBegan(m, db); // while the copy waits: these reach the ghost through the stream only
            coordinator.put("ddl.copy.paused", "false");
            connect.deploy(coordinatorName, coordinator);
            if (!"FAILED".equals(state)) {
                state = watch.awaitState(statusTopic, "COMPLETE", failures, sourceName, sinkName, coordinatorName);
            }
            if ("COMPLETE".equals(state)) {
                o.diffs.addAll(CellDiff.compareCells(workflow, m, Side.of(shard, db, m.table + "_old"),
                        Side.of(shard, db, m.table)));
            } else {
                String failed = watch.connectorFailures(sourceName, sinkName, coordinatorName);
                if (!failed.isEmpty()) {
                    failures.add(failed);
                }
                o.diffs.addAll(CellDiff.compareCells(workflow + " (its ghost table, as the failed migration left it)",
                        m, Side.of(shard, db, m.table), Side.of(shard, db, "_" + m.table + "_gho")));
            }
            o.compared(workflow, m);
        } finally {
            deleteAll(sinkName, sourceName, coordinatorName);
        }
    }

    /** What the workflows of one test left: connector failures by workflow, and every differing cell. */
    private static final class Outcome {
        final String test;
        final Map<String, List<String>> failures = new LinkedHashMap<>();
        final List<String> diffs = new ArrayList<>();

        Outcome(String test) {
            this.test = test;
        }

        List<String> failures(String workflow) {
            return failures.computeIfAbsent(workflow, w -> new ArrayList<>());
        }

        void compared(String workflow, FidelityMatrix m) {
            System.out.printf("TypeFidelityIT: %s: %d columns x %d rows compared; %d failures%n", workflow,
                    m.columns.size(), m.expectedRows(), failures(workflow).size());
        }

        void assertExact() {
            List<String> all = new ArrayList<>();
            failures.forEach((w, fs) -> fs.forEach(f -> all.add(w + ": " + f)));
            all.forEach(f -> System.out.println("TypeFidelityIT failure: " + f));
            diffs.forEach(d -> System.out.println("TypeFidelityIT difference: " + d));
            System.out.printf("TypeFidelityIT: %s: %d differences, %d failures%n", test, diffs.size(), all.size());
            assertThat(all).as("%s: connector failures (and %d differences: %s)", test, diffs.size(), diffs)
                    .isEmpty();
            assertThat(diffs).as("%s: every cell exactly as the source holds it", test).isEmpty();
        }
    }

    private static void writeBeforeStart(FidelityMatrix m, String db) {
        source().execute(db, m.createTable());
        source().execute(db, m.beforeStart().toArray(String[]::new));
    }

    private static void writeAfterCopyBegan(FidelityMatrix m, String db) {
        source().execute(db, m.afterCopyBegan().toArray(String[]::new));
        assertThat(source().queryLong(db, "SELECT COUNT(*) FROM " + FidelityMatrix.quote(m.table)))
                .as("the source rows").isEqualTo(m.expectedRows());
    }

    private static String hostPort(MariaDbServer s) {
        return s.host() + ":" + s.port();
    }

    private static void deleteAll(String... names) {
        for (String n : names) {
            try {
                connect.delete(n);
            } catch (RuntimeException e) {
                // already gone
            }
        }
    }
}
