package io.vstream.connect.coordinator;

import java.util.HashMap;
import java.util.Map;

/** The configs the workflows' unit tests run with: their servers are fakes, so the addresses are never reached. */
final class WorkflowFixtures {
    static final String WORKFLOW = "orders-ddl";
    static final String MIGRATION = WORKFLOW; // ddl.migration defaults to the workflow's name

    private WorkflowFixtures() {
    }

    /** An online DDL of shop.orders on shards -80 and 80-, with {@code more} (key, value, ...) on top. */
    static VStreamCoordinatorConnectorConfig onlineDdl(String... more) {
        Map<String, String> p = new HashMap<>();
        p.put("workflow", "online-ddl");
        p.put("applier.stream", "orders-ddl");
        p.put("source.user", "vsc");
        p.put("shards", "-80=db1:3306,80-=db2:3306");
        p.put("ddl.database", FakeOnlineDdlServers.DB);
        p.put("ddl.table", FakeOnlineDdlServers.TABLE);
        p.put("ddl.alter", "ADD COLUMN note TEXT");
        p.put("cutover.max.attempts", "3");
        return config(p, more);
    }

    /** A clone of source:3306 into target:3306, with {@code more} (key, value, ...) on top. */
    static VStreamCoordinatorConnectorConfig clone(String... more) {
        Map<String, String> p = new HashMap<>();
        p.put("workflow", "clone");
        p.put("applier.stream", "shop-clone");
        p.put("source.host", "source");
        p.put("source.user", "vsc");
        p.put("target.host", "target");
        p.put("target.user", "vsc");
        p.put("replication.user", "repl");
        p.put("cutover.max.attempts", "3");
        return config(p, more);
    }

    static VStreamCoordinatorConnectorConfig config(Map<String, String> p, String... more) {
        for (int i = 0; i < more.length; i += 2) {
            p.put(more[i], more[i + 1]);
        }
        return new VStreamCoordinatorConnectorConfig(p);
    }
}
