package io.vstream.connect.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.vstream.connect.cli.ExitCodes;
import io.vstream.connect.core.event.EventHeaders;
import io.vstream.connect.core.event.EventType;
import io.vstream.connect.core.event.TopicNames;
import io.vstream.connect.core.keyrange.KeyRange;
import io.vstream.connect.core.reshard.Journal;
import io.vstream.connect.core.vindex.Vindex;
import io.vstream.connect.core.vindex.Vindexes;
import io.vstream.connect.local.compare.ComparisonResult;
import io.vstream.connect.local.load.LoadStats;
import io.vstream.connect.local.load.LoadTable;
import io.vstream.connect.local.load.LoadTransaction;
import io.vstream.connect.local.load.Target;
import io.vstream.connect.local.load.WriteLoad;
import io.vstream.connect.testsupport.connect.ConnectCluster;
import io.vstream.connect.testsupport.connect.TopicReader.Decoded;
import io.vstream.connect.testsupport.db.MariaDbServer;
import io.vstream.connect.testsupport.db.MariaDbShards;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Struct;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The reshard workflow end to end on four real servers (seed 004): the source connector copies and streams the old
 * shards, the sink in reshard mode routes each row to the new shard that owns its keyspace id, and the coordinator
 * switches (old shards read-only, appliers caught up, journal written) while a write load runs and follows the
 * topology to the new shards. A keyspace CDC connector streaming through the switch, or stopped before it and
 * restarted after it, must show every acknowledged write once, in order, on the shard that took it; when the old
 * shard is gone it copies the new shards (or fails, as configured). A merge works the same way.
 */
class ReshardIT {
    /** An upper bound of the write loads' duration: each stops once the new shards have taken writes. */
    static final int LOAD_BOUND_SECONDS = 300;
    static final int WRITES_AFTER_SWITCH = 20;
    /** At least this many acknowledged transactions in all (the tests check more than 500 and 300). */
    static final int MIN_WRITES = 600;

    @RegisterExtension
    static final MariaDbShards SERVERS = MariaDbShards.builder().count(4).name("ReshardIT").build();

    static final String COORDINATOR_CLASS = "io.vstream.connect.coordinator.VStreamCoordinatorConnector";
    private static final Vindex HASH = Vindexes.named("hash");
    static final String APP_USER = "app";
    static final String APP_PASSWORD = "app-secret";

    static ConnectCluster connect;

    @BeforeAll
    static void startConnect() {
        connect = ConnectCluster.builder().name("reshard").workers(2).start();
    }

    @AfterAll
    static void stopConnect() {
        if (connect != null) {
            connect.close();
        }
    }

    @BeforeEach
    void writable() {
        for (MariaDbServer s : SERVERS.servers()) {
            if (s.isRunning()) {
                s.execute("mysql", "SET GLOBAL read_only = OFF");
            }
        }
    }

    private static Map<String, MariaDbServer> split() {
        Map<String, MariaDbServer> m = new LinkedHashMap<>();
        m.put("-80", SERVERS.server(1));
        m.put("80-", SERVERS.server(2));
        return m;
    }

    @Test
    void splitUnderLoadWithAConsumerStreamingThroughTheSwitch() throws Exception {
        Run run = new Run(SERVERS, connect, Map.of("-", SERVERS.server(0)), split());
        try (WriteLoad load = run.load(LOAD_BOUND_SECONDS)) {
            // an empty table: the copy has no row of it, yet both new shards must have it before its first write
            SERVERS.server(0).execute(run.db, "CREATE TABLE empty_t (id BIGINT PRIMARY KEY, note VARCHAR(20))");
            run.startCdc(Map.of());
            // the switch is held until the empty table's rows are written: the harness writes as root, which the
            // switch's read-only does not stop, so a write after the switch would never reach the new shards
            run.deploy(Map.of("handoff.postpone", "true"));
            load.start();
            // once the workflow's copy is done, the first rows of the empty table arrive as changes
            ShardLog.awaitCopyCompleted(connect, run.topic("wf_", "-"), Duration.ofSeconds(120));
            SERVERS.server(0).execute(run.db, "INSERT INTO empty_t SELECT seq, CONCAT('n', seq) FROM seq_1_to_40");
            run.deploy(Map.of("handoff.postpone", "false"));
            run.awaitSwitch();
            LoadStats stats = run.stopLoadAfterWritesOnTheNewShards(load);
            assertThat(stats.commits()).isGreaterThan(500);
            run.verifyTargets(load);
            long rows = 0;
            for (Map.Entry<String, MariaDbServer> e : run.next.entrySet()) {
                KeyRange range = KeyRange.parse(e.getKey());
                try (Connection c = e.getValue().connect(run.db); Statement st = c.createStatement();
                     ResultSet rs = st.executeQuery("SELECT id, note FROM empty_t")) {
                    while (rs.next()) {
                        long id = rs.getLong(1);
                        assertThat(range.contains(HASH.keyspaceId(id))).as("empty_t row %d on %s", id, e.getKey())
                                .isTrue();
                        assertThat(rs.getString(2)).isEqualTo("n" + id);
                        rows++;
                    }
                }
            }
            assertThat(rows).as("the rows written into the once empty table, over the new shards").isEqualTo(40);
            run.verifyCdc(load, true);
        } finally {
            run.delete();
        }
    }

    /**
     * docs/grants.md's reshard coordinator grants, each taken away in turn on the old shard: the workflow fails in its
     * preflight (nothing is read-only, nothing written), naming what is missing.
     */
    @Test
    void eachMissingGrantOfTheCoordinatorFailsTheReshardBeforeItStartsNamingIt() throws Exception {
        Run run = new Run(SERVERS, connect, Map.of("-", SERVERS.server(0)), split());
        MariaDbServer shard = SERVERS.server(0);
        shard.execute(run.db, "CREATE TABLE t (id BIGINT PRIMARY KEY)");
        int i = 0;
        try {
            for (String g : DocumentedGrants.statements("reshard shard", run.db)) {
                java.util.regex.Matcher m = java.util.regex.Pattern
                        .compile("^GRANT (.+) ON (\\S+) TO 'vstream_reshard'").matcher(g);
                if (!m.find()) {
                    continue;
                }
                for (String privilege : m.group(1).split(",\\s*")) {
                    String object = m.group(2);
                    shard.execute("mysql", "REVOKE " + privilege + " ON " + object + " FROM 'vstream_reshard'@'%'");
                    try {
                        String topic = run.statusTopic + "-g" + (i++);
                        Map<String, String> c = run.coordinatorConfig(topic);
                        c.put("workflow.name", run.coordinator + "-g" + i);
                        connect.deploy(run.coordinator, c);
                        Struct failed = CloneHandoffIT.awaitState(connect, topic, "FAILED", Duration.ofSeconds(60))
                                .stream().reduce((a, b) -> b).orElseThrow();
                        assertThat(failed.getString("reason")).as("without %s ON %s", privilege, object)
                                .contains(privilege).contains(object.replace("`", "").replace(".*", ""));
                        connect.delete(run.coordinator);
                        assertThat(shard.queryLong("mysql", "SELECT @@GLOBAL.read_only")).isZero();
                    } finally {
                        shard.execute("mysql", "GRANT " + privilege + " ON " + object + " TO 'vstream_reshard'@'%'");
                    }
                }
            }
        } finally {
            run.delete();
        }
        assertThat(i).as("grants taken away").isEqualTo(6);
    }

    @Test
    void aConsumerStoppedDuringTheSplitReadsTheOldShardUpToTheJournalThenTheNewShards() throws Exception {
        Run run = new Run(SERVERS, connect, Map.of("-", SERVERS.server(0)), split());
        try (WriteLoad load = run.load(LOAD_BOUND_SECONDS)) {
            run.startCdc(Map.of());
            run.deploy(Map.of("handoff.postpone", "true"));
            load.start();
            CloneHandoffIT.awaitState(connect, run.statusTopic, "POSTPONED", Duration.ofSeconds(120));
            connect.delete(run.cdc); // stopped before the switch; its offsets stay
            run.deploy(Map.of("handoff.postpone", "false"));
            run.awaitSwitch();
            run.awaitWritesOnTheNewShards(load); // while the consumer is away
            run.startCdc(Map.of()); // same name, same (old) topology
            run.stopLoadAfterWritesOnTheNewShards(load);
            run.verifyTargets(load);
            run.verifyCdc(load, true);
        } finally {
            run.delete();
        }
    }

    @Test
    void aConsumerResumingAfterTheOldShardIsGoneCopiesTheNewShardsOrFailsAsConfigured() throws Exception {
        Run run = new Run(SERVERS, connect, Map.of("-", SERVERS.server(0)), split());
        try (WriteLoad load = run.load(25)) {
            run.startCdc(Map.of());
            run.deploy(Map.of("handoff.postpone", "true"));
            load.start();
            CloneHandoffIT.awaitState(connect, run.statusTopic, "POSTPONED", Duration.ofSeconds(120));
            connect.delete(run.cdc);
            run.deploy(Map.of("handoff.postpone", "false"));
            run.awaitSwitch();
            load.awaitCompletion(Duration.ofSeconds(120));
            run.deleteWorkflow();
            SERVERS.server(0).stop(); // the old shard is removed
            String newTopology = run.topology(run.next);

            // (c) fallback disabled: a clear failure naming the shard and the choices
            connect.deploy(run.cdc, SourceConfigs.with(run.cdcConfig(), "topology", newTopology,
                    "reshard.fallback", "fail", "connect.timeout.ms", "2000"));
            String trace = connect.awaitFailure(run.cdc, Duration.ofSeconds(60));
            assertThat(trace).contains("reshard.fallback=fail").contains("cannot be reached")
                    .contains("-80").contains("80-");
            connect.delete(run.cdc);

            // (b) fallback to a copy of the new shards, announced on the keyspace topic
            connect.deploy(run.cdc, SourceConfigs.with(run.cdcConfig(), "topology", newTopology,
                    "connect.timeout.ms", "2000"));
            connect.awaitRunning(run.cdc, 1, Duration.ofSeconds(60));
            for (String shard : run.next.keySet()) {
                // a running task may not have taken its start position yet: a marker written before it would be
                // copied as a row, and its transaction would never reach the log
                ShardLog.awaitCopyCompleted(connect, run.topic("vs_", shard), Duration.ofSeconds(120));
            }
            Map<String, String> markers = run.markNewShards();
            for (Map.Entry<String, String> m : run.next.entrySet().stream()
                    .collect(java.util.stream.Collectors.toMap(Map.Entry::getKey, e -> markers.get(e.getKey())))
                    .entrySet()) {
                // the copy interleaves binlog catch-ups between chunks, so the marker may come before the copy ends
                ShardLog log = ShardLog.awaitCopyCompleted(connect, run.topic("vs_", m.getKey()), m.getValue(),
                        Duration.ofSeconds(120));
                long copyRows = log.ofType(EventType.ROW).stream()
                        .map(d -> (Struct) d.value().value())
                        .filter(v -> "r".equals(v.getString("op"))
                                && "orders".equals(v.getStruct("source").getString("table"))).count();
                long rows = run.next.get(m.getKey()).queryLong(run.db, "SELECT COUNT(*) FROM orders");
                assertThat(copyRows).as("copy rows of new shard %s", m.getKey()).isEqualTo(rows);
                assertThat(log.ofType(EventType.COPY_COMPLETED)).isNotEmpty();
            }
            List<Decoded> keyspaceTopic = connect.topics().readAll(TopicNames.keyspaceTopic("vs_" + run.db,
                    run.keyspace), false);
            assertThat(keyspaceTopic.stream().filter(d -> EventType.JOURNAL.headerValue()
                    .equals(d.header(EventHeaders.EVENT))).map(d -> ((Struct) d.value().value()).getString("journal"))
                    .toList()).anySatisfy(j -> assertThat(j).contains("\"fallback\":true"));
        } finally {
            SERVERS.server(0).start();
            run.delete();
        }
    }

    @Test
    void aMergeUnderLoadWithAConsumerStreamingThroughIt() throws Exception {
        Map<String, MariaDbServer> old = split();
        Run run = new Run(SERVERS, connect, old, Map.of("-", SERVERS.server(3)));
        try (WriteLoad load = run.load(LOAD_BOUND_SECONDS)) {
            run.startCdc(Map.of());
            run.deploy(Map.of("handoff.postpone", "true")); // held until the diffs below have run
            load.start();
            CloneHandoffIT.awaitState(connect, run.statusTopic, "POSTPONED", Duration.ofSeconds(180));
            // vsc diff under load: the new shard against each old shard, the rows of that shard's key range only,
            // holding one lane at a time at the old shard's snapshot position while the other lane runs on
            JsonNode equal = CloneHandoffIT.diff(connect, run.coordinator, ExitCodes.OK);
            assertThat(equal.path("differences").asLong()).isZero();
            assertThat(equal.path("rows_compared").asLong()).as("%s", equal).isGreaterThanOrEqualTo(2_000);
            // a row written on the new shard behind the workflow's back (a key the load never writes): named
            SERVERS.server(3).execute(run.db, "INSERT INTO orders (id, k, v, amount, updated)"
                    + " VALUES (900001, 1, 'planted', 1.00, NOW(6))");
            JsonNode different = CloneHandoffIT.diff(connect, run.coordinator, ExitCodes.DIFFERENT);
            assertThat(different.path("differences").asLong()).as("%s", different).isEqualTo(1);
            assertThat(different.path("details").toString()).contains("orders").contains("id=900001 only in the"
                    + " target").contains("rows of old shard " + (KeyRange.parse("-80").contains(HASH.keyspaceId(
                    900001L)) ? "-80" : "80-"));
            SERVERS.server(3).execute(run.db, "DELETE FROM orders WHERE id = 900001");
            // a coordinator that died in a diff's slice leaves that lane held (here: stopped at the old shard's
            // position now); its successor (the task the config change below starts) lets it run, or the switch
            // would wait for it forever
            SERVERS.server(3).execute("_vstream", "INSERT INTO control (stream, command, stop_at) VALUES ('"
                    + run.sink + "/-80', 'STOP_AT', 'MariaDB/" + SERVERS.server(1).gtidBinlogPos() + "')"
                    + " ON DUPLICATE KEY UPDATE command = VALUES(command), stop_at = VALUES(stop_at)");
            run.deploy(Map.of("handoff.postpone", "false"));
            run.awaitSwitch();
            run.stopLoadAfterWritesOnTheNewShards(load);
            run.verifyTargets(load);
            run.verifyCdc(load, true);
        } finally {
            run.delete();
        }
    }

    /** One reshard: its servers, connectors, write load target and checks. */
    static final class Run {
        final MariaDbShards servers;
        final ConnectCluster cluster;
        boolean readCommitted; // a consumer of an exactly-once stream reads committed records only
        final String db;
        final String keyspace;
        final Map<String, MariaDbServer> old;
        final Map<String, MariaDbServer> next;
        final String source;
        final String sink;
        final String coordinator;
        final String cdc;
        final String statusTopic;
        final RoutingTarget target;

        Run(MariaDbShards servers, ConnectCluster cluster, Map<String, MariaDbServer> old,
            Map<String, MariaDbServer> next) {
            this.servers = servers;
            this.cluster = cluster;
            this.db = servers.freshDatabase();
            this.keyspace = "ks_" + db; // journals are keyed by keyspace: each test its own
            this.old = new LinkedHashMap<>(old);
            this.next = new LinkedHashMap<>(next);
            this.source = "rs-src-" + db;
            this.sink = "rs-sink-" + db;
            this.coordinator = "rs-coord-" + db;
            this.cdc = "rs-cdc-" + db;
            this.statusTopic = "rs-status-" + db;
            this.target = new RoutingTarget(db, keyspace, this.old, this.next);
            for (MariaDbServer s : next.values()) {
                s.execute("mysql", "DROP DATABASE IF EXISTS `" + db + "`"); // new shards start empty
            }
            // the application's account: no READ_ONLY ADMIN, so read_only stops its writes (root would go on writing);
            // the workflow's and the consumer's accounts as docs/grants.md prints them, on every shard, old and new
            for (MariaDbServer s : servers.servers()) {
                if (s.isRunning()) {
                    s.execute("mysql", DocumentedGrants.statements("cdc source", db).toArray(String[]::new));
                    s.execute("mysql", DocumentedGrants.statements("reshard shard", db).toArray(String[]::new));
                    for (String host : List.of("%", "localhost", "127.0.0.1")) {
                        s.execute("mysql", "CREATE USER IF NOT EXISTS '" + APP_USER + "'@'" + host
                                + "' IDENTIFIED BY '" + APP_PASSWORD + "'", "GRANT ALL ON `" + db + "`.* TO '"
                                + APP_USER + "'@'" + host + "'", "GRANT SELECT ON `_vstream`.* TO '" + APP_USER + "'@'"
                                + host + "'");
                    }
                }
            }
        }

        /**
         * Waits (up to 3 minutes) until the new shards have acknowledged {@value #WRITES_AFTER_SWITCH} of the load's
         * transactions (and {@value #MIN_WRITES} in all): the load follows the journal, and the checks need writes
         * on both sides of the switch, which comes late on a busy machine.
         */
        void awaitWritesOnTheNewShards(WriteLoad load) throws InterruptedException {
            long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
            while ((writesOnTheNewShards(load) < WRITES_AFTER_SWITCH
                    || load.committedTransactions().size() < MIN_WRITES) && load.isRunning()
                    && System.nanoTime() < deadline) {
                Thread.sleep(200);
            }
        }

        /** {@link #awaitWritesOnTheNewShards}, then stops the load (started with an upper bound of a duration). */
        LoadStats stopLoadAfterWritesOnTheNewShards(WriteLoad load) throws InterruptedException {
            awaitWritesOnTheNewShards(load);
            return load.isRunning() ? load.stop() : load.awaitCompletion(Duration.ofSeconds(120));
        }

        private long writesOnTheNewShards(WriteLoad load) {
            return load.committedTransactions().stream().filter(t -> t.gtid() != null
                    && next.values().stream().anyMatch(s -> serverOf(t.gtid()) == s.serverId())).count();
        }

        WriteLoad load(int seconds) {
            WriteLoad load = WriteLoad.builder(target).table(LoadTable.standard("orders")).threads(2)
                    .keySpace(4_000).statementsPerTransaction(1, 3).deleteRatio(0.1).transactionsPerSecond(60)
                    .duration(Duration.ofSeconds(seconds)).failOnError(false).keepTransactions(true).seed(11)
                    .build();
            load.createTables().preload(3_000);
            return load;
        }

        String topology(Map<String, MariaDbServer> shards) {
            List<String> entries = new ArrayList<>();
            shards.forEach((k, s) -> entries.add(k + "=" + s.host() + ":" + s.port()));
            return String.join(",", entries);
        }

        String topic(String prefix, String shard) {
            return TopicNames.shardTopic(prefix + db, keyspace, shard);
        }

        Map<String, String> cdcConfig() {
            Map<String, String> c = SourceConfigs.keyspace(keyspace, db, List.of(servers.server(0)), 1);
            c.put("topology", topology(old));
            c.put("topic.prefix", "vs_" + db);
            c.put("reshard.check.interval.ms", "300");
            c.put("user", "vstream");
            c.put("password", DocumentedGrants.PASSWORD);
            return c;
        }

        /** The consumer under test: a keyspace CDC connector on the old shards; waits for its copy to complete. */
        void startCdc(Map<String, String> extra) throws InterruptedException {
            Map<String, String> c = cdcConfig();
            c.putAll(extra);
            cluster.deploy(cdc, c);
            cluster.awaitRunning(cdc, 1, Duration.ofSeconds(60));
            long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
            while (System.nanoTime() < deadline) {
                boolean all = true;
                for (String shard : old.keySet()) {
                    try {
                        all &= cluster.topics().readAll(topic("vs_", shard), readCommitted).stream().anyMatch(d ->
                                EventType.COPY_COMPLETED.headerValue().equals(d.header(EventHeaders.EVENT)));
                    } catch (RuntimeException e) {
                        all = false;
                    }
                }
                if (all) {
                    return;
                }
                Thread.sleep(300);
            }
            throw new AssertionError("the copy of " + cdc + " did not complete on every old shard within 120 s; "
                    + cluster.status(cdc));
        }

        void deploy(Map<String, String> coordinatorExtra) {
            Map<String, String> c = coordinatorConfig(statusTopic);
            c.putAll(coordinatorExtra);
            cluster.deploy(coordinator, c);
            deployStreams();
        }

        /** The coordinator's configuration, with the documented account; its status records go to {@code topic}. */
        Map<String, String> coordinatorConfig(String topic) {
            Map<String, String> c = new HashMap<>();
            c.put("connector.class", COORDINATOR_CLASS);
            c.put("tasks.max", "1");
            c.put("workflow", "reshard");
            c.put("applier.stream", sink);
            c.put("status.topic", topic);
            c.put("shards", topology(old));
            c.put("reshard.target.shards", topology(next));
            c.put("reshard.keyspace", keyspace);
            c.put("reshard.database", db);
            c.put("reshard.column.default", "id");
            c.put("source.user", "vstream_reshard");
            c.put("source.password", DocumentedGrants.PASSWORD);
            c.put("poll.interval.ms", "300");
            c.put("handoff.stop.timeout.ms", "30000");
            c.put("topic.creation.default.partitions", "1");
            c.put("topic.creation.default.replication.factor", "1");
            return c;
        }

        private void deployStreams() {
            Map<String, String> src = SourceConfigs.keyspace(keyspace, db, List.of(servers.server(0)), 1);
            src.put("topology", topology(old));
            src.put("topic.prefix", "wf_" + db);
            src.put("heartbeat.interval.ms", "200");
            src.put("user", "vstream");
            src.put("password", DocumentedGrants.PASSWORD);
            cluster.deploy(source, src);
            Map<String, String> s = SinkConfigs.clone(String.join(",", old.keySet().stream().map(o -> topic("wf_", o))
                    .toList()), servers.server(0));
            s.remove("target.host");
            s.remove("target.port");
            s.put("mode", "reshard");
            s.put("target.topology", topology(next));
            s.put("reshard.vindex", "hash");
            s.put("reshard.column.default", "id");
            s.put("table.create", "true");
            s.put("target.user", "vstream_applier");
            s.put("target.password", DocumentedGrants.PASSWORD);
            cluster.deploy(sink, s);
        }

        /** Waits until the coordinator has completed the switch; the writer then follows the journal. */
        Journal awaitSwitch() throws InterruptedException, SQLException {
            List<Struct> statuses = CloneHandoffIT.awaitState(cluster, statusTopic, "COMPLETE", Duration.ofSeconds(180));
            Struct last = statuses.get(statuses.size() - 1);
            assertThat(last.getString("reason")).contains("switched: journal");
            // the copy's rows in the status: counted by the appliers on the new shards, 100% once copied
            assertThat(statuses.stream().map(st -> st.getInt64("rows_copied")).filter(java.util.Objects::nonNull)
                    .mapToLong(Long::longValue).max().orElse(0)).as("rows copied in the status").isGreaterThan(2_000);
            assertThat(statuses.stream().filter(st -> "READY".equals(st.getString("state")))
                    .map(st -> st.getFloat64("progress_pct")).toList()).isNotEmpty().allMatch(p -> p != null
                    && p == 100.0);
            for (MariaDbServer s : old.values()) {
                assertThat(s.queryLong("mysql", "SELECT @@GLOBAL.read_only")).isEqualTo(1L);
            }
            Journal j = target.journal();
            assertThat(j).isNotNull();
            try {
                verifyAtTheSwitch();
            } finally {
                target.release();
            }
            return j;
        }

        /**
         * At the switch (the old shards read-only, the writers held back from the new ones): each new shard holds
         * exactly the old shards' rows of its key range, compared by a per-row checksum (CRC32 of every column).
         */
        void verifyAtTheSwitch() throws SQLException {
            Map<Long, Long> source = new HashMap<>();
            for (MariaDbServer s : old.values()) {
                source.putAll(rowSums(s));
            }
            for (Map.Entry<String, MariaDbServer> e : next.entrySet()) {
                KeyRange range = KeyRange.parse(e.getKey());
                Map<Long, Long> expected = new HashMap<>();
                source.forEach((id, sum) -> {
                    if (range.contains(HASH.keyspaceId(id))) {
                        expected.put(id, sum);
                    }
                });
                Map<Long, Long> actual = rowSums(e.getValue());
                List<String> diffs = new ArrayList<>();
                for (Map.Entry<Long, Long> x : expected.entrySet()) {
                    Long a = actual.get(x.getKey());
                    if (!x.getValue().equals(a)) {
                        diffs.add(a == null ? "id " + x.getKey() + " missing" : "id " + x.getKey() + " differs");
                    }
                }
                actual.keySet().stream().filter(id -> !expected.containsKey(id))
                        .forEach(id -> diffs.add("id " + id + " does not belong here"));
                assertThat(diffs).as("new shard %s against the old shards at the switch (%d rows expected)",
                        e.getKey(), expected.size()).isEmpty();
                assertThat(expected).as("rows of new shard %s", e.getKey()).isNotEmpty();
            }
        }

        /** id -> CRC32 of every column of the row, on one server. */
        private Map<Long, Long> rowSums(MariaDbServer server) throws SQLException {
            Map<Long, Long> out = new HashMap<>();
            try (Connection c = server.connect(db); Statement st = c.createStatement()) {
                List<String> cols = new ArrayList<>();
                try (ResultSet rs = st.executeQuery("SELECT column_name FROM information_schema.columns WHERE"
                        + " table_schema = DATABASE() AND table_name = 'orders' ORDER BY ordinal_position")) {
                    while (rs.next()) {
                        cols.add("IFNULL(`" + rs.getString(1) + "`, '\\N')");
                    }
                }
                try (ResultSet rs = st.executeQuery("SELECT id, CRC32(CONCAT_WS('#', " + String.join(", ", cols)
                        + ")) FROM orders")) {
                    while (rs.next()) {
                        out.put(rs.getLong(1), rs.getLong(2));
                    }
                }
            }
            return out;
        }

        /** Each new shard holds exactly the acknowledged rows of its key range, and none of another range. */
        void verifyTargets(WriteLoad load) throws SQLException {
            assertThat(target.switched()).isTrue();
            if (next.size() == 1) {
                try (Connection c = next.values().iterator().next().connect(db)) {
                    ComparisonResult r = load.verifyAgainst(c, db, "orders");
                    assertThat(r.isEqual()).as("merged shard: %s", r).isTrue();
                }
            } else {
                for (int i = 0; i < target.shardCount(); i++) {
                    ComparisonResult r = load.verifyShard(i, "orders");
                    assertThat(r.isEqual()).as("new shard %s: %s", target.ranges.get(i), r).isTrue();
                }
            }
            for (Map.Entry<String, MariaDbServer> e : next.entrySet()) {
                KeyRange range = KeyRange.parse(e.getKey());
                try (Connection c = e.getValue().connect(db); Statement st = c.createStatement();
                     ResultSet rs = st.executeQuery("SELECT id FROM orders")) {
                    while (rs.next()) {
                        long id = rs.getLong(1);
                        assertThat(range.contains(HASH.keyspaceId(id))).as("row %d on new shard %s", id, e.getKey())
                                .isTrue();
                    }
                }
            }
            long afterSwitch = writesOnTheNewShards(load);
            assertThat(afterSwitch).as("acknowledged writes on the new shards after the switch").isPositive();
        }

        /**
         * The consumer's logs: the old shards' end with the JOURNAL, the new shards' carry the journal id as epoch,
         * and each log holds every acknowledged transaction of its server once, in commit order, with its images.
         */
        void verifyCdc(WriteLoad load, boolean exactlyOnce) throws Exception {
            Journal j = target.journal();
            Map<String, String> markers = markNewShards();
            for (Map.Entry<String, MariaDbServer> e : next.entrySet()) {
                ShardLog log = ShardLog.await(cluster, topic("vs_", e.getKey()), markers.get(e.getKey()),
                        readCommitted, Duration.ofSeconds(120));
                assertThat(log.ofType(EventType.ROW).stream().filter(d -> "r".equals(((Struct) d.value().value())
                        .getString("op"))).count()).as("no copy rows on a journaled new shard").isZero();
                assertThat(log.records).allSatisfy(d -> assertThat(d.header(EventHeaders.EPOCH))
                        .isEqualTo(String.valueOf(j.id())));
                check(log, load, e.getValue(), exactlyOnce);
            }
            for (Map.Entry<String, MariaDbServer> e : old.entrySet()) {
                ShardLog log = new ShardLog(cluster.topics().readAll(topic("vs_", e.getKey()), readCommitted));
                List<Decoded> journals = log.ofType(EventType.JOURNAL);
                assertThat(journals).hasSize(1);
                assertThat(log.records.get(log.records.size() - 1)).isSameAs(journals.get(0));
                check(log, load, e.getValue(), exactlyOnce);
            }
        }

        private void check(ShardLog log, WriteLoad load, MariaDbServer server, boolean exactlyOnce) {
            // the preload (thread -1) is copied by the consumer's copy phase, not streamed
            List<LoadTransaction> mine = load.committedTransactions().stream().filter(t -> t.thread() >= 0)
                    .filter(t -> t.gtid() != null && serverOf(t.gtid()) == server.serverId()).toList();
            List<String> problems = StreamVerifier.verify(log, mine, exactlyOnce, 20);
            assertThat(problems).as("log of %s against %d acknowledged transactions", server, mine.size()).isEmpty();
        }

        /** Writes one row on each new shard and returns its GTID: the point a consumer's log must reach. */
        Map<String, String> markNewShards() throws SQLException {
            Map<String, String> out = new LinkedHashMap<>();
            for (Map.Entry<String, MariaDbServer> e : next.entrySet()) {
                try (Connection c = e.getValue().connect(db); Statement st = c.createStatement()) {
                    st.execute("CREATE TABLE IF NOT EXISTS marker (id INT PRIMARY KEY, at TIMESTAMP(6))");
                    st.execute("REPLACE INTO marker VALUES (1, NOW(6))");
                    out.put(e.getKey(), ShardLog.lastGtid(st));
                }
            }
            return out;
        }

        void deleteWorkflow() {
            for (String n : List.of(sink, source, coordinator)) {
                try {
                    cluster.delete(n);
                } catch (RuntimeException e) {
                    // already gone
                }
            }
        }

        void delete() {
            deleteWorkflow();
            try {
                cluster.delete(cdc);
            } catch (RuntimeException e) {
                // already gone
            }
        }

        private static long serverOf(String gtid) {
            String[] parts = gtid.split("-");
            return Long.parseLong(parts[1]);
        }
    }

    /**
     * The write load's view of the keyspace: keys are routed by the hash vindex to the finer of the two shard lists;
     * a connection goes to the old shard that owns the range until a journal for the keyspace exists on the old
     * shards, then to the new one (a read-only error makes the load reconnect, which asks again).
     */
    static final class RoutingTarget implements Target {
        final String db;
        final String keyspace;
        final Map<String, MariaDbServer> old;
        final Map<String, MariaDbServer> next;
        final List<KeyRange> ranges = new ArrayList<>();
        private volatile boolean switched;
        private final java.util.concurrent.CountDownLatch released = new java.util.concurrent.CountDownLatch(1);

        /** Lets the writers onto the new shards (until then a connection to them waits, so the test sees the switch). */
        void release() {
            released.countDown();
        }

        RoutingTarget(String db, String keyspace, Map<String, MariaDbServer> old, Map<String, MariaDbServer> next) {
            this.db = db;
            this.keyspace = keyspace;
            this.old = old;
            this.next = next;
            Map<String, MariaDbServer> finer = next.size() >= old.size() ? next : old;
            finer.keySet().forEach(k -> ranges.add(KeyRange.parse(k)));
        }

        @Override
        public int shardCount() {
            return ranges.size();
        }

        @Override
        public int shardOf(long key) {
            byte[] id = HASH.keyspaceId(key);
            for (int i = 0; i < ranges.size(); i++) {
                if (ranges.get(i).contains(id)) {
                    return i;
                }
            }
            throw new IllegalStateException("no range holds key " + key);
        }

        /** As the application's account (no READ_ONLY ADMIN): the old shards refuse its writes after the switch. */
        @Override
        public Connection connect(int shard) throws SQLException {
            boolean onNew = switched();
            if (onNew) {
                try {
                    released.await(120, java.util.concurrent.TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new SQLException("interrupted while waiting for the test to release the new shards", e);
                }
            }
            MariaDbServer server = owner(onNew ? next : old, ranges.get(shard));
            return java.sql.DriverManager.getConnection("jdbc:mariadb://" + server.host() + ":" + server.port() + "/"
                    + db, APP_USER, APP_PASSWORD);
        }

        private static MariaDbServer owner(Map<String, MariaDbServer> shards, KeyRange range) {
            for (Map.Entry<String, MariaDbServer> e : shards.entrySet()) {
                if (KeyRange.parse(e.getKey()).includes(range)) {
                    return e.getValue();
                }
            }
            throw new IllegalStateException("no shard includes " + range);
        }

        boolean switched() {
            if (!switched) {
                switched = journal() != null;
            }
            return switched;
        }

        Journal journal() {
            for (MariaDbServer s : old.values()) {
                if (!s.isRunning()) {
                    continue;
                }
                try (Connection c = s.connect("mysql")) {
                    try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM"
                            + " information_schema.tables WHERE table_schema = '_vstream' AND table_name = 'journal'")) {
                        if (rs.next() && rs.getLong(1) == 0) {
                            continue;
                        }
                    }
                    List<Journal> js = io.vstream.connect.jdbc.JournalTable.read(c, "_vstream", keyspace);
                    for (Journal j : js) {
                        if (j.workflow() != null && j.workflow().equals("rs-coord-" + db)) {
                            return j;
                        }
                    }
                } catch (SQLException e) {
                    // not reachable now
                }
            }
            return null;
        }

        @Override
        public String describe(int shard) {
            return "range " + ranges.get(shard) + (switched ? " (new shards)" : " (old shards)");
        }
    }
}
