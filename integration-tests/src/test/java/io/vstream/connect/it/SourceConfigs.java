package io.vstream.connect.it;

import io.vstream.connect.testsupport.db.MariaDbServer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Builds source connector configurations for tests, in the form {@code PUT /connectors/{name}/config} takes. */
final class SourceConfigs {
    static final String SOURCE_CLASS = "io.vstream.connect.source.VStreamSourceConnector";

    private SourceConfigs() {
    }

    /** A keyspace split in {@code -80} and {@code 80-} over two servers (or {@code -} over one). */
    static Map<String, String> keyspace(String keyspace, String database, List<MariaDbServer> servers, int tasks) {
        List<String> names = servers.size() == 1 ? List.of("-") : List.of("-80", "80-");
        List<String> entries = new ArrayList<>();
        for (int i = 0; i < servers.size(); i++) {
            entries.add(names.get(i) + "=" + servers.get(i).host() + ":" + servers.get(i).port());
        }
        Map<String, String> c = new HashMap<>();
        c.put("connector.class", SOURCE_CLASS);
        c.put("tasks.max", String.valueOf(tasks));
        c.put("keyspace", keyspace);
        c.put("database", database);
        c.put("topology", String.join(",", entries));
        c.put("user", MariaDbServer.USER);
        c.put("password", MariaDbServer.PASSWORD);
        c.put("topic.prefix", "vs_" + database);
        c.put("heartbeat.interval.ms", "500");
        c.put("topic.creation.default.partitions", "1");
        c.put("topic.creation.default.replication.factor", "1");
        c.put("retry.backoff.initial.ms", "200");
        c.put("retry.backoff.max.ms", "1000");
        return c;
    }

    static Map<String, String> with(Map<String, String> base, String... kv) {
        Map<String, String> c = new HashMap<>(base);
        for (int i = 0; i < kv.length; i += 2) {
            c.put(kv[i], kv[i + 1]);
        }
        return c;
    }
}
