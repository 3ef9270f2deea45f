package io.vstream.connect.it;

import io.vstream.connect.core.event.TopicNames;
import io.vstream.connect.testsupport.db.MariaDbServer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The three connector configurations of an online ALTER on two shards ({@code -80}, {@code 80-}), with the accounts
 * docs/grants.md prints: the coordinator ({@code vstream_ddl}), the source streaming the table's changes
 * ({@code vstream}) and the ghost sink, one applier task per shard's log ({@code vstream_ddl}). Tests add their own
 * keys to what these return.
 */
final class OnlineDdlConfigs {
    static final String COORDINATOR_CLASS = "io.vstream.connect.coordinator.VStreamCoordinatorConnector";

    private OnlineDdlConfigs() {
    }

    /** {@code -80=<host>:<port>,80-=<host>:<port>} of the first two servers. */
    static String topology(List<MariaDbServer> shards) {
        return "-80=" + shards.get(0).host() + ":" + shards.get(0).port() + ",80-=" + shards.get(1).host() + ":"
                + shards.get(1).port();
    }

    /** The coordinator of migration {@code db} of {@code db.table}; its status records go to {@code statusTopic}. */
    static Map<String, String> coordinator(List<MariaDbServer> shards, String db, String table, String alter,
                                           String sink, String statusTopic) {
        Map<String, String> c = new HashMap<>();
        c.put("connector.class", COORDINATOR_CLASS);
        c.put("tasks.max", "1");
        c.put("workflow", "online-ddl");
        c.put("applier.stream", sink);
        c.put("status.topic", statusTopic);
        c.put("shards", topology(shards));
        c.put("source.user", "vstream_ddl");
        c.put("source.password", DocumentedGrants.PASSWORD);
        c.put("ddl.database", db);
        c.put("ddl.table", table);
        c.put("ddl.alter", alter);
        c.put("ddl.migration", db);
        c.put("poll.interval.ms", "300");
        c.put("ddl.prefer.instant", "false"); // the tests copy (their ALTERs could run instantly)
        c.put("topic.creation.default.partitions", "1");
        c.put("topic.creation.default.replication.factor", "1");
        return c;
    }

    /** The source: the table's changes from now on ({@code copy}: its rows too, for the stream copy). */
    static Map<String, String> source(List<MariaDbServer> shards, String db, String table, boolean copy) {
        return SourceConfigs.with(SourceConfigs.keyspace("ks", db, shards, 2), "table.include.list", table,
                "heartbeat.interval.ms", "200", "start.mode", copy ? "copy" : "current", "user", "vstream",
                "password", DocumentedGrants.PASSWORD);
    }

    /** The ghost sink of migration {@code db}, reading both shards' logs. */
    static Map<String, String> ghostSink(List<MariaDbServer> shards, String db) {
        Map<String, String> c = SinkConfigs.clone(TopicNames.shardTopic("vs_" + db, "ks", "-80") + ","
                + TopicNames.shardTopic("vs_" + db, "ks", "80-"), shards.get(0));
        c.remove("target.host");
        c.put("mode", "ghost");
        c.put("tasks.max", "2"); // one applier task per shard's log
        c.put("consumer.override.partition.assignment.strategy",
                "org.apache.kafka.clients.consumer.RoundRobinAssignor");
        c.put("target.topology", topology(shards));
        c.put("ghost.migration", db);
        c.put("target.binlog", "on"); // the ghost table's writes replicate like the table's
        c.put("target.user", "vstream_ddl");
        c.put("target.password", DocumentedGrants.PASSWORD);
        return c;
    }
}
