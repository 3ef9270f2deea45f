package io.vstream.connect.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.vstream.connect.core.event.TopicNames;
import io.vstream.connect.local.load.LoadStats;
import io.vstream.connect.local.load.LoadTable;
import io.vstream.connect.local.load.LoadTransaction;
import io.vstream.connect.local.load.Target;
import io.vstream.connect.local.load.WriteLoad;
import io.vstream.connect.testsupport.connect.ConnectCluster;
import io.vstream.connect.testsupport.db.MariaDbShards;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The source connector under a concurrent write load on two shards while Connect loses the worker that runs a task
 * and a shard's server restarts: every acknowledged transaction is in its shard's log, in commit order, with the
 * right images (at least once by default; exactly once for a read_committed consumer with exactly-once support).
 */
class SourceRecoveryIT {
    @RegisterExtension
    static final MariaDbShards SHARDS = MariaDbShards.builder().count(2).name("SourceRecoveryIT").build();

    private static final String[] SHARD_NAMES = {"-80", "80-"};

    @Test
    void workerLossAndShardRestartLoseNothing() throws Exception {
        try (ConnectCluster connect = ConnectCluster.builder().name("recovery").workers(3).start()) {
            runScenario(connect, false);
        }
    }

    @Test
    void exactlyOnceAcrossWorkerLoss() throws Exception {
        try (ConnectCluster connect = ConnectCluster.builder().name("eos").workers(3).exactlyOnceSource().start()) {
            runScenario(connect, true);
        }
    }

    private void runScenario(ConnectCluster connect, boolean exactlyOnce) throws Exception {
        String db = SHARDS.freshDatabase();
        String name = "cdc-" + db;
        try (WriteLoad load = WriteLoad.builder(Target.byModulo(SHARDS.servers(), db))
                .table(LoadTable.standard("orders"))
                .threads(2)
                .keySpace(2_000)
                .statementsPerTransaction(1, 4)
                .deleteRatio(0.1)
                .transactionsPerSecond(120)
                .duration(Duration.ofSeconds(30))
                .failOnError(false)
                .seed(42)
                .build()) {
            load.createTables();
            Map<String, String> config = SourceConfigs.keyspace("commerce", db, SHARDS.servers(), 2);
            if (exactlyOnce) {
                config = SourceConfigs.with(config, "exactly.once.support", "required",
                        "transaction.boundary", "connector");
            }
            connect.deploy(name, config);
            connect.awaitRunning(name, 2, Duration.ofSeconds(60));
            // the load starts once both shards' streams have read their start position (a marker is in each topic):
            // the writers' transactions all come after it
            for (int shard = 0; shard < 2; shard++) {
                ShardLog.awaitStreaming(connect.topics(), TopicNames.shardTopic("vs_" + db, "commerce",
                        SHARD_NAMES[shard]), SHARDS.server(shard), db, exactlyOnce, Duration.ofSeconds(90));
            }
            load.start();
            load.awaitCommits(600, Duration.ofSeconds(90)); // streaming under load, then a worker is lost
            connect.removeWorkerRunning(name, 0);
            connect.addWorker();
            connect.awaitRunning(name, 2, Duration.ofSeconds(90));
            load.awaitCommits(load.stats().commits() + 300, Duration.ofSeconds(90));
            if (!exactlyOnce) {
                // the phase the fault names: shard 80-'s task streams the load (its latest acknowledged transaction on
                // that shard is in the log)
                String latest = load.committedTransactions(1).stream().filter(t -> t.gtid() != null)
                        .reduce((a, b) -> b).orElseThrow().gtid();
                ShardLog.await(connect, TopicNames.shardTopic("vs_" + db, "commerce", SHARD_NAMES[1]), latest, false,
                        Duration.ofSeconds(90));
                SHARDS.server(1).stop(); // a shard's server goes away while its task streams, for 1.5 s (the point)
                Thread.sleep(1_500);
                SHARDS.server(1).start();
            }
            LoadStats stats = load.awaitCompletion(Duration.ofSeconds(90));
            assertThat(stats.commits()).isGreaterThan(500);
            connect.awaitRunning(name, 2, Duration.ofSeconds(90));

            for (int shard = 0; shard < 2; shard++) {
                List<LoadTransaction> acked = load.committedTransactions(shard);
                assertThat(acked).isNotEmpty();
                String topic = TopicNames.shardTopic("vs_" + db, "commerce", SHARD_NAMES[shard]);
                String last = acked.stream().filter(t -> t.gtid() != null).reduce((a, b) -> b).orElseThrow().gtid();
                ShardLog log = ShardLog.await(connect, topic, last, exactlyOnce, Duration.ofSeconds(90));
                List<String> problems = StreamVerifier.verify(log, acked, exactlyOnce, 20);
                assertThat(problems).as("shard %s: %d acknowledged transactions, %d in the log",
                        SHARD_NAMES[shard], acked.size(), log.transactions.size()).isEmpty();
            }
        } finally {
            connect.delete(name);
        }
    }
}
