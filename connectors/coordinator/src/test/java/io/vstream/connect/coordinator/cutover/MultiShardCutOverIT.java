package io.vstream.connect.coordinator.cutover;

import static io.vstream.connect.coordinator.cutover.CutOverFixture.FIRST_LOAD_ID;
import static io.vstream.connect.coordinator.cutover.CutOverFixture.connections;
import static io.vstream.connect.coordinator.cutover.CutOverFixture.exists;
import static io.vstream.connect.coordinator.cutover.CutOverFixture.hasExtraColumn;
import static io.vstream.connect.coordinator.cutover.CutOverFixture.sentries;
import static io.vstream.connect.coordinator.cutover.CutOverFixture.settings;
import static io.vstream.connect.coordinator.cutover.CutOverFixture.tables;
import static io.vstream.connect.coordinator.cutover.CutOverFixture.writeWithin1s;
import static org.assertj.core.api.Assertions.assertThat;

import io.vstream.connect.coordinator.cutover.CutOverResult.Outcome;
import io.vstream.connect.coordinator.cutover.MultiShardCutOver.Mode;
import io.vstream.connect.testsupport.db.MariaDbServer;
import io.vstream.connect.testsupport.db.MariaDbShards;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Cut-over of a keyspace on two real MariaDB shards: all at once, aborting all, and per shard as ready. */
class MultiShardCutOverIT {

    @RegisterExtension
    static final MariaDbShards SHARDS = MariaDbShards.builder().count(2).build();

    @Test
    void allAtOnceLocksEveryShardBeforeUnlockingAny() throws Exception {
        String db = SHARDS.freshDatabase();
        List<CutOverFixture.MirrorApplier> appliers = new ArrayList<>();
        List<CutOverFixture.Load> loads = new ArrayList<>();
        List<MultiShardCutOver.Shard> shards = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            MariaDbServer server = SHARDS.server(i);
            CutOverFixture.createTables(server, db);
            CutOverFixture.MirrorApplier applier = new CutOverFixture.MirrorApplier(server, db);
            appliers.add(applier);
            shards.add(MultiShardCutOver.Shard.of("shard-" + i, connections(server), tables(db), applier.barrier()));
        }
        Map<String, Long> locked = new ConcurrentHashMap<>();
        Map<String, Long> unlocked = new ConcurrentHashMap<>();
        MultiShardCutOver cutOver = new MultiShardCutOver(shards, settings(), Mode.ALL_AT_ONCE, Duration.ofSeconds(5))
                .withListener(e -> {
                    if (e.step() == CutOverStep.LOCK) {
                        locked.put(e.shard(), System.nanoTime());
                    } else if (e.step() == CutOverStep.DROP_SENTRY_AND_UNLOCK) {
                        unlocked.put(e.shard(), System.nanoTime());
                    }
                });

        MultiShardCutOver.Result result;
        try {
            for (int i = 0; i < 2; i++) {
                loads.add(new CutOverFixture.Load(SHARDS.server(i), db, 1, 1, FIRST_LOAD_ID, appliers.get(i)::acked));
            }
            for (CutOverFixture.Load load : loads) {
                load.awaitProgress();
            }
            result = cutOver.run();
            for (CutOverFixture.Load load : loads) {
                load.awaitProgress();
            }
        } finally {
            for (CutOverFixture.Load load : loads) {
                load.close();
            }
            for (CutOverFixture.MirrorApplier applier : appliers) {
                applier.close();
            }
        }
        result.shards().forEach(r -> System.out.println("all-at-once: " + r.summary() + " " + r.stepDurations()));
        loads.forEach(l -> System.out.println("all-at-once load: " + l.stats()));

        assertThat(result.allSwapped()).as(result.toString()).isTrue();
        assertThat(locked.values().stream().mapToLong(Long::longValue).max().orElseThrow())
                .isLessThan(unlocked.values().stream().mapToLong(Long::longValue).min().orElseThrow());
        for (int i = 0; i < 2; i++) {
            MariaDbServer server = SHARDS.server(i);
            assertThat(loads.get(i).errors).as(loads.get(i).stats()).isEmpty();
            assertThat(hasExtraColumn(server, db, "t")).isTrue();
            assertThat(server.queryLong(db, "SELECT COUNT(*) FROM t WHERE id >= ?", FIRST_LOAD_ID))
                    .isEqualTo(loads.get(i).acked.size());
            assertThat(sentries(server, db)).isZero();
            assertThat(result.shards().get(i).writeBlock()).isLessThan(settings().lockWaitTimeout());
        }
    }

    @Test
    void allAtOnceAbortsEveryShardWhenOneFails() throws Exception {
        String db = SHARDS.freshDatabase();
        List<MultiShardCutOver.Shard> shards = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            CutOverFixture.createTables(SHARDS.server(i), db);
        }
        shards.add(MultiShardCutOver.Shard.of("shard-0", connections(SHARDS.server(0)), tables(db),
                ApplierBarrier.none()));
        shards.add(MultiShardCutOver.Shard.of("shard-1", connections(SHARDS.server(1)), tables(db),
                (p, timeout) -> {
                    throw new TimeoutException("shard-1's applier is behind");
                }));

        MultiShardCutOver.Result result = new MultiShardCutOver(shards, settings(), Mode.ALL_AT_ONCE,
                Duration.ofSeconds(5)).run();

        assertThat(result.shards()).extracting(CutOverResult::outcome).containsExactly(Outcome.ABORTED,
                Outcome.ABORTED);
        assertThat(result.shards().get(0).reason()).contains("aborted with the other shards")
                .contains("shard-1's applier is behind");
        assertThat(result.shards().get(1).reason()).contains("shard-1's applier is behind");
        for (int i = 0; i < 2; i++) {
            MariaDbServer server = SHARDS.server(i);
            assertThat(hasExtraColumn(server, db, "t")).isFalse();
            assertThat(exists(server, db, "_t_gho")).isTrue();
            assertThat(exists(server, db, "t_old")).isFalse();
            assertThat(sentries(server, db)).isZero();
            writeWithin1s(server, db, 77_000 + i);
        }
    }

    @Test
    void perShardCutsOverEachShardWhenItIsReady() throws Exception {
        String db = SHARDS.freshDatabase();
        AtomicBoolean secondReady = new AtomicBoolean();
        Map<String, Long> swappedAt = new ConcurrentHashMap<>();
        List<MultiShardCutOver.Shard> shards = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            CutOverFixture.createTables(SHARDS.server(i), db);
        }
        shards.add(new MultiShardCutOver.Shard("shard-0", connections(SHARDS.server(0)), tables(db),
                ApplierBarrier.none(), () -> true));
        shards.add(new MultiShardCutOver.Shard("shard-1", connections(SHARDS.server(1)), tables(db),
                ApplierBarrier.none(), () -> {
                    if (swappedAt.containsKey("shard-0")) {
                        secondReady.set(true);
                    }
                    return secondReady.get();
                }));

        MultiShardCutOver.Result result = new MultiShardCutOver(shards, settings(), Mode.PER_SHARD_AS_READY,
                Duration.ofSeconds(10)).withListener(e -> {
                    if (e.step() == CutOverStep.VERIFY_SWAP) {
                        swappedAt.put(e.shard(), System.nanoTime());
                    }
                }).run();

        assertThat(result.allSwapped()).as(result.toString()).isTrue();
        assertThat(swappedAt.get("shard-0")).isLessThan(swappedAt.get("shard-1"));
        assertThat(hasExtraColumn(SHARDS.server(0), db, "t")).isTrue();
        assertThat(hasExtraColumn(SHARDS.server(1), db, "t")).isTrue();
    }

    @Test
    void perShardReportsAShardThatNeverGetsReady() throws Exception {
        String db = SHARDS.freshDatabase();
        CutOverFixture.createTables(SHARDS.server(0), db);
        CutOverFixture.createTables(SHARDS.server(1), db);
        List<MultiShardCutOver.Shard> shards = List.of(
                MultiShardCutOver.Shard.of("shard-0", connections(SHARDS.server(0)), tables(db),
                        ApplierBarrier.none()),
                new MultiShardCutOver.Shard("shard-1", connections(SHARDS.server(1)), tables(db),
                        ApplierBarrier.none(), () -> false));

        MultiShardCutOver.Result result = new MultiShardCutOver(shards, settings(), Mode.PER_SHARD_AS_READY,
                Duration.ofMillis(500)).run();

        assertThat(result.shards()).extracting(CutOverResult::outcome).containsExactly(Outcome.SWAPPED,
                Outcome.ABORTED);
        assertThat(result.shards().get(1).reason()).contains("not ready");
        assertThat(hasExtraColumn(SHARDS.server(1), db, "t")).isFalse();
    }
}
