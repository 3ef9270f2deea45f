package io.vstream.connect.it;

import io.vstream.connect.testsupport.db.MariaDbServer;
import java.util.HashMap;
import java.util.Map;

/** Builds sink connector configurations for tests, in the form {@code PUT /connectors/{name}/config} takes. */
final class SinkConfigs {
    static final String SINK_CLASS = "io.vstream.connect.sink.VStreamSinkConnector";

    private SinkConfigs() {
    }

    static Map<String, String> clone(String topics, MariaDbServer target) {
        Map<String, String> c = new HashMap<>();
        c.put("connector.class", SINK_CLASS);
        c.put("tasks.max", "1");
        c.put("topics", topics);
        c.put("mode", "clone");
        c.put("target.host", target.host());
        c.put("target.port", String.valueOf(target.port()));
        c.put("target.user", MariaDbServer.USER);
        c.put("target.password", MariaDbServer.PASSWORD);
        c.put("retry.backoff.initial.ms", "200");
        c.put("retry.backoff.max.ms", "2000");
        c.put("consumer.override.max.poll.records", "2000");
        // a sink subscribed before its topic exists sees it only at the next metadata refresh (5 min by default)
        c.put("consumer.override.metadata.max.age.ms", "1000");
        return c;
    }
}
