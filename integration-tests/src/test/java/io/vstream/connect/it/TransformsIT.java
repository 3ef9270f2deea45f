package io.vstream.connect.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vstream.connect.core.event.EventHeaders;
import io.vstream.connect.core.event.EventType;
import io.vstream.connect.core.event.TopicNames;
import io.vstream.connect.core.keyrange.KeyRange;
import io.vstream.connect.core.vindex.Vindex;
import io.vstream.connect.core.vindex.Vindexes;
import io.vstream.connect.testsupport.connect.ConnectCluster;
import io.vstream.connect.testsupport.connect.TopicReader.Decoded;
import io.vstream.connect.testsupport.db.MariaDbServer;
import io.vstream.connect.testsupport.db.MariaDbShards;
import java.math.BigDecimal;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.connect.data.Struct;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The transforms and predicates in a real 1-worker Connect cluster, loaded from their packaged plugin archive and
 * chained in the source connector's configuration, over two real MariaDB shards: rows leave the per-shard logs for
 * per-table topics as flat rows with envelope fields, a keyspace id header and only the keyspace ids of one key range
 * (whatever shard they were read from); control events stay on the shard topics, heartbeats are filtered out.
 */
class TransformsIT {
    @RegisterExtension
    static final MariaDbShards SHARDS = MariaDbShards.builder().count(2).name("TransformsIT").build();

    static final String KEYSPACE = "commerce";
    static final Vindex HASH = Vindexes.named("hash");
    static final KeyRange KEPT = KeyRange.parse("-80");
    static final List<String> SHARD_NAMES = List.of("-80", "80-");
    static final String T = "io.vstream.connect.transforms.";

    static ConnectCluster connect;

    @BeforeAll
    static void startConnect() {
        connect = ConnectCluster.builder().name("transforms-it").workers(1).start();
    }

    @AfterAll
    static void stopConnect() {
        if (connect != null) {
            connect.close();
        }
    }

    /** One row change as the test made it: where, what, and the value the vindex maps. */
    record Change(String table, String shard, String op, long id, long shardingValue, String amount) {
        boolean kept() {
            return KEPT.contains(HASH.keyspaceId(shardingValue));
        }
    }

    @Test
    void pluginsComeFromTheirArchiveAndReportTheirVersion() throws Exception {
        assertThatThrownBy(() -> Class.forName(T + "ExtractNewRow"))
                .as("the transforms must not be on the test classpath: they are loaded from plugin.path")
                .isInstanceOf(ClassNotFoundException.class);
        HttpResponse<String> plugins = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create(connect.restUrl() + "/connector-plugins?connectorsOnly=false")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(plugins.statusCode()).isEqualTo(200);
        String version = System.getProperty("project.version", "0.1.0-SNAPSHOT");
        for (String plugin : List.of("ExtractNewRow", "ShardToTableRouter", "KeyspaceIdHeader")) {
            assertThat(pluginEntry(plugins.body(), T + plugin)).contains("\"type\":\"transformation\"")
                    .contains("\"version\":\"" + version + "\"");
        }
        for (String plugin : List.of("IsRowEvent", "IsControlEvent", "EventTypeIs")) {
            assertThat(pluginEntry(plugins.body(), T + "predicates." + plugin)).contains("\"type\":\"predicate\"")
                    .contains("\"version\":\"" + version + "\"");
        }
    }

    @Test
    void rowsReachPerTableTopicsFlatWithKeyspaceIdsOfOneKeyRange() throws Exception {
        String db = SHARDS.freshDatabase();
        for (MariaDbServer s : SHARDS.servers()) {
            s.execute(db, "CREATE TABLE customer (id BIGINT PRIMARY KEY, name VARCHAR(32) NOT NULL)",
                    "CREATE TABLE orders (id BIGINT PRIMARY KEY, customer_id BIGINT UNSIGNED NOT NULL,"
                            + " amount DECIMAL(12,2))");
        }
        String name = "transforms-" + db;
        Map<String, String> config = SourceConfigs.with(SourceConfigs.keyspace(KEYSPACE, db, SHARDS.servers(), 1),
                "predicates", "isRow,isHeartbeat",
                "predicates.isRow.type", T + "predicates.IsRowEvent",
                "predicates.isHeartbeat.type", T + "predicates.EventTypeIs",
                "predicates.isHeartbeat.types", "HEARTBEAT",
                "transforms", "dropHeartbeats,route,unwrap,ksid",
                "transforms.dropHeartbeats.type", "org.apache.kafka.connect.transforms.Filter",
                "transforms.dropHeartbeats.predicate", "isHeartbeat",
                // the router sees rows only (predicate); unwrap and ksid pass control events themselves
                "transforms.route.type", T + "ShardToTableRouter",
                "transforms.route.predicate", "isRow",
                "transforms.unwrap.type", T + "ExtractNewRow",
                "transforms.unwrap.delete.handling", "rewrite",
                "transforms.unwrap.add.fields", "op,keyspace,shard,table,gtid,source.ts_ms",
                "transforms.unwrap.control.events", "pass",
                "transforms.ksid.type", T + "KeyspaceIdHeader",
                "transforms.ksid.vindex", "hash",
                "transforms.ksid.column", "orders:customer_id,id",
                "transforms.ksid.key.range", KEPT.name());
        connect.deploy(name, config);
        connect.awaitRunning(name, 1, Duration.ofSeconds(60));
        for (String shard : SHARD_NAMES) {
            awaitNonEmpty(shardTopic(db, shard));
        }

        List<Change> changes = writeRows(db);
        List<Change> customers = changes.stream().filter(c -> c.table().equals("customer") && c.kept()).toList();
        List<Change> orders = changes.stream().filter(c -> c.table().equals("orders") && c.kept()).toList();
        assertThat(customers).as("orphans on 80- whose keyspace id is in -80 are kept")
                .anyMatch(c -> c.shard().equals("80-"));
        assertThat(changes).as("orphans on -80 whose keyspace id is in 80- are dropped")
                .anyMatch(c -> c.shard().equals("-80") && !c.kept());

        // every record of the writes is in Kafka once the source has stored, on each shard, a position past them: a
        // record the transforms should have dropped would be there by then too
        for (int shard = 0; shard < SHARD_NAMES.size(); shard++) {
            SourceOffsets.awaitStored(connect, name, KEYSPACE, SHARD_NAMES.get(shard),
                    AppliedPosition.currentOf(SHARDS.server(shard)), Duration.ofSeconds(60));
        }
        String prefix = "vs_" + db;
        List<Decoded> customerTopic = awaitRecords(name, prefix + "." + KEYSPACE + ".customer", customers.size());
        List<Decoded> orderTopic = awaitRecords(name, prefix + "." + KEYSPACE + ".orders", orders.size());

        assertThat(customerTopic.stream().map(d -> asChange("customer", d, "id")).toList())
                .containsExactlyInAnyOrderElementsOf(customers);
        assertThat(orderTopic.stream().map(d -> asChange("orders", d, "customer_id")).toList())
                .containsExactlyInAnyOrderElementsOf(orders);
        assertThat(opsById(orderTopic.stream().map(d -> asChange("orders", d, "customer_id")).toList()))
                .as("each row's changes in commit order").isEqualTo(opsById(orders));

        for (Decoded d : orderTopic) {
            Struct v = (Struct) d.value().value();
            Struct key = (Struct) d.key().value();
            assertThat(key.schema().fields()).as("keyed by the primary key").hasSize(1);
            assertThat(key.getInt64("id")).isEqualTo(v.getInt64("id"));
            assertThat(v.schema().fields().stream().map(f -> f.name()).toList()).containsExactly("id", "customer_id",
                    "amount", "__op", "__keyspace", "__shard", "__table", "__gtid", "__source_ts_ms", "__deleted");
            assertThat(v.getString("__keyspace")).isEqualTo(KEYSPACE);
            assertThat(v.getString("__table")).isEqualTo("orders");
            assertThat(v.getString("__gtid")).matches("\\d+-\\d+-\\d+");
            assertThat(v.getInt64("__source_ts_ms")).isPositive();
            assertThat(v.getBoolean("__deleted")).isEqualTo("d".equals(v.getString("__op")));
            assertThat(d.header(EventHeaders.EVENT)).isEqualTo(EventType.ROW.headerValue());
            assertThat(d.header(EventHeaders.KEYSPACE)).isEqualTo(KEYSPACE);
            assertThat(d.header(EventHeaders.TABLE)).isEqualTo("orders");
            assertThat(d.header(EventHeaders.SHARD)).isEqualTo(v.getString("__shard"));
            String ksid = d.header("vstream.keyspace_id");
            BigDecimal customerId = (BigDecimal) v.get("customer_id");
            assertThat(ksid).isEqualTo(HexFormat.of().formatHex(HASH.keyspaceId(customerId.toBigIntegerExact())));
            assertThat(KEPT.contains(HexFormat.of().parseHex(ksid))).as("keyspace id %s in %s", ksid, KEPT).isTrue();
        }
        for (Decoded d : customerTopic) {
            Struct v = (Struct) d.value().value();
            assertThat(v.getString("name")).isEqualTo("c" + v.getInt64("id"));
            assertThat(d.header("vstream.keyspace_id"))
                    .isEqualTo(HexFormat.of().formatHex(HASH.keyspaceId(v.getInt64("id"))));
        }

        for (String shard : SHARD_NAMES) {
            List<Decoded> log = connect.topics().readAll(shardTopic(db, shard), false);
            Set<String> events = new TreeSet<>();
            log.forEach(d -> events.add(d.header(EventHeaders.EVENT)));
            assertThat(events).as("control events stay on shard %s's topic; rows and heartbeats do not", shard)
                    .contains("VGTID", "FIELD", "BEGIN", "COMMIT").doesNotContain("ROW", "HEARTBEAT");
        }
        connect.delete(name);
    }

    /**
     * Customers 1..12 on the shard that owns their keyspace id, 13..16 on the other one (orphans, as a reshard
     * leaves them); orders 1..24 on their customer's shard; then updates of every 4th order and deletes of every 6th.
     */
    private static List<Change> writeRows(String db) throws Exception {
        List<Change> changes = new ArrayList<>();
        Map<Long, Integer> customerShard = new LinkedHashMap<>();
        for (long id = 1; id <= 16; id++) {
            int owner = KEPT.contains(HASH.keyspaceId(id)) ? 0 : 1;
            customerShard.put(id, id <= 12 ? owner : 1 - owner);
        }
        Map<Long, String> amounts = new LinkedHashMap<>();
        for (int shard = 0; shard < 2; shard++) {
            String shardName = SHARD_NAMES.get(shard);
            try (Connection c = SHARDS.server(shard).connect(db); Statement st = c.createStatement()) {
                c.setAutoCommit(false);
                for (Map.Entry<Long, Integer> e : customerShard.entrySet()) {
                    if (e.getValue() == shard) {
                        st.executeUpdate("INSERT INTO customer VALUES (" + e.getKey() + ", 'c" + e.getKey() + "')");
                        changes.add(new Change("customer", shardName, "c", e.getKey(), e.getKey(), null));
                    }
                }
                c.commit();
                for (long id = 1; id <= 24; id++) {
                    long customer = id % 16 + 1;
                    if (customerShard.get(customer) != shard) {
                        continue;
                    }
                    String amount = id + ".50";
                    amounts.put(id, amount);
                    st.executeUpdate("INSERT INTO orders VALUES (" + id + ", " + customer + ", " + amount + ")");
                    changes.add(new Change("orders", shardName, "c", id, customer, amount));
                    c.commit();
                }
                for (long id = 1; id <= 24; id++) {
                    long customer = id % 16 + 1;
                    if (customerShard.get(customer) != shard) {
                        continue;
                    }
                    if (id % 4 == 0) {
                        String amount = (id + 1) + ".50";
                        st.executeUpdate("UPDATE orders SET amount = amount + 1 WHERE id = " + id);
                        changes.add(new Change("orders", shardName, "u", id, customer, amount));
                        amounts.put(id, amount);
                    }
                    if (id % 6 == 0) {
                        st.executeUpdate("DELETE FROM orders WHERE id = " + id);
                        changes.add(new Change("orders", shardName, "d", id, customer, amounts.get(id)));
                    }
                    c.commit();
                }
            }
        }
        return changes;
    }

    /** The JSON object of {@code GET /connector-plugins} that describes {@code className}. */
    private static String pluginEntry(String body, String className) {
        int at = body.indexOf("\"class\":\"" + className + "\"");
        assertThat(at).as("%s is listed in %s", className, body).isNotNegative();
        return body.substring(body.lastIndexOf('{', at), body.indexOf('}', at) + 1);
    }

    private static Change asChange(String table, Decoded d, String shardingColumn) {
        Struct v = (Struct) d.value().value();
        Object sharding = v.get(shardingColumn);
        long shardingValue = sharding instanceof BigDecimal b ? b.longValueExact() : (Long) sharding;
        BigDecimal amount = v.schema().field("amount") == null ? null : (BigDecimal) v.get("amount");
        String op = v.schema().field("__op") == null ? "c" : v.getString("__op");
        String shard = v.schema().field("__shard") == null ? d.header(EventHeaders.SHARD) : v.getString("__shard");
        return new Change(table, shard, op, v.getInt64("id"), shardingValue,
                amount == null ? null : amount.toPlainString());
    }

    private static Map<Long, List<String>> opsById(List<Change> changes) {
        Map<Long, List<String>> out = new java.util.TreeMap<>();
        changes.forEach(c -> out.computeIfAbsent(c.id(), k -> new ArrayList<>()).add(c.op()));
        return out;
    }

    private static String shardTopic(String db, String shard) {
        return TopicNames.shardTopic("vs_" + db, KEYSPACE, shard);
    }

    private static void awaitNonEmpty(String topic) {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < deadline) {
            try {
                if (!connect.topics().readAll(topic, false).isEmpty()) {
                    return;
                }
            } catch (RuntimeException e) {
                // topic not there yet
            }
            sleep(200);
        }
        throw new AssertionError(topic + " stayed empty: the shard did not start streaming");
    }

    private static List<Decoded> awaitRecords(String connector, String topic, int count) {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        List<Decoded> records = List.of();
        while (System.nanoTime() < deadline) {
            try {
                records = connect.topics().readAll(topic, false);
                if (records.size() >= count) {
                    return records;
                }
            } catch (RuntimeException e) {
                // topic not there yet
            }
            sleep(250);
        }
        var status = connect.status(connector);
        throw new AssertionError(topic + " has " + records.size() + " of " + count + " expected records; connector "
                + status.connector().state() + ", tasks " + status.tasks().stream()
                .map(t -> t.state() + (t.trace() == null ? "" : ": " + t.trace())).toList());
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
