package io.vstream.connect.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.vstream.connect.core.event.EventHeaders;
import io.vstream.connect.core.event.TopicNames;
import io.vstream.connect.core.keyrange.KeyRange;
import io.vstream.connect.core.vindex.Vindex;
import io.vstream.connect.core.vindex.Vindexes;
import io.vstream.connect.local.compare.ComparisonResult;
import io.vstream.connect.local.load.LoadStats;
import io.vstream.connect.local.load.LoadTable;
import io.vstream.connect.local.load.LoadTransaction;
import io.vstream.connect.local.load.RowChange;
import io.vstream.connect.local.load.RowFactory;
import io.vstream.connect.local.load.StandardRows;
import io.vstream.connect.local.load.Target;
import io.vstream.connect.local.load.WriteLoad;
import io.vstream.connect.testsupport.connect.ConnectCluster;
import io.vstream.connect.testsupport.connect.TopicReader;
import io.vstream.connect.testsupport.db.MariaDbServer;
import io.vstream.connect.testsupport.db.MariaDbShards;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Supplier;
import org.apache.kafka.connect.runtime.rest.entities.ConnectorStateInfo;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Debezium's JDBC sink connector (3.5.0.Final, unpacked from its plugin archive into a plugin directory of its own)
 * as a consumer of our CDC topics: two real MariaDB shards streamed by our source connector (configured as
 * config-examples/cdc-source.json prints it, with the account docs/grants.md prints) into a third MariaDB server,
 * through the two sink configurations docs/consumers.md prints (read from the page, so the page and the test cannot
 * drift): one writing each table into the table of the same name, one with our {@code ShardToTableRouter} in the
 * sink's chain writing into the routed table. Existing rows (copy phase) and a write load of inserts, updates,
 * deletes and multi-row transactions on both shards, with NULLs, 4-byte UTF-8 text, quotes and control characters,
 * a DECIMAL and a DATETIME(6); once the load stops and the targets catch up, each target table must hold exactly the
 * writers' model and, byte for byte, the rows of both shards, and each sink must have committed its position past the
 * last row of each shard topic.
 */
class DebeziumJdbcSinkIT {
    @RegisterExtension
    static final MariaDbShards SHARDS = MariaDbShards.builder().count(2).name("DbzJdbcShardsIT").build();
    @RegisterExtension
    static final MariaDbShards TARGET = MariaDbShards.builder().count(1).name("DbzJdbcTargetIT").build();

    static final String DEBEZIUM_DIR_PROPERTY = "vstream.debezium-jdbc.dir";
    static final String SINK_CLASS = "io.debezium.connector.jdbc.JdbcSinkConnector";
    static final Path CONSUMERS_PAGE = Path.of("../docs/consumers.md");
    static final Path CDC_SOURCE_EXAMPLE = Path.of("../config-examples/cdc-source.json");
    /** The table the write load writes: one of the tables cdc-source.json streams ({@code table.include.list}). */
    static final String TABLE = "corder";
    static final String TABLE_DDL = "(id BIGINT NOT NULL PRIMARY KEY, k INT NOT NULL, v VARCHAR(64) NULL,"
            + " amount DECIMAL(12,2) NOT NULL, updated DATETIME(6) NOT NULL,"
            + " note VARCHAR(80) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NULL, KEY k (k))";
    static final List<String> COLUMNS = List.of("id", "k", "v", "amount", "updated", "note");
    static final Vindex HASH = Vindexes.named("hash");
    static final KeyRange LOW = KeyRange.parse("-80");
    static final Duration CATCH_UP = Duration.ofSeconds(180);

    static ConnectCluster connect;

    @BeforeAll
    static void startConnect() {
        String debezium = System.getProperty(DEBEZIUM_DIR_PROPERTY);
        if (debezium == null || !Files.isDirectory(Path.of(debezium, "debezium-connector-jdbc"))) {
            throw new IllegalStateException("Debezium's JDBC sink is not unpacked in " + debezium
                    + ": run the test through 'mvn verify' (the integration-tests build unpacks it)");
        }
        // plugin.path: our plugins, then Debezium's connector in a directory of its own (its own class loader)
        connect = ConnectCluster.builder().name("debezium-jdbc-it").workers(1)
                .workerProp("plugin.path", System.getProperty(ConnectCluster.PLUGINS_DIR_PROPERTY) + "," + debezium)
                .start();
    }

    @AfterAll
    static void stopConnect() {
        if (connect != null) {
            connect.close();
        }
    }

    @Test
    void theSinkIsLoadedFromItsOwnPluginDirectory() throws Exception {
        assertThatThrownBy(() -> Class.forName(SINK_CLASS))
                .as("Debezium's sink must not be on the test classpath: it is loaded from plugin.path")
                .isInstanceOf(ClassNotFoundException.class);
        HttpResponse<String> plugins = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create(connect.restUrl() + "/connector-plugins?connectorsOnly=true")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(plugins.statusCode()).isEqualTo(200);
        String body = plugins.body();
        int at = body.indexOf("\"class\":\"" + SINK_CLASS + "\"");
        assertThat(at).as("%s is listed in %s", SINK_CLASS, body).isNotNegative();
        assertThat(body.substring(body.lastIndexOf('{', at), body.indexOf('}', at) + 1))
                .contains("\"type\":\"sink\"").contains("\"version\":\"3.5.0.Final\"");
    }

    @Test
    void twoShardsUnderLoadReachTheTargetExactlyWithAndWithoutTheRouter() throws Exception {
        String db = SHARDS.freshDatabase("cdc");
        String copyDb = TARGET.freshDatabase("copy");
        String routedDb = TARGET.freshDatabase("routed");
        MariaDbServer target = TARGET.server(0);
        for (MariaDbServer s : SHARDS.servers()) {
            s.execute("mysql", DocumentedGrants.statements("cdc source", db).toArray(String[]::new));
        }
        for (String targetDb : List.of(copyDb, routedDb)) {
            target.execute("mysql", documentedTargetGrants(targetDb).toArray(String[]::new));
        }
        Map<String, String> sink = sinkConfig("debezium-jdbc-sink", target, copyDb);
        Map<String, String> routed = sinkConfig("debezium-jdbc-sink-routed", target, routedDb);
        String routedTable = routed.get("transforms.route.topic.format").replace("${keyspace}", "commerce")
                .replace("${table}", TABLE);
        // the sink writes into tables that exist (schema.evolution=none): the same definition as on the shards
        target.execute(copyDb, "CREATE TABLE " + TABLE + " " + TABLE_DDL);
        target.execute(routedDb, "CREATE TABLE " + routedTable + " " + TABLE_DDL);

        Target shards = Target.sharded(SHARDS.servers(), db, key -> LOW.contains(HASH.keyspaceId(key)) ? 0 : 1);
        try (WriteLoad load = WriteLoad.builder(shards)
                .table(new LoadTable(TABLE, "id", new AwkwardRows(), TABLE_DDL)).threads(2).keySpace(3_000)
                .statementsPerTransaction(1, 4).deleteRatio(0.15).transactionsPerSecond(60)
                .duration(Duration.ofSeconds(20)).failOnError(false).seed(17).build()) {
            load.createTables().preload(1_500);

            Map<String, String> source = sourceConfig(db);
            connect.deploy(source.get("name"), source);
            connect.awaitRunning(source.get("name"), 2, Duration.ofSeconds(60));
            for (String shard : List.of("-80", "80-")) {
                awaitNonEmpty(TopicNames.shardTopic(source.get("topic.prefix"), source.get("keyspace"), shard));
            }
            assertThat(sink.get("topics")).as("the page's sink reads the example source's shard topics")
                    .isEqualTo(source.get("topic.prefix") + ".commerce.-80," + source.get("topic.prefix")
                            + ".commerce.80-");
            connect.deploy(sink.get("name"), sink);
            connect.deploy(routed.get("name"), routed);
            connect.awaitRunning(sink.get("name"), 1, Duration.ofSeconds(60));
            connect.awaitRunning(routed.get("name"), 1, Duration.ofSeconds(60));

            load.start();
            LoadStats stats = load.awaitCompletion(Duration.ofSeconds(120));
            assertThat(stats.commits()).as("the load committed: %s", stats).isGreaterThan(100);
            assertThat(stats.updates()).isPositive();
            assertThat(stats.deletes()).isPositive();
            assertThat(load.committedTransactions().stream().filter(t -> t.changes().size() > 1
                    && t.changes().stream().anyMatch(c -> c.op() != RowChange.Op.INSERT)).count())
                    .as("multi-row transactions with updates or deletes").isPositive();
            assertThat(load.committedTransactions().stream().map(LoadTransaction::shard).distinct().count())
                    .as("both shards written").isEqualTo(2);
            assertThat(load.expectedRows(TABLE).values()).as("the model holds NULLs, empty and 4-byte UTF-8 text")
                    .anyMatch(r -> r.get("note") == null).anyMatch(r -> r.get("v") == null)
                    .anyMatch(r -> "".equals(r.get("note")))
                    .anyMatch(r -> r.get("note") != null && ((String) r.get("note")).codePoints()
                            .anyMatch(Character::isSupplementaryCodePoint));
            for (int shard = 0; shard < 2; shard++) {
                ComparisonResult r = load.verifyShard(shard, TABLE);
                assertThat(r.isEqual()).as("shard %d holds the model (the writers' view): %s", shard, r).isTrue();
            }

            try (Connection t = target.connect(copyDb)) {
                awaitModel(load, t, copyDb, TABLE, sink.get("name"), routed.get("name"));
                awaitModel(load, t, routedDb, routedTable, routed.get("name"), sink.get("name"));
                for (String[] table : List.of(new String[] {copyDb, TABLE}, new String[] {routedDb, routedTable})) {
                    ComparisonResult r = load.verifyAgainst(t, table[0], table[1]);
                    assertThat(r.isEqual()).as("%s.%s holds the writers' model: %s", table[0], table[1], r)
                            .isTrue();
                    assertThat(r.rowsCompared()).isGreaterThan(1_000);
                    assertSameBytes(db, t, table[0], table[1]);
                }
            }
            for (String name : List.of(sink.get("name"), routed.get("name"))) {
                awaitCommittedPastLastRow(name, source);
                connect.awaitRunning(name, 1, Duration.ofSeconds(10));
                connect.delete(name);
            }
            connect.delete(source.get("name"));
        }
    }

    /**
     * The source connector as config-examples/cdc-source.json prints it, pointed at the test's shards: only the
     * shards' addresses and database, the password (the example's is a reference to a worker's secrets file), the
     * replication factor (one broker here) and the start mode differ. The example starts at the current position
     * (changes only); a copy needs the existing rows first, so start.mode=copy (the connector's default).
     */
    private static Map<String, String> sourceConfig(String db) throws IOException {
        Map<String, String> c = readJson(Files.readString(CDC_SOURCE_EXAMPLE, StandardCharsets.UTF_8));
        List<String> topology = new ArrayList<>();
        List<String> shardNames = List.of("-80", "80-");
        for (int i = 0; i < 2; i++) {
            topology.add(shardNames.get(i) + "=" + SHARDS.server(i).host() + ":" + SHARDS.server(i).port());
        }
        replace(c, "database", db);
        replace(c, "topology", String.join(",", topology));
        replace(c, "password", DocumentedGrants.PASSWORD);
        replace(c, "topic.creation.default.replication.factor", "1");
        replace(c, "start.mode", "copy");
        assertThat(c.get("table.include.list")).as("the example streams the load's table").contains(TABLE);
        return c;
    }

    /**
     * The connector JSON the page prints after {@code <!-- connector: NAME (tested) -->}, pointed at the test's target:
     * only the address and database in {@code connection.url} and the password (a secrets reference on the page)
     * differ.
     */
    private static Map<String, String> sinkConfig(String block, MariaDbServer target, String database) {
        Map<String, String> c = readJson(String.join("\n", pageBlock("<!-- connector: " + block + " (tested) -->",
                "```json")));
        String url = c.get("connection.url");
        assertThat(url).as("%s: connection.url", block).matches("jdbc:mariadb://[^/]+/\\w+");
        replace(c, "connection.url", "jdbc:mariadb://" + target.host() + ":" + target.port() + "/" + database);
        replace(c, "connection.password", DocumentedGrants.PASSWORD);
        assertThat(c.get("connector.class")).isEqualTo(SINK_CLASS);
        return c;
    }

    /** The target account's statements the page prints, for {@code database} instead of {@code commerce_copy}. */
    private static List<String> documentedTargetGrants(String database) {
        List<String> out = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String line : pageBlock("<!-- grants: debezium jdbc target (tested) -->", "```sql")) {
            String l = line.strip();
            if (l.isEmpty() || l.startsWith("--")) {
                continue;
            }
            current.append(current.length() == 0 ? "" : " ").append(l);
            if (l.endsWith(";")) {
                out.add(current.substring(0, current.length() - 1).replace("`commerce_copy`", "`" + database + "`"));
                current.setLength(0);
            }
        }
        assertThat(out).as("the page's target grants").anyMatch(s -> s.contains("`" + database + "`"));
        return out;
    }

    /** The lines of the fenced block that opens with {@code fence} after the line {@code marker} of the page. */
    private static List<String> pageBlock(String marker, String fence) {
        List<String> lines;
        try {
            lines = Files.readAllLines(CONSUMERS_PAGE, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        int i = lines.indexOf(marker);
        assertThat(i).as("docs/consumers.md has the line %s", marker).isNotNegative();
        assertThat(lines.get(i + 1)).as("a %s block follows %s", fence, marker).isEqualTo(fence);
        List<String> out = new ArrayList<>();
        for (i += 2; i < lines.size() && !lines.get(i).startsWith("```"); i++) {
            out.add(lines.get(i));
        }
        return out;
    }

    private static Map<String, String> readJson(String json) {
        try {
            JsonNode root = new ObjectMapper().readTree(json);
            Map<String, String> out = new LinkedHashMap<>();
            root.fields().forEachRemaining(e -> out.put(e.getKey(), e.getValue().asText()));
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Replaces a key the example has (so that a renamed key in the example fails here rather than being added). */
    private static void replace(Map<String, String> config, String key, String value) {
        assertThat(config).as("the example sets %s", key).containsKey(key);
        config.put(key, value);
    }

    /**
     * Waits until {@code database.table} holds the writers' model, failing at once with the trace when a task of either
     * sink fails. Once the load stopped, the table can equal the model only when the last change of every row has
     * been applied (each row's changes are in one shard's ordered topic), so this is the catch-up condition.
     */
    private static void awaitModel(WriteLoad load, Connection target, String database, String table,
                                   String... sinks) {
        long deadline = System.nanoTime() + CATCH_UP.toNanos();
        ComparisonResult last = null;
        while (System.nanoTime() < deadline) {
            for (String sink : sinks) {
                ConnectorStateInfo s = connect.status(sink);
                for (ConnectorStateInfo.TaskState task : s.tasks()) {
                    assertThat(task.state()).as("%s task %d: %s", sink, task.id(), task.trace()).isNotEqualTo("FAILED");
                }
            }
            last = load.verifyAgainst(target, database, table);
            if (last.isEqual()) {
                return;
            }
            sleep(1_000);
        }
        throw new AssertionError("Timed out after " + CATCH_UP + " waiting for " + database + "." + table
                + " to hold the writers' model; last comparison: " + last);
    }

    /**
     * Waits until the sink's committed offsets ({@code GET /connectors/{name}/offsets}) on each shard topic are past
     * the topic's last ROW record: with the router in the chain too, the sink commits the positions of the records it
     * read (their original topic), so a restarted sink resumes where it was rather than from the start.
     */
    private static void awaitCommittedPastLastRow(String sink, Map<String, String> source) throws Exception {
        Map<String, Long> lastRow = new TreeMap<>();
        for (String shard : List.of("-80", "80-")) {
            String topic = TopicNames.shardTopic(source.get("topic.prefix"), source.get("keyspace"), shard);
            lastRow.put(topic, connect.topics().readAll(topic, false).stream()
                    .filter(d -> "ROW".equals(d.header(EventHeaders.EVENT)))
                    .mapToLong(TopicReader.Decoded::offset).max().orElseThrow());
        }
        Map<String, Long> committed = new TreeMap<>();
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < deadline) {
            HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create(connect.restUrl() + "/connectors/" + sink + "/offsets")).build(),
                    HttpResponse.BodyHandlers.ofString());
            committed.clear();
            if (response.statusCode() == 200) {
                for (JsonNode o : new ObjectMapper().readTree(response.body()).path("offsets")) {
                    committed.put(o.path("partition").path("kafka_topic").asText(),
                            o.path("offset").path("kafka_offset").asLong());
                }
            }
            if (lastRow.entrySet().stream().allMatch(e -> committed.getOrDefault(e.getKey(), -1L) > e.getValue())) {
                return;
            }
            sleep(500);
        }
        throw new AssertionError(sink + " did not commit past the last row of each shard topic: last rows at "
                + lastRow + ", committed " + committed);
    }

    /**
     * Every column's bytes ({@code HEX(CAST(col AS BINARY))}, so a changed character set or a rounded fraction
     * shows) of every row of both shards against the target table: the same keys, the same bytes.
     */
    private static void assertSameBytes(String sourceDb, Connection target, String targetDb, String table)
            throws SQLException {
        Map<Long, String> source = new TreeMap<>();
        for (MariaDbServer s : SHARDS.servers()) {
            try (Connection c = s.connect(sourceDb)) {
                Map<Long, String> rows = hexRows(c, sourceDb, TABLE);
                for (Map.Entry<Long, String> row : rows.entrySet()) {
                    assertThat(source.put(row.getKey(), row.getValue())).as("id %d lives on one shard", row.getKey())
                            .isNull();
                }
            }
        }
        Map<Long, String> copied = hexRows(target, targetDb, table);
        List<String> differences = new ArrayList<>();
        TreeSet<Long> keys = new TreeSet<>(source.keySet());
        keys.addAll(copied.keySet());
        for (Long key : keys) {
            String want = source.get(key);
            String have = copied.get(key);
            if (!java.util.Objects.equals(want, have)) {
                differences.add("id " + key + ": shards " + want + ", target " + have);
            }
        }
        assertThat(source).as("rows on the shards").hasSizeGreaterThan(1_000);
        assertThat(differences).as("%s.%s against both shards' %s.%s, byte for byte (%d rows)", targetDb, table,
                sourceDb, TABLE, source.size()).isEmpty();
    }

    private static Map<Long, String> hexRows(Connection c, String database, String table) throws SQLException {
        StringBuilder sql = new StringBuilder("SELECT id, CONCAT_WS('|'");
        for (String column : COLUMNS) {
            sql.append(", IFNULL(HEX(CAST(`").append(column).append("` AS BINARY)), 'NULL')");
        }
        sql.append(") FROM `").append(database).append("`.`").append(table).append("`");
        Map<Long, String> out = new TreeMap<>();
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql.toString())) {
            while (rs.next()) {
                out.put(rs.getLong(1), rs.getString(2));
            }
        }
        return out;
    }

    private static void awaitNonEmpty(String topic) {
        await("records on " + topic, Duration.ofSeconds(60), () -> {
            try {
                return !connect.topics().readAll(topic, false).isEmpty();
            } catch (RuntimeException e) {
                return false; // the topic does not exist yet
            }
        });
    }

    private static void await(String what, Duration timeout, Supplier<Boolean> done) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (done.get()) {
                return;
            }
            sleep(200);
        }
        throw new AssertionError("Timed out after " + timeout + " waiting for " + what);
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * The standard load's values (a key, text that is NULL now and then, a DECIMAL(12,2), a DATETIME(6) with
     * microseconds) plus {@code note}: utf8mb4 text with characters outside the Basic Multilingual Plane (4 bytes in
     * UTF-8), quotes, a backslash, tab and newline, the empty string, or NULL. Deterministic for a given
     * {@link Random}.
     */
    static final class AwkwardRows implements RowFactory {
        private static final List<String> NOTES = List.of("😀", "𝄞 clef", "ß ✓ ünï", "🇺🇦 🏳️‍🌈 flags",
                "it's \"quoted\" \\ back\tslash\nnew line", "", " trailing space ");
        private final StandardRows standard = new StandardRows();

        @Override
        public List<String> columns() {
            List<String> columns = new ArrayList<>(standard.columns());
            columns.add("note");
            return columns;
        }

        @Override
        public Map<String, Object> insert(long key, Random random) {
            Map<String, Object> row = standard.insert(key, random);
            row.put("note", note(random));
            return row;
        }

        @Override
        public Map<String, Object> update(long key, Map<String, Object> current, Random random) {
            Map<String, Object> row = standard.update(key, current, random);
            row.put("note", random.nextBoolean() ? current.get("note") : note(random));
            return row;
        }

        private static String note(Random random) {
            if (random.nextInt(5) == 0) {
                return null;
            }
            String note = NOTES.get(random.nextInt(NOTES.size()));
            return note.isEmpty() ? note : note + " " + random.nextInt(1000);
        }
    }
}
