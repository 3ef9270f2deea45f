package io.vstream.connect.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vstream.connect.core.event.EventHeaders;
import io.vstream.connect.core.event.EventType;
import io.vstream.connect.core.event.TopicNames;
import io.vstream.connect.testsupport.connect.ConnectCluster;
import io.vstream.connect.testsupport.db.MariaDbServer;
import io.vstream.connect.testsupport.db.MariaDbShards;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.runtime.rest.entities.ConfigInfo;
import org.apache.kafka.connect.runtime.rest.entities.ConfigInfos;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The source connector in a real 2-worker Connect cluster, loaded from its packaged plugin archive, against two real
 * MariaDB shards: deployment and validation through REST, and a stream that holds every committed transaction of
 * each shard exactly once, in commit order, with the right row images.
 */
class SourceConnectorIT {
    @RegisterExtension
    static final MariaDbShards SHARDS = MariaDbShards.builder().count(2).name("SourceConnectorIT").build();

    static ConnectCluster connect;

    @BeforeAll
    static void startConnect() {
        connect = ConnectCluster.builder().name("source-it").workers(2).start();
    }

    @AfterAll
    static void stopConnect() {
        if (connect != null) {
            connect.close();
        }
    }

    @Test
    void pluginComesFromItsArchiveAndReportsItsVersion() throws Exception {
        assertThatThrownBy(() -> Class.forName(SourceConfigs.SOURCE_CLASS))
                .as("the connector must not be on the test classpath: it is loaded from plugin.path")
                .isInstanceOf(ClassNotFoundException.class);
        HttpResponse<String> plugins = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create(connect.restUrl() + "/connector-plugins?connectorsOnly=true")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(plugins.statusCode()).isEqualTo(200);
        assertThat(plugins.body()).contains("\"class\":\"" + SourceConfigs.SOURCE_CLASS + "\"");
        assertThat(plugins.body()).contains("\"version\":\"" + System.getProperty("project.version", "0.1.0-SNAPSHOT")
                + "\"");
    }

    @Test
    void validateNamesTheFieldOfEachError() {
        String db = SHARDS.freshDatabase();
        Map<String, String> config = SourceConfigs.with(SourceConfigs.keyspace("ks", db, SHARDS.servers(), 1),
                "topology", "-80=127.0.0.1:1,40-=127.0.0.1:2",
                "start.mode", "position",
                "start.position", "{\"shard_gtids\":[{\"keyspace\":\"ks\",\"shard\":\"-80\",\"gtid\":\"MariaDB/0-1\"}]}",
                "table.include.list", "orders(");
        ConfigInfos infos = connect.validate(SourceConfigs.SOURCE_CLASS, config);
        assertThat(errorsOf(infos, "topology")).anyMatch(e -> e.contains("overlap"));
        assertThat(errorsOf(infos, "start.position")).anyMatch(e -> e.contains("MariaDB/0-1"));
        assertThat(errorsOf(infos, "table.include.list")).anyMatch(e -> e.contains("orders("));
        assertThat(errorsOf(infos, "keyspace")).isEmpty();

        ConfigInfos gap = connect.validate(SourceConfigs.SOURCE_CLASS,
                SourceConfigs.with(config, "topology", "-40=127.0.0.1:1,80-=127.0.0.1:2", "start.mode", "current",
                        "table.include.list", ""));
        assertThat(errorsOf(gap, "topology")).anyMatch(e -> e.contains("gap"));
        assertThat(gap.errorCount()).as(String.valueOf(gap.configs().stream()
                .filter(c -> !c.configValue().errors().isEmpty()).map(c -> c.configValue()).toList())).isEqualTo(1);
    }

    @Test
    void streamsEveryCommittedTransactionOfEachShardOnceInCommitOrder() throws Exception {
        String db = SHARDS.freshDatabase();
        for (MariaDbServer s : SHARDS.servers()) {
            s.execute(db, "CREATE TABLE orders (id BIGINT PRIMARY KEY, customer VARCHAR(32) NOT NULL,"
                    + " amount DECIMAL(12,2), note TEXT CHARACTER SET utf8mb4, created DATETIME(6))");
            s.execute(db, "CREATE TABLE ignored (id INT PRIMARY KEY)");
        }
        String name = "cdc-" + db;
        connect.deploy(name, SourceConfigs.with(SourceConfigs.keyspace("commerce", db, SHARDS.servers(), 2),
                "table.exclude.list", "ignored"));
        connect.awaitRunning(name, 2, Duration.ofSeconds(60));
        awaitStarted(db, "-80");
        awaitStarted(db, "80-");

        List<List<String>> committed = new ArrayList<>();
        for (int shard = 0; shard < 2; shard++) {
            MariaDbServer s = SHARDS.server(shard);
            List<String> gtids = new ArrayList<>();
            try (Connection c = s.connect(db); Statement st = c.createStatement()) {
                c.setAutoCommit(false);
                for (int i = 1; i <= 40; i++) {
                    st.executeUpdate("INSERT INTO orders VALUES (" + i + ", 'c" + i + "', " + i + ".25, 'ünï ✓ "
                            + i + "', '2024-05-06 07:08:09.123456')");
                    if (i % 3 == 0) {
                        st.executeUpdate("UPDATE orders SET amount = amount + 1 WHERE id = " + (i - 1));
                    }
                    if (i % 5 == 0) {
                        st.executeUpdate("DELETE FROM orders WHERE id = " + (i - 2));
                    }
                    st.executeUpdate("INSERT INTO ignored VALUES (" + i + ")");
                    c.commit();
                    gtids.add(ShardLog.lastGtid(st));
                }
                st.executeUpdate("INSERT INTO ignored VALUES (1000)"); // a transaction of an excluded table only
                c.commit();
            }
            committed.add(gtids);
        }

        for (int shard = 0; shard < 2; shard++) {
            String shardName = shard == 0 ? "-80" : "80-";
            String topic = TopicNames.shardTopic("vs_" + db, "commerce", shardName);
            List<String> expected = committed.get(shard);
            ShardLog log = ShardLog.await(connect, topic, expected.get(expected.size() - 1), false,
                    Duration.ofSeconds(60));
            assertThat(log.gtids()).as("transactions of shard %s in commit order", shardName)
                    .containsExactlyElementsOf(expected);
            assertThat(log.commitsPerGtid.values()).allMatch(n -> n == 1);
            // the first transaction: one insert with every column decoded
            Struct first = log.transactions.get(0).rows().get(0);
            assertThat(first.getString("op")).isEqualTo("c");
            Struct after = first.getStruct("after");
            assertThat(after.getInt64("id")).isEqualTo(1L);
            assertThat(after.getString("customer")).isEqualTo("c1");
            assertThat(after.get("amount")).isEqualTo(new java.math.BigDecimal("1.25"));
            assertThat(after.getString("note")).isEqualTo("ünï ✓ 1");
            assertThat(after.getInt64("created")).isEqualTo(
                    java.time.LocalDateTime.parse("2024-05-06T07:08:09.123456")
                            .toEpochSecond(java.time.ZoneOffset.UTC) * 1_000_000L + 123_456L);
            Struct source = first.getStruct("source");
            assertThat(source.getString("keyspace")).isEqualTo("commerce");
            assertThat(source.getString("shard")).isEqualTo(shardName);
            assertThat(source.getString("table")).isEqualTo("orders");
            assertThat(source.getString("gtid")).isEqualTo(expected.get(0));
            // the third transaction updates row 2 with before and after images
            Struct update = log.transactions.get(2).rows().get(1);
            assertThat(update.getString("op")).isEqualTo("u");
            assertThat(update.getStruct("before").get("amount")).isEqualTo(new java.math.BigDecimal("2.25"));
            assertThat(update.getStruct("after").get("amount")).isEqualTo(new java.math.BigDecimal("3.25"));
            // the fifth deletes row 3
            Struct delete = log.transactions.get(4).rows().get(1);
            assertThat(delete.getString("op")).isEqualTo("d");
            assertThat(delete.getStruct("before").getInt64("id")).isEqualTo(3L);
            assertThat(delete.get("after")).isNull();
            // FIELD before the first row, no rows of the excluded table, heartbeats while idle
            assertThat(log.ofType(EventType.FIELD)).hasSize(1);
            assertThat(log.records).noneMatch(d -> "ignored".equals(d.header(EventHeaders.TABLE)));
        }
        connect.delete(name);
    }

    private void awaitStarted(String db, String shard) {
        String topic = TopicNames.shardTopic("vs_" + db, "commerce", shard);
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
        throw new AssertionError("shard " + shard + " did not start streaming");
    }



    private static List<String> errorsOf(ConfigInfos infos, String key) {
        for (ConfigInfo ci : infos.configs()) {
            if (ci.configValue().name().equals(key)) {
                return ci.configValue().errors();
            }
        }
        return List.of();
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

}
