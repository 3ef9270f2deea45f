package io.vstream.connect.it;

import static io.vstream.connect.it.LocalPorts.freePort;
import static io.vstream.connect.it.LocalPorts.freshDir;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.vstream.connect.core.event.TopicNames;
import io.vstream.connect.local.ConnectRest;
import io.vstream.connect.local.ConnectWorker;
import io.vstream.connect.local.KafkaBroker;
import io.vstream.connect.local.KafkaClasspath;
import io.vstream.connect.local.load.LoadStats;
import io.vstream.connect.local.load.LoadTable;
import io.vstream.connect.local.load.LoadTransaction;
import io.vstream.connect.local.load.Target;
import io.vstream.connect.local.load.WriteLoad;
import io.vstream.connect.testsupport.connect.TopicReader;
import io.vstream.connect.testsupport.db.MariaDbServer;
import io.vstream.connect.testsupport.db.MariaDbShards;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Scale past one process (docs/scale.md): a keyspace of 16 shards (16 {@code mariadbd}) streamed by one CDC source
 * connector with a task per shard, on a Connect cluster of three workers, each its own JVM, in exactly-once mode. The
 * tasks spread evenly over the workers; a worker killed with SIGKILL under a write load has its tasks moved to the
 * others, each shard resumes from its own offset, and a {@code read_committed} consumer of every shard's topic sees
 * every acknowledged transaction exactly once, in commit order, with the same row changes.
 */
class ShardsAcrossWorkersIT {
    private static final int SHARDS = 16;
    private static final int WORKERS = 3;

    @RegisterExtension
    static final MariaDbShards SERVERS = MariaDbShards.builder().count(SHARDS).name("ShardsAcrossWorkersIT").build();

    @Test
    void sixteenShardsOverThreeWorkerProcessesLoseAWorkerAndNothingIsLostOrRepeated() throws Exception {
        String db = SERVERS.freshDatabase();
        List<String> names = new ArrayList<>();
        List<String> topology = new ArrayList<>();
        for (int i = 0; i < SHARDS; i++) {
            MariaDbServer s = SERVERS.server(i);
            s.execute("mysql", DocumentedGrants.statements("cdc source", db).toArray(String[]::new));
            String name = (i == 0 ? "" : String.format(Locale.ROOT, "%x0", i)) + "-"
                    + (i == SHARDS - 1 ? "" : String.format(Locale.ROOT, "%x0", i + 1));
            names.add(name);
            topology.add(name + "=" + s.host() + ":" + s.port());
        }
        Path dir = freshDir(Path.of("target", "workers-at-scale").toAbsolutePath());
        Path plugins = Path.of(System.getProperty("vstream.plugins.dir", "target/plugins")).toAbsolutePath();
        KafkaClasspath classpath = KafkaClasspath.load();
        KafkaBroker broker = new KafkaBroker(dir.resolve("kafka"), freePort(), freePort(), classpath, null, true);
        List<ConnectWorker> workers = new ArrayList<>();
        for (int w = 0; w < WORKERS; w++) {
            workers.add(new ConnectWorker(dir.resolve("connect-" + w), freePort(), broker.bootstrapServers(), plugins,
                    dir, classpath, null, true).property("exactly.once.source.support", "enabled"));
        }
        Thread reaper = new Thread(() -> stopAll(workers, broker), "workers-at-scale-reaper");
        Runtime.getRuntime().addShutdownHook(reaper);
        try (WriteLoad load = WriteLoad.builder(Target.byModulo(SERVERS.servers(), db))
                .table(LoadTable.standard("orders")).threads(4).keySpace(20_000).statementsPerTransaction(1, 3)
                .deleteRatio(0.1).transactionsPerSecond(160).duration(Duration.ofSeconds(300)).failOnError(false)
                .seed(16).build()) {
            load.createTables();
            broker.start(Duration.ofSeconds(60));
            ConnectRest rest = null;
            for (ConnectWorker w : workers) {
                rest = w.start(Duration.ofSeconds(90));
            }
            Map<String, String> source = SourceConfigs.keyspace("ks", db, List.of(SERVERS.server(0)), SHARDS);
            source.put("topology", String.join(",", topology));
            source.put("user", "vstream");
            source.put("password", DocumentedGrants.PASSWORD);
            source.put("exactly.once.support", "required");
            source.put("transaction.boundary", "connector");
            rest.putConfig("ks-cdc", source);
            rest.awaitRunning("ks-cdc", SHARDS, Duration.ofSeconds(120));
            Map<String, Integer> perWorker = tasksPerWorker(rest.status("ks-cdc"));
            assertThat(perWorker).as("tasks per worker").hasSize(WORKERS);
            assertThat(perWorker.values()).as("an even spread").allSatisfy(n -> assertThat(n).isBetween(5, 6));
            // a task RUNNING has not necessarily read its shard's start position yet: the load starts once a marker
            // written on every shard has reached its topic (the writers' transactions are all after the start)
            TopicReader topics = TopicReader.at(broker.bootstrapServers());
            for (int i = 0; i < SHARDS; i++) {
                ShardLog.awaitStreaming(topics, TopicNames.shardTopic("vs_" + db, "ks", names.get(i)),
                        SERVERS.server(i), db, true, Duration.ofSeconds(120));
            }

            load.start();
            load.awaitCommits(800, Duration.ofSeconds(120));
            ConnectWorker victim = workers.get(0);
            String victimId = victim.restUrl().replace("http://", "");
            long killed = victim.process().pid();
            long killedAt = System.nanoTime();
            ProcessHandle.of(killed).ifPresent(ProcessHandle::destroyForcibly);
            awaitGone(killed);
            ConnectRest survivor = new ConnectRest(workers.get(1).restUrl());
            Map<String, Integer> after = awaitMoved(survivor, victimId, Duration.ofSeconds(180));
            long movedMs = (System.nanoTime() - killedAt) / 1_000_000;
            assertThat(after.keySet()).as("the tasks run on the two workers left").hasSize(WORKERS - 1)
                    .doesNotContain(victimId);
            load.awaitCommits(load.stats().commits() + 800, Duration.ofSeconds(120)); // the load goes on after the move
            LoadStats stats = load.stop();
            assertThat(stats.commits()).isGreaterThan(1_600);

            // every shard's topic, as a read_committed consumer sees it, against the writers' model of that shard
            for (int i = 0; i < SHARDS; i++) {
                ShardLog log = ShardLog.await(topics, TopicNames.shardTopic("vs_" + db, "ks", names.get(i)),
                        ShardLog.mark(SERVERS.server(i), db), true, Duration.ofSeconds(120));
                int shard = i;
                List<LoadTransaction> mine = load.committedTransactions(shard).stream()
                        .filter(t -> t.thread() >= 0).toList();
                assertThat(mine).as("shard %s had writes", names.get(i)).isNotEmpty();
                assertThat(StreamVerifier.verify(log, mine, true, 20))
                        .as("shard %s against %d acknowledged transactions", names.get(shard), mine.size()).isEmpty();
            }
            System.out.printf(Locale.ROOT, "scale: 16 shards over 3 workers: tasks per worker %s; worker %s killed,"
                    + " tasks running again on %s within %,d ms; %,d transactions committed, every one exactly once%n",
                    perWorker.values(), victimId, after.values(), movedMs, stats.commits());
            survivor.delete("ks-cdc");
        } finally {
            stopAll(workers, broker);
            Runtime.getRuntime().removeShutdownHook(reaper);
        }
    }

    private static Map<String, Integer> tasksPerWorker(JsonNode status) {
        Map<String, Integer> out = new TreeMap<>();
        for (JsonNode t : status.path("tasks")) {
            out.merge(t.path("worker_id").asText(), 1, Integer::sum);
        }
        return out;
    }

    /** Waits until every task runs again, none on the killed worker; returns the tasks per worker then. */
    private static Map<String, Integer> awaitMoved(ConnectRest rest, String victim, Duration timeout)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        JsonNode last = null;
        while (System.nanoTime() < deadline) {
            try {
                last = rest.status("ks-cdc");
                boolean allRunning = last.path("tasks").size() == SHARDS;
                for (JsonNode t : last.path("tasks")) {
                    allRunning &= "RUNNING".equals(t.path("state").asText())
                            && !victim.equals(t.path("worker_id").asText());
                }
                if (allRunning) {
                    return tasksPerWorker(last);
                }
            } catch (RuntimeException e) {
                // a rebalance is under way
            }
            Thread.sleep(500);
        }
        throw new AssertionError("the tasks did not move off the killed worker " + victim + ": " + last);
    }

    private static void awaitGone(long pid) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("worker " + pid + " did not die");
            }
            Thread.sleep(100);
        }
    }

    private static void stopAll(List<ConnectWorker> workers, KafkaBroker broker) {
        workers.forEach(ConnectWorker::stop);
        broker.stop();
    }
}
