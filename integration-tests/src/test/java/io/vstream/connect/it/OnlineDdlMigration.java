package io.vstream.connect.it;

import io.vstream.connect.testsupport.connect.ConnectCluster;
import io.vstream.connect.testsupport.connect.TopicReader.Decoded;
import io.vstream.connect.testsupport.db.MariaDbServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Predicate;
import org.apache.kafka.connect.data.Struct;

/**
 * The three connectors of one online ALTER on two shards, as docs/online-ddl.md and config-examples deploy them
 * ({@link OnlineDdlConfigs}): the coordinator, the source of the table's changes and the ghost sink, named
 * {@code <prefix>-coord-<db>}, {@code <prefix>-src-<db>}, {@code <prefix>-sink-<db>}, the status records in
 * {@code <prefix>-status-<db>}. Deploys and deletes them through the Connect cluster's REST API and reads the
 * workflow's status topic; writes to the servers only the documented grants, when asked to.
 */
final class OnlineDdlMigration {
    final String db;
    final String table;
    final String source;
    final String sink;
    final String coordinator;
    final String statusTopic;
    /** Whether the coordinator watches the source's and sink's tasks on the cluster ({@code watch.connectors}). */
    boolean watched;

    private final ConnectCluster connect;
    private final List<MariaDbServer> shards;
    private int seen; // status records a wait for the next status has looked past

    OnlineDdlMigration(ConnectCluster connect, List<MariaDbServer> shards, String prefix, String db, String table) {
        this.connect = connect;
        this.shards = shards;
        this.db = db;
        this.table = table;
        this.source = prefix + "-src-" + db;
        this.sink = prefix + "-sink-" + db;
        this.coordinator = prefix + "-coord-" + db;
        this.statusTopic = prefix + "-status-" + db;
    }

    /** Creates the accounts docs/grants.md prints, as printed, on every shard: the workflow runs with exactly those. */
    OnlineDdlMigration withDocumentedAccounts() {
        for (MariaDbServer s : shards) {
            s.execute("mysql", DocumentedGrants.statements("cdc source", db).toArray(String[]::new));
            s.execute("mysql", DocumentedGrants.statements("online-ddl shard", db).toArray(String[]::new));
        }
        return this;
    }

    /** The coordinator's configuration, with the documented account; its status records go to the status topic. */
    Map<String, String> coordinatorConfig(String alter) {
        return coordinatorConfig(alter, statusTopic);
    }

    /** The coordinator's configuration, with the documented account; its status records go to {@code topic}. */
    Map<String, String> coordinatorConfig(String alter, String topic) {
        Map<String, String> c = OnlineDdlConfigs.coordinator(shards, db, table, alter, sink, topic);
        if (watched) {
            c.put("watch.connect.url", connect.restUrl());
            c.put("watch.connectors", source + "," + sink);
        }
        return c;
    }

    void deploy(String alter, Map<String, String> coordinatorExtra) {
        deploy(alter, coordinatorExtra, Map.of(), Map.of());
    }

    void deploy(String alter, Map<String, String> coordinatorExtra, Map<String, String> sourceExtra) {
        deploy(alter, coordinatorExtra, sourceExtra, Map.of());
    }

    /**
     * Deploys the coordinator (its configuration plus {@code coordinatorExtra}), then the source (which copies the
     * table's rows only for the stream copy, {@code ddl.copy.method=stream}) and the sink, each with its extra keys.
     */
    void deploy(String alter, Map<String, String> coordinatorExtra, Map<String, String> sourceExtra,
                Map<String, String> sinkExtra) {
        Map<String, String> c = coordinatorConfig(alter);
        c.putAll(coordinatorExtra);
        deployCoordinator(c);
        Map<String, String> sourceConfig = OnlineDdlConfigs.source(shards, db, table,
                "stream".equals(c.get("ddl.copy.method")));
        sourceConfig.putAll(sourceExtra);
        connect.deploy(source, sourceConfig);
        deploySink(sinkExtra);
    }

    /** Deploys (or reconfigures) the coordinator with {@code config}. */
    void deployCoordinator(Map<String, String> config) {
        connect.deploy(coordinator, config);
    }

    /** Deploys (or reconfigures) the ghost sink with the documented configuration plus {@code extra}. */
    void deploySink(Map<String, String> extra) {
        Map<String, String> sinkConfig = OnlineDdlConfigs.ghostSink(shards, db);
        sinkConfig.putAll(extra);
        connect.deploy(sink, sinkConfig);
    }

    /** Every status record so far, oldest first; none while the topic does not exist yet. */
    List<Struct> statuses() {
        List<Struct> all = new ArrayList<>();
        try {
            for (Decoded d : connect.topics().readAll(statusTopic, false)) {
                all.add((Struct) d.value().value());
            }
        } catch (RuntimeException e) {
            // the topic does not exist yet
        }
        return all;
    }

    /** Every status record up to the first one whose state is {@code state} (see {@link CloneHandoffIT#awaitState}). */
    List<Struct> awaitState(String state, Duration timeout) throws InterruptedException {
        return CloneHandoffIT.awaitState(connect, statusTopic, state, timeout);
    }

    /**
     * Fails unless the workflow is in {@code state} now and stays in it for {@code span} of its coordinator's status
     * records ({@link HeldState}): what a test that proves a state holds waits for, rather than a sleep.
     */
    void awaitHeld(String state, Duration span) throws InterruptedException {
        HeldState.await(connect, statusTopic, coordinator, state, span);
    }

    /** The first non-null answer of {@code probe} over all status records within {@code timeout}, or null. */
    <T> T firstStatus(Function<Struct, T> probe, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            for (Struct s : statuses()) {
                T t = probe.apply(s);
                if (t != null) {
                    return t;
                }
            }
            Thread.sleep(300);
        }
        return null;
    }

    /** {@link #awaitNextStatus} of {@code state}. */
    Struct awaitNextState(String state) throws InterruptedException {
        return awaitNextStatus(state, s -> state.equals(s.getString("state")));
    }

    /**
     * Waits for a status record after the one the previous wait for the next status returned that {@code wanted}
     * accepts, failing on FAILED or after 5 minutes.
     */
    Struct awaitNextStatus(String what, Predicate<Struct> wanted) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofMinutes(5).toNanos();
        String last = null;
        while (System.nanoTime() < deadline) {
            List<Struct> all = statuses();
            for (int i = seen; i < all.size(); i++) {
                if (wanted.test(all.get(i))) {
                    seen = i + 1;
                    return all.get(i);
                }
            }
            if (!all.isEmpty()) {
                Struct s = all.get(all.size() - 1);
                last = s.toString();
                if ("FAILED".equals(s.getString("state"))) {
                    throw new AssertionError("the workflow failed while waiting for " + what + ": " + s);
                }
            }
            Thread.sleep(500);
        }
        throw new AssertionError("the workflow never reached " + what + "; last status " + last);
    }

    /** Deletes the three connectors; those already gone are skipped. */
    void delete() {
        for (String n : List.of(sink, source, coordinator)) {
            try {
                connect.delete(n);
            } catch (RuntimeException e) {
                // already gone
            }
        }
    }
}
