package io.vstream.connect.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.kafka.connect.json.JsonConverter;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.Test;

/**
 * An online DDL's round over 256 shards' applied states (docs/scale.md): the slowest shard decides the state, the
 * copy's totals add up, throttle reasons are named once, and the status record with an entry per shard stays far below
 * the producer's 1 MB request limit in both JSON forms. No server: the round's reads are a few primary-key lookups per
 * shard on a kept connection, measured elsewhere; this is the part that grows with the shards in the coordinator.
 */
class ReadinessRoundTest {
    private static final int SHARDS = 256;
    private static final Duration READY = Duration.ofSeconds(10);
    private static final WorkflowStatus COPYING = new WorkflowStatus(WorkflowState.COPYING, null, 0, null);

    @Test
    void everyShardCaughtUpMakesTheWorkflowReadyThenStartsTheCutOver() {
        ReadinessRound round = streaming(SHARDS, -1, 0L);
        WorkflowStatus ready = round.decide(COPYING, READY, false);
        assertThat(ready.state()).isEqualTo(WorkflowState.READY);
        assertThat(round.decide(ready, READY, false).step()).isEqualTo(HandoffStep.PAUSE);
        assertThat(round.decide(COPYING, READY, true).state()).isEqualTo(WorkflowState.POSTPONED);
        assertThat(round.shards()).hasSize(SHARDS).allMatch(s -> s.state().equals(ShardStatus.STREAMING));
        assertThat(round.copied()).isEqualTo(SHARDS * 1_000L);
        assertThat(round.total()).isEqualTo(SHARDS * 1_000L);
        assertThat(round.copying()).isZero();
        assertThat(round.maxLagMs()).isEqualTo(50L + SHARDS - 1);
    }

    @Test
    void theSlowestShardDecides() {
        assertThat(streaming(SHARDS, 200, 20_000L).decide(COPYING, READY, false).state())
                .as("one applier 20 s behind").isEqualTo(WorkflowState.CATCHING_UP);
        assertThat(streaming(SHARDS, 17, null).decide(COPYING, READY, false).state())
                .as("one applier whose lag is unknown").isEqualTo(WorkflowState.CATCHING_UP);

        ReadinessRound oneWaiting = new ReadinessRound();
        oneWaiting.waiting("s000");
        for (int i = 1; i < SHARDS; i++) {
            oneWaiting.shard(name(i), "MariaDB/0-1-" + i, 0, 1_000L, 1_000, 0L, 50L, null);
        }
        assertThat(oneWaiting.decide(WorkflowStatus.START, READY, false).state()).isEqualTo(WorkflowState.COPYING);
        assertThat(oneWaiting.unknown()).isTrue();
        assertThat(oneWaiting.counted()).as("a shard without a position has no count").isFalse();
        assertThat(oneWaiting.shards().get(0).state()).isEqualTo(ShardStatus.WAITING);

        ReadinessRound copying = new ReadinessRound();
        for (int i = 0; i < SHARDS; i++) {
            boolean behind = i % 64 == 0;
            copying.shard(name(i), "MariaDB/0-1-" + i, behind ? 1 : 0, behind ? 400L : 1_000L, 1_000, 3L, 50L,
                    behind ? "applier lag 12000 ms > 10000 ms" : null);
        }
        assertThat(copying.decide(COPYING, READY, false)).isSameAs(COPYING);
        assertThat(copying.copying()).isEqualTo(4);
        assertThat(copying.copied()).isEqualTo(252 * 1_000L + 4 * 400L);
        assertThat(copying.total()).isEqualTo(SHARDS * 1_000L);
        assertThat(copying.throttleReason()).isEqualTo("copy throttled: applier lag 12000 ms > 10000 ms");

        ReadinessRound atOnce = new ReadinessRound(); // ddl.copy.start=at-once: a copy before any applier position
        atOnce.copyingBeforeApplier("s000", 400L, 1_000, null);
        atOnce.copyingBeforeApplier("s001", 1_000L, 1_000, "paused by the operator (ddl.copy.paused=true)");
        assertThat(atOnce.decide(WorkflowStatus.START, READY, false).state()).isEqualTo(WorkflowState.COPYING);
        assertThat(atOnce.counted()).as("the rows copied count before the appliers have a position").isTrue();
        assertThat(atOnce.copied()).isEqualTo(1_400L);
        assertThat(atOnce.shards()).allMatch(s -> s.state().equals(ShardStatus.COPYING));
        assertThat(atOnce.throttleReason()).contains("ddl.copy.paused=true");
    }

    @Test
    void theStatusRecordOf256ShardsStaysFarBelowTheProducersRequestLimit() {
        long t0 = System.nanoTime();
        ReadinessRound round = streaming(SHARDS, -1, 0L);
        WorkflowStatus next = round.decide(COPYING, READY, false);
        long roundNanos = System.nanoTime() - t0;
        StatusRecords records = new StatusRecords("status", "orders-ddl", "online-ddl");
        StatusRecords.Progress progress = new StatusRecords.Progress(null, round.applied(), round.maxLag(),
                round.copying(), round.copied(), round.total(), 100.0, 0.0, 0L, null, round.maxLagMs());
        SourceRecord record = records.record(next, progress, null, round.shards(), List.of());
        int withSchemas = json(record, true);
        int without = json(record, false);
        System.out.printf(Locale.ROOT, "round over %d shards: %.2f ms of arithmetic; status record %,d bytes with"
                + " schemas, %,d without%n", SHARDS, roundNanos / 1e6, withSchemas, without);
        assertThat(withSchemas).isLessThan(1_000_000 / 4);
        assertThat(without).isLessThan(withSchemas);
    }

    private static int json(SourceRecord record, boolean schemas) {
        try (JsonConverter converter = new JsonConverter()) {
            converter.configure(Map.of("schemas.enable", String.valueOf(schemas)), false);
            return converter.fromConnectData(record.topic(), record.valueSchema(), record.value()).length;
        }
    }

    /** Every shard streaming, copied, with lags of 50 ms and up; shard {@code odd} has {@code oddLagMs} instead. */
    private static ReadinessRound streaming(int shards, int odd, Long oddLagMs) {
        ReadinessRound round = new ReadinessRound();
        for (int i = 0; i < shards; i++) {
            Long lagMs = i == odd ? oddLagMs : Long.valueOf(50 + i);
            round.shard(name(i), "MariaDB/0-1-" + (1_000_000 + i) + ",1-2-" + i, 0, 1_000L, 1_000, 2L, lagMs, null);
        }
        return round;
    }

    private static String name(int i) {
        return String.format(Locale.ROOT, "%02x-%02x", i, i + 1);
    }
}
