package io.vstream.connect.coordinator.cutover;

import static org.assertj.core.api.Assertions.assertThat;

import io.vstream.connect.coordinator.cutover.MultiShardCutOver.Mode;
import io.vstream.connect.testsupport.db.MariaDbServer;
import io.vstream.connect.testsupport.db.MariaDbShards;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The multi-shard cut-over's real code over 16, 64 and 256 shards (docs/scale.md, "The cut-over as a function of
 * shards"): each shard is a database of its own on one of four real servers, so the statements, locks and RENAMEs are
 * the real ones. What varies per shard is simulated, from a fixed seed: about one shard in 32 has an application
 * transaction open on the table when the cut-over starts (a real metadata lock, released {@value #HOLD_MS} ms after
 * the shard's sentry is created, so the cut-over's LOCK TABLES waits for it), and each shard's applier takes 5-40 ms to reach
 * the position read under the lock (the barrier, the one part that stands in for the sink). Both modes run over the
 * same shards: all at once, where every shard is locked before any is unlocked, so each shard's writes wait for the
 * slowest shard; and per shard, where each shard's block is its own. It asserts the orderings and the outcome (every
 * shard swapped, the original kept, no sentry left); the times it prints go into docs/scale.md, and no assertion is
 * made on them.
 */
class CutOverAtScaleIT {
    private static final int SERVERS = 4;
    private static final long HOLD_MS = 250;
    private static final List<String> REPORT = Collections.synchronizedList(new ArrayList<>());

    @RegisterExtension
    static final MariaDbShards SERVERS_ = MariaDbShards.builder().count(SERVERS).maxConnections(400).build();

    @AfterAll
    static void report() {
        System.out.println("Cut-over at scale (shards, mode, slow shards, write block per shard p50 / p99 / max,"
                + " lock wait max, total):");
        REPORT.forEach(line -> System.out.println("  " + line));
    }

    @Test
    void allAtOnceLocksEveryShardBeforeUnlockingAnyAt16And64And256Shards() throws Exception {
        for (int n : new int[] {16, 64, 256}) {
            cutOver(n, Mode.ALL_AT_ONCE);
        }
    }

    @Test
    void perShardSwapsEachShardOnItsOwnAt16And64And256Shards() throws Exception {
        for (int n : new int[] {16, 64, 256}) {
            cutOver(n, Mode.PER_SHARD_AS_READY);
        }
    }

    private void cutOver(int n, Mode mode) throws Exception {
        Random random = new Random(20261203L + n);
        List<String> databases = new ArrayList<>();
        List<MultiShardCutOver.Shard> shards = new ArrayList<>();
        List<Integer> slow = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            MariaDbServer server = server(i);
            String db = server.freshDatabase("scale" + n + "s" + i);
            server.execute(db,
                    "CREATE TABLE t (id BIGINT NOT NULL PRIMARY KEY, v VARCHAR(32)) ENGINE=InnoDB",
                    "INSERT INTO t VALUES (1, 'a'), (2, 'b'), (3, 'c')",
                    "CREATE TABLE _t_gho (id BIGINT NOT NULL PRIMARY KEY, v VARCHAR(32), extra INT NULL) ENGINE=InnoDB",
                    "INSERT INTO _t_gho (id, v) SELECT id, v FROM t");
            databases.add(db);
            long applierMs = 5 + random.nextInt(36);
            if (random.nextInt(32) == 0) {
                slow.add(i);
            }
            shards.add(MultiShardCutOver.Shard.of("shard-" + i, () -> server.connect(null),
                    CutOverTables.of(db, "t", "_t_gho"), (position, timeout) -> Thread.sleep(applierMs)));
        }
        if (slow.isEmpty()) {
            slow.add(n / 2); // at least one, so that every size shows what one slow shard costs
        }
        Map<String, Long> locked = new ConcurrentHashMap<>();
        Map<String, Long> unlocking = new ConcurrentHashMap<>();
        Map<String, CountDownLatch> sentryCreated = new ConcurrentHashMap<>();
        List<Thread> holders = new ArrayList<>();
        CountDownLatch holding = new CountDownLatch(slow.size());
        for (int i : slow) {
            MariaDbServer server = server(i);
            String db = databases.get(i);
            CountDownLatch turn = new CountDownLatch(1);
            sentryCreated.put("shard-" + i, turn);
            Thread holder = new Thread(() -> holdTable(server, db, holding, turn), "mdl-holder-" + i);
            holder.start();
            holders.add(holder);
        }
        assertThat(holding.await(60, TimeUnit.SECONDS)).as("every slow shard's transaction is open").isTrue();
        long t0 = System.nanoTime();
        MultiShardCutOver.Result result = new MultiShardCutOver(shards,
                CutOverSettings.DEFAULTS.withRetries(1, Duration.ofMillis(100), Duration.ofMillis(100)), mode,
                Duration.ofSeconds(60)).withListener(e -> {
                    if (e.step() == CutOverStep.CREATE_SENTRY && sentryCreated.containsKey(e.shard())) {
                        sentryCreated.get(e.shard()).countDown(); // its LOCK TABLES comes next
                    } else if (e.step() == CutOverStep.LOCK) {
                        locked.put(e.shard(), System.nanoTime());
                    } else if (e.step() == CutOverStep.VERIFY_RENAME_WAITING) {
                        unlocking.put(e.shard(), System.nanoTime()); // the last step before the unlock
                    }
                }).run();
        long totalMs = (System.nanoTime() - t0) / 1_000_000;
        for (Thread holder : holders) {
            holder.join(TimeUnit.SECONDS.toMillis(60));
        }

        assertThat(result.allSwapped()).as(result.toString()).isTrue();
        for (int i = 0; i < n; i++) {
            MariaDbServer server = server(i);
            String db = databases.get(i);
            assertThat(server.queryLong(db, "SELECT COUNT(*) FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ?"
                    + " AND TABLE_NAME = 't' AND COLUMN_NAME = 'extra'", db)).as("shard %d has the new table", i)
                    .isEqualTo(1);
            assertThat(server.queryLong(db, "SELECT COUNT(*) FROM t_old")).as("shard %d kept the original", i)
                    .isEqualTo(3);
            assertThat(CutOverFixture.sentries(server, db)).isZero();
        }
        long lastLock = Collections.max(locked.values());
        long firstUnlock = Collections.min(unlocking.values());
        if (mode == Mode.ALL_AT_ONCE) {
            assertThat(lastLock).as("every shard is locked before any is unlocked").isLessThan(firstUnlock);
        } else {
            // each shard on its own: the first shard is unlocked before the last one is locked
            assertThat(firstUnlock).as("shards swap one after another").isLessThan(lastLock);
        }
        List<Long> blocks = result.shards().stream().map(r -> r.writeBlock().toMillis()).sorted()
                .collect(Collectors.toList());
        long lockWaitMax = result.shards().stream()
                .mapToLong(r -> r.stepDurations().getOrDefault(CutOverStep.LOCK, Duration.ZERO).toMillis()).max()
                .orElse(0);
        StringBuilder steps = new StringBuilder();
        for (CutOverStep step : CutOverStep.values()) {
            long max = result.shards().stream()
                    .mapToLong(r -> r.stepDurations().getOrDefault(step, Duration.ZERO).toMillis()).max().orElse(0);
            steps.append(steps.length() == 0 ? "" : ", ").append(step.number()).append(':').append(max);
        }
        REPORT.add(String.format("%d shards, %s, %d slow (held %d ms): %d / %d / %d ms, %d ms, %d ms; slowest shard"
                        + " per step (ms) %s", n, mode, slow.size(), HOLD_MS, percentile(blocks, 50),
                percentile(blocks, 99), blocks.get(blocks.size() - 1), lockWaitMax, totalMs, steps));
    }

    /**
     * An application transaction that has read the table (a shared metadata lock) and commits {@value #HOLD_MS} ms
     * after the cut-over of its shard created the sentry, i.e. while the cut-over's LOCK TABLES waits for it.
     */
    private static void holdTable(MariaDbServer server, String db, CountDownLatch holding, CountDownLatch turn) {
        try (Connection c = server.connect(db); Statement st = c.createStatement()) {
            c.setAutoCommit(false);
            st.executeQuery("SELECT COUNT(*) FROM t").close();
            holding.countDown();
            if (!turn.await(120, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the cut-over never reached shard of " + db);
            }
            Thread.sleep(HOLD_MS);
            c.commit();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static MariaDbServer server(int shard) {
        return SERVERS_.server(shard % SERVERS);
    }

    private static long percentile(List<Long> sorted, int p) {
        int index = (int) Math.ceil(p / 100.0 * sorted.size()) - 1;
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, index)));
    }
}
