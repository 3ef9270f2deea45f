package io.vstream.connect.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.vstream.connect.local.load.LoadStats;
import io.vstream.connect.local.load.WriteLoad;
import io.vstream.connect.testsupport.connect.ConnectCluster;
import io.vstream.connect.testsupport.db.MariaDbServer;
import io.vstream.connect.testsupport.db.MariaDbShards;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A split under a write load with a keyspace CDC connector in exactly-once mode ({@code exactly.once.source.support
 * =enabled}, {@code transaction.boundary=connector}) streaming through the switch, while the worker running it is
 * lost just after the switch: a {@code read_committed} consumer sees every acknowledged transaction exactly once, in
 * commit order, on the log of the server that took it (the old shard's log ending with the JOURNAL, the new shards'
 * starting at their journaled positions).
 */
class ReshardExactlyOnceIT {
    @RegisterExtension
    static final MariaDbShards SERVERS = MariaDbShards.builder().count(3).name("ReshardEosIT").build();

    static ConnectCluster connect;

    @BeforeAll
    static void startConnect() {
        connect = ConnectCluster.builder().name("reshard-eos").workers(2).exactlyOnceSource().start();
    }

    @AfterAll
    static void stopConnect() {
        if (connect != null) {
            connect.close();
        }
    }

    @Test
    void exactlyOnceThroughTheSwitchAcrossAWorkerLoss() throws Exception {
        Map<String, MariaDbServer> next = new LinkedHashMap<>();
        next.put("-80", SERVERS.server(1));
        next.put("80-", SERVERS.server(2));
        ReshardIT.Run run = new ReshardIT.Run(SERVERS, connect, Map.of("-", SERVERS.server(0)), next);
        run.readCommitted = true;
        try (WriteLoad load = run.load(ReshardIT.LOAD_BOUND_SECONDS)) {
            run.startCdc(Map.of("exactly.once.support", "required", "transaction.boundary", "connector"));
            run.deploy(Map.of());
            load.start();
            run.awaitSwitch();
            connect.removeWorkerRunning(run.cdc, 0); // while the consumer moves to the new shards
            connect.addWorker();
            LoadStats stats = run.stopLoadAfterWritesOnTheNewShards(load);
            assertThat(stats.commits()).isGreaterThan(300);
            run.verifyTargets(load);
            run.verifyCdc(load, true);
        } finally {
            run.delete();
        }
    }
}
