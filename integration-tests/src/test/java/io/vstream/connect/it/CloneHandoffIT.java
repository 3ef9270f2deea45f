package io.vstream.connect.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.vstream.connect.cli.ExitCodes;
import io.vstream.connect.cli.Vsc;
import io.vstream.connect.core.event.TopicNames;
import io.vstream.connect.core.position.GtidPosition;
import io.vstream.connect.local.compare.ComparisonResult;
import io.vstream.connect.local.load.LoadTable;
import io.vstream.connect.local.load.Target;
import io.vstream.connect.local.load.WriteLoad;
import io.vstream.connect.testsupport.compare.TableComparator;
import io.vstream.connect.testsupport.connect.ConnectCluster;
import io.vstream.connect.testsupport.connect.TopicReader.Decoded;
import io.vstream.connect.testsupport.db.MariaDbServer;
import io.vstream.connect.testsupport.db.MariaDbShards;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Struct;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The clone workflow end to end: source (copy + stream), sink (clone) and coordinator deployed through REST, under a
 * write load. The coordinator waits for the copy and the catch-up, stops the applier at an exact position, compares
 * by checksum, and hands the target over to native replication; writes after the hand-off reach the target through
 * replication, and the target ends equal to the source with every acknowledged write.
 */
class CloneHandoffIT {
    @RegisterExtension
    static final MariaDbShards SERVERS = MariaDbShards.builder().count(2).name("CloneHandoffIT").build();

    static final String COORDINATOR_CLASS = "io.vstream.connect.coordinator.VStreamCoordinatorConnector";

    @Test
    void cloneHandsOverToNativeReplicationUnderLoad() throws Exception {
        MariaDbServer source = SERVERS.server(0);
        MariaDbServer target = SERVERS.server(1);
        String db = SERVERS.freshDatabase();
        target.execute("mysql", "DROP DATABASE `" + db + "`");
        // the accounts docs/grants.md prints, as printed (only the database is this test's)
        source.execute("mysql", DocumentedGrants.statements("clone source", db).toArray(String[]::new));
        target.execute("mysql", DocumentedGrants.statements("clone target", db).toArray(String[]::new));
        source.execute(db, "CREATE TABLE profiles (id INT PRIMARY KEY, name VARCHAR(40), born DATE) ENGINE=Aria",
                "CREATE TABLE empty_t (id INT PRIMARY KEY, note VARCHAR(20) CHARACTER SET utf8mb4)");
        StringBuilder rows = new StringBuilder("INSERT INTO profiles VALUES ");
        for (int i = 0; i < 5000; i++) {
            rows.append(i == 0 ? "" : ",").append('(').append(i).append(",'p").append(i).append("','1990-01-0")
                    .append(1 + i % 9).append("')");
        }
        source.execute(db, rows.toString());
        String topic = TopicNames.shardTopic("vs_" + db, "ks", "-");
        String sourceName = "handoff-src-" + db;
        String sinkName = "handoff-sink-" + db;
        String coordinatorName = "handoff-coord-" + db;
        String statusTopic = "status-" + db;
        try (ConnectCluster connect = ConnectCluster.builder().name("handoff").workers(2).start();
             WriteLoad load = WriteLoad.builder(Target.single(source, db)).table(LoadTable.standard("orders"))
                     .threads(2).keySpace(3_000).statementsPerTransaction(1, 3).deleteRatio(0.1)
                     .transactionsPerSecond(80).duration(Duration.ofMinutes(10)).failOnError(false).seed(9)
                     .build()) {
            load.createTables().preload(10_000);
            load.start();
            // every statement the connectors send, on both servers, is tagged: checked in the general log below
            GeneralLog log = GeneralLog.start(List.of(source, target));
            Map<String, String> coordinatorConfig = coordinator(source, target, sinkName, statusTopic);
            coordinatorConfig.put("handoff.postpone", "true"); // held until the diff below has run
            connect.deploy(coordinatorName, coordinatorConfig);
            connect.deploy(sourceName, SourceConfigs.with(SourceConfigs.keyspace("ks", db, List.of(source), 1),
                    "user", "vstream", "password", DocumentedGrants.PASSWORD));
            connect.deploy(sinkName, SourceConfigs.with(SinkConfigs.clone(topic, target), "table.engine", "InnoDB",
                    "target.user", "vstream_applier", "target.password", DocumentedGrants.PASSWORD));

            // vsc diff while the applier streams under load: every table compared at exact positions, equal
            awaitState(connect, statusTopic, "POSTPONED", Duration.ofSeconds(150));
            JsonNode streaming = diff(connect, coordinatorName, ExitCodes.OK);
            assertThat(streaming.path("tables_total").asInt()).isEqualTo(3);
            assertThat(streaming.path("rows_compared").asLong()).as("profiles' 5,000 rows and the orders compared")
                    .isGreaterThan(5_000 + 1_000);
            assertThat(vsc(connect, "cutover", coordinatorName).code()).isEqualTo(ExitCodes.OK);

            List<Struct> statuses = awaitState(connect, statusTopic, "COMPLETE", Duration.ofSeconds(150));
            List<String> states = new ArrayList<>();
            statuses.forEach(s -> {
                String st = s.getString("state");
                if (states.isEmpty() || !states.get(states.size() - 1).equals(st)) {
                    states.add(st);
                }
            });
            assertThat(states).containsSubsequence("COPYING", "READY", "CUTTING_OVER", "COMPLETE");
            assertThat(statuses.get(statuses.size() - 1).getString("reason")).as("the hand-off compared every table")
                    .isEqualTo("the checksum at the hand-off compared 3 tables: " + db + ".empty_t, " + db
                            + ".orders, " + db + ".profiles");
            assertThat(target.queryString("mysql", "SELECT @@GLOBAL.replicate_wild_do_table"))
                    .as("replication carries the clone's database only").isEqualTo(db.replace("_", "\\_") + ".%");
            assertThat(load.isRunning()).as("the hand-off happened under load").isTrue();

            // vsc diff after the hand-off holds native replication at a position: equal; a row changed on the target
            // behind the workflow's back is named, and replication runs on after each diff
            JsonNode replicated = diff(connect, coordinatorName, ExitCodes.OK);
            assertThat(replicated.path("rows_compared").asLong()).isGreaterThan(5_000 + 1_000);
            // (outside the binlog: a GTID of the target's own would break gtid_strict_mode replication)
            target.execute(db, "SET SESSION sql_log_bin = 0",
                    "UPDATE profiles SET name = 'changed behind its back' WHERE id = 42");
            JsonNode different = diff(connect, coordinatorName, ExitCodes.DIFFERENT);
            assertThat(different.path("differences").asLong()).isEqualTo(1);
            assertThat(different.path("details").toString()).contains(db + ".profiles").contains("id=42 differs");
            assertThat(awaitReplicating(target)).as("replication runs after the diff").contains("IO Yes, SQL Yes");
            try (log) {
                assertThat(log.untagged("vstream")).as("statements of the connectors' accounts (copy, apply, hand-off,"
                        + " diffs) without a vstream-connect tag").isEmpty();
            }
            target.execute(db, "SET SESSION sql_log_bin = 0", "UPDATE profiles SET name = 'p42' WHERE id = 42");
            // replication an operator stopped is left alone: the diff says so and fails
            target.execute("mysql", "STOP SLAVE");
            CliRun stopped = vsc(connect, "diff", coordinatorName, "--max-wait-s", "240");
            assertThat(stopped.code()).as(stopped.out()).isEqualTo(ExitCodes.FAILURE);
            assertThat(stopped.out()).contains("native replication is not running").contains("START SLAVE first");
            assertThat(replicaStatus(target)).startsWith("IO No, SQL No");
            target.execute("mysql", "START SLAVE");

            // the empty table was created on the target: the first rows written into it replicate
            source.execute(db, "INSERT INTO empty_t VALUES (0, 'zero 😀'), (1, NULL)");
            load.stop(); // it ran through the copy, the hand-off and the diffs, however long they took
            GtidPosition wanted = GtidPosition.parse("MariaDB/" + source.gtidBinlogPos());
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (System.nanoTime() < deadline && !replicated(target, wanted)) {
                Thread.sleep(300);
            }
            assertThat(replicated(target, wanted)).as("the target replicated up to %s; %s", wanted,
                    replicaStatus(target)).isTrue();
            assertThat(target.queryString("mysql", "SELECT acked_command FROM _vstream.control WHERE stream = ?",
                    sinkName)).isEqualTo("HANDED_OFF");
            assertThat(replicaStatus(target)).as("native replication runs").contains("IO Yes, SQL Yes");

            try (Connection s = source.connect(db); Connection t = target.connect(db)) {
                for (String table : List.of("orders", "profiles", "empty_t")) {
                    ComparisonResult r = TableComparator.builder().source(s, db, table).target(t, db, table).build()
                            .compare();
                    assertThat(r.isEqual()).as("%s: %s", table, r).isTrue();
                }
                assertThat(load.verifyAgainst(t, "orders").isEqual()).isTrue();
            }
            connect.delete(sinkName);
            connect.delete(sourceName);
            connect.delete(coordinatorName);
        }
    }

    /**
     * docs/grants.md's coordinator grants on the target, each taken away in turn: the workflow fails before anything
     * starts, naming what is missing (the preflight names the GRANT to run; a statement the server refuses names the
     * privilege). SELECT on the cloned database is needed only by the checksum at the hand-off, which names it there.
     */
    @Test
    void eachMissingGrantOfTheCoordinatorFailsTheWorkflowBeforeItStartsNamingTheGrant() throws Exception {
        MariaDbServer source = SERVERS.server(0);
        MariaDbServer target = SERVERS.server(1);
        String db = SERVERS.freshDatabase();
        target.execute("mysql", "DROP DATABASE `" + db + "`");
        source.execute("mysql", DocumentedGrants.statements("clone source", db).toArray(String[]::new));
        List<String> documented = DocumentedGrants.statements("clone target", db);
        target.execute("mysql", documented.toArray(String[]::new));
        List<String[]> grants = new ArrayList<>(); // {privilege, object}
        for (String g : documented) {
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("^GRANT (.+) ON (\\S+) TO 'vstream_admin'")
                    .matcher(g);
            if (m.find() && !m.group(2).equals("`" + db + "`.*")) {
                for (String privilege : m.group(1).split(",\\s*")) {
                    grants.add(new String[] {privilege, m.group(2)});
                }
            }
        }
        assertThat(grants).hasSizeGreaterThanOrEqualTo(8);
        try (ConnectCluster connect = ConnectCluster.builder().name("grants").workers(1).start()) {
            int i = 0;
            for (String[] g : grants) {
                String object = g[1];
                target.execute("mysql", "REVOKE " + g[0] + " ON " + object + " FROM 'vstream_admin'@'%'");
                try {
                    String name = "grants-" + (i++) + "-" + db;
                    connect.deploy(name, coordinator(source, target, "sink-" + name, "status-" + name));
                    Struct failed = awaitState(connect, "status-" + name, "FAILED", Duration.ofSeconds(60))
                            .stream().reduce((a, b) -> b).orElseThrow();
                    String reason = failed.getString("reason");
                    assertThat(reason).as("without %s ON %s", g[0], object).contains(g[0])
                            .containsAnyOf(object, object.replace("`", "").replace(".*", ""));
                    connect.delete(name);
                } finally {
                    target.execute("mysql", "GRANT " + g[0] + " ON " + object + " TO 'vstream_admin'@'%'");
                }
            }
            // a name whose stored state belongs to another workflow is refused, never resumed as if it were this one
            String reused = "grants-0-" + db;
            connect.deploy(reused, SourceConfigs.with(coordinator(source, target, "another-sink", "status-" + reused)));
            assertThat(connect.awaitTaskFailure(reused, Duration.ofSeconds(60)))
                    .contains("belongs to a different workflow under the same name")
                    .contains("applier.stream=sink-" + reused).contains("applier.stream=another-sink")
                    .contains("DELETE /connectors/" + reused + "/offsets");
            connect.delete(reused);
        }
    }

    static Map<String, String> coordinator(MariaDbServer source, MariaDbServer target, String sinkName,
                                           String statusTopic) {
        Map<String, String> c = new HashMap<>();
        c.put("connector.class", COORDINATOR_CLASS);
        c.put("tasks.max", "1");
        c.put("workflow", "clone");
        c.put("applier.stream", sinkName);
        c.put("status.topic", statusTopic);
        c.put("source.host", source.host());
        c.put("source.port", String.valueOf(source.port()));
        c.put("source.user", "vstream");
        c.put("source.password", DocumentedGrants.PASSWORD);
        c.put("target.host", target.host());
        c.put("target.port", String.valueOf(target.port()));
        c.put("target.user", "vstream_admin");
        c.put("target.password", DocumentedGrants.PASSWORD);
        c.put("replication.user", "repl");
        c.put("replication.password", DocumentedGrants.PASSWORD);
        c.put("poll.interval.ms", "500");
        c.put("topic.creation.default.partitions", "1");
        c.put("topic.creation.default.replication.factor", "1");
        return c;
    }

    /** Runs {@code vsc diff W --json} in-process; checks its exit code and returns its JSON result. */
    static JsonNode diff(ConnectCluster connect, String workflow, int expectedCode) throws java.io.IOException {
        CliRun r = vsc(connect, "diff", workflow, "--json", "--max-wait-s", "240");
        assertThat(r.code()).as("vsc diff: %s %s", r.out(), r.err()).isEqualTo(expectedCode);
        return new com.fasterxml.jackson.databind.ObjectMapper().readTree(r.out());
    }

    record CliRun(int code, String out, String err) {
    }

    static CliRun vsc(ConnectCluster connect, String... args) {
        List<String> a = new ArrayList<>(List.of(args));
        a.addAll(List.of("--connect-url", connect.restUrl(), "--bootstrap-servers", connect.bootstrapServers()));
        java.io.StringWriter out = new java.io.StringWriter();
        java.io.StringWriter err = new java.io.StringWriter();
        int code = Vsc.execute(a.toArray(String[]::new), new java.io.PrintWriter(out), new java.io.PrintWriter(err));
        return new CliRun(code, out.toString(), err.toString());
    }

    /** The replica's status once both threads run, or the last one seen after 60 s. */
    static String awaitReplicating(MariaDbServer server) throws java.sql.SQLException, InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        String last = replicaStatus(server);
        while (!last.startsWith("IO Yes, SQL Yes") && System.nanoTime() < deadline) {
            Thread.sleep(200);
            last = replicaStatus(server);
        }
        return last;
    }

    /** Whether native replication on {@code target} has applied up to {@code wanted} ({@code gtid_slave_pos}). */
    private static boolean replicated(MariaDbServer target, GtidPosition wanted) {
        return GtidPosition.parse("MariaDB/" + target.queryString("mysql", "SELECT @@GLOBAL.gtid_slave_pos"))
                .contains(wanted);
    }

    static String replicaStatus(MariaDbServer server) throws java.sql.SQLException {
        try (Connection c = server.connect("mysql"); java.sql.Statement st = c.createStatement();
             java.sql.ResultSet rs = st.executeQuery("SHOW SLAVE STATUS")) {
            if (!rs.next()) {
                return "not a replica";
            }
            return "IO " + rs.getString("Slave_IO_Running") + ", SQL " + rs.getString("Slave_SQL_Running")
                    + ", error: " + rs.getString("Last_Error");
        }
    }

    static List<Struct> awaitState(ConnectCluster connect, String statusTopic, String state, Duration timeout)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        List<Struct> all = new ArrayList<>();
        String last = null;
        while (System.nanoTime() < deadline) {
            try {
                all = new ArrayList<>();
                for (Decoded d : connect.topics().readAll(statusTopic, false)) {
                    all.add((Struct) d.value().value());
                }
                if (!all.isEmpty()) {
                    Struct s = all.get(all.size() - 1);
                    last = s.toString();
                    if (state.equals(s.getString("state"))) {
                        return all;
                    }
                    if ("FAILED".equals(s.getString("state")) && !"FAILED".equals(state)) {
                        throw new AssertionError("the workflow failed: " + s);
                    }
                }
            } catch (RuntimeException e) {
                // the topic does not exist yet
            }
            Thread.sleep(500);
        }
        throw new AssertionError("the workflow never reached " + state + "; last status " + last);
    }
}
