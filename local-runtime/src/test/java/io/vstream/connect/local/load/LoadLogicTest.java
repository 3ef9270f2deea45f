package io.vstream.connect.local.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class LoadLogicTest {

    private static final Target NO_SERVER = shardsByModulo(1);

    /** {@code shards} shards without a server behind them, key {@code k} on shard {@code k % shards}. */
    private static Target shardsByModulo(int shards) {
        return new Target() {
            @Override
            public int shardCount() {
                return shards;
            }

            @Override
            public int shardOf(long key) {
                return (int) (key % shards);
            }

            @Override
            public java.sql.Connection connect(int shard) {
                throw new UnsupportedOperationException("pure logic test");
            }
        };
    }

    private static LoadSettings settings(Target target, int threads, LoadTable... tables) {
        return new LoadSettings(target, List.of(tables), threads, 1000, KeyDistribution.uniform(), 1, 1, 0.1, 1, 0, 10,
                null, false, true);
    }

    @Test
    void threadsOwnDisjointKeysCoveringTheKeySpace() {
        LoadSettings settings = settings(NO_SERVER, 3, LoadTable.standard("t"));
        long[] all = LongStream.concat(LongStream.concat(
                Arrays.stream(settings.keysOf(0, 1000)), Arrays.stream(settings.keysOf(1, 1000))),
                Arrays.stream(settings.keysOf(2, 1000))).sorted().toArray();

        assertThat(all).containsExactly(LongStream.rangeClosed(1, 1000).toArray());
        assertThat(settings.keysOf(0, 1000).length).isBetween(250, 420);
    }

    @Test
    void tablesAreChosenByWeightAndEqualWeightsDrawAsOneUniformPick() {
        LoadTable orders = LoadTable.standard("orders").withWeight(13);
        LoadTable lines = LoadTable.standard("lines").withWeight(4);
        LoadTable customers = LoadTable.standard("customers").withWeight(3);
        LoadSettings weighted = settings(NO_SERVER, 1, orders, lines, customers);
        Map<String, Integer> picks = new java.util.HashMap<>();
        Random random = new Random(3);
        for (int i = 0; i < 20_000; i++) {
            picks.merge(weighted.pickTable(random).name(), 1, Integer::sum);
        }
        assertThat(picks.get("orders")).isBetween(12_600, 13_400);
        assertThat(picks.get("lines")).isBetween(3_700, 4_300);
        assertThat(picks.get("customers")).isBetween(2_700, 3_300);

        List<LoadTable> alike = List.of(LoadTable.standard("a"), LoadTable.standard("b"), LoadTable.standard("c"));
        LoadSettings equal = settings(NO_SERVER, 1, alike.toArray(LoadTable[]::new));
        Random ours = new Random(5);
        Random uniform = new Random(5);
        for (int i = 0; i < 100; i++) {
            assertThat(equal.pickTable(ours)).isEqualTo(alike.get(uniform.nextInt(3)));
        }
    }

    @Test
    void aTableHasItsOwnKeySpaceDeleteRatioAndShardingKey() {
        LoadTable plain = LoadTable.standard("orders");
        LoadTable lines = LoadTable.standard("lines").withKeySpace(50).withDeleteRatio(0).routedBy(key -> key + 1);
        LoadSettings settings = settings(shardsByModulo(2), 2, plain, lines);

        assertThat(settings.keySpace(plain)).isEqualTo(1000);
        assertThat(settings.keySpace(lines)).isEqualTo(50);
        assertThat(settings.deleteRatio(plain)).isEqualTo(0.1);
        assertThat(settings.deleteRatio(lines)).isZero();
        assertThat(settings.shardOf(plain, 2)).isZero();
        assertThat(settings.shardOf(lines, 2)).isEqualTo(1);
        assertThat(LongStream.concat(Arrays.stream(settings.keysOf(0, 50)), Arrays.stream(settings.keysOf(1, 50))))
                .hasSize(50);
        assertThatThrownBy(() -> settings(NO_SERVER, 4, plain, lines.withKeySpace(3)))
                .hasMessageContaining("4 threads for 3 keys of table lines");
        assertThatThrownBy(() -> plain.withDeleteRatio(1.5)).hasMessageContaining("delete ratio of table orders");
    }

    @Test
    void theModelKnowsWhenTheLoadThreadsLastWroteAKey() {
        LoadModel model = new LoadModel(List.of(LoadTable.standard("t")), false);
        RowChange one = new RowChange("t", RowChange.Op.INSERT, 1, null, Map.of("id", 1L, "k", 1));
        RowChange two = new RowChange("t", RowChange.Op.INSERT, 2, null, Map.of("id", 2L, "k", 2));
        RowChange three = new RowChange("t", RowChange.Op.INSERT, 3, null, Map.of("id", 3L, "k", 3));
        long before = System.currentTimeMillis();
        model.committed(new LoadTransaction(0, "0-1-1", -1, 1, List.of(one), LoadTransaction.Outcome.COMMITTED, 1, 1));
        model.committed(new LoadTransaction(0, "0-1-2", 0, 1, List.of(two), LoadTransaction.Outcome.COMMITTED, 1, 1));
        model.uncertain(new LoadTransaction(0, null, 1, 1, List.of(three), LoadTransaction.Outcome.UNKNOWN, 1, 1));
        model.existing("t", 4, Map.of("id", 4L, "k", 4));

        assertThat(model.keysWrittenSince("t", before)).containsExactly(2L, 3L);
        assertThat(model.keysWrittenSince("t", System.currentTimeMillis() + 1_000)).isEmpty();
        assertThat(model.expectedRows("t")).containsOnlyKeys(1L, 2L, 4L);
    }

    @Test
    void hotKeysTakeTheirShare() {
        KeyDistribution hot = KeyDistribution.hot(0.8, 4);
        Random random = new Random(1);
        int hits = 0;
        for (int i = 0; i < 10_000; i++) {
            if (hot.pick(random, 1000, 2) < 2) {
                hits++;
            }
        }
        assertThat(hits).isBetween(7_800, 8_200);
    }

    @Test
    void percentilesAreNearestRank() {
        LatencyRecorder recorder = new LatencyRecorder();
        for (long i = 100; i >= 1; i--) {
            recorder.record(i);
        }
        long[] sorted = recorder.sorted();
        assertThat(LatencyRecorder.percentile(sorted, 50)).isEqualTo(Duration.ofNanos(50));
        assertThat(LatencyRecorder.percentile(sorted, 99)).isEqualTo(Duration.ofNanos(99));
        assertThat(LatencyRecorder.percentile(sorted, 100)).isEqualTo(Duration.ofNanos(100));
        assertThat(LatencyRecorder.percentile(new long[0], 99)).isZero();
    }

    @Test
    void canonicalValuesMatchWhatJdbcReturns() {
        LocalDateTime time = LocalDateTime.of(2024, 5, 6, 7, 8, 9, 123_456_000);
        assertThat(Values.canonical(new BigDecimal("12.50"))).isEqualTo(Values.canonical(new BigDecimal("12.5")));
        assertThat(Values.canonical(new BigDecimal("0.00"))).isEqualTo("0");
        assertThat(Values.canonical(Timestamp.valueOf(time))).isEqualTo(Values.canonical(time));
        assertThat(Values.canonical(7)).isEqualTo(Values.canonical(7L));
        assertThat(Values.canonical(true)).isEqualTo("1");
        assertThat(Values.canonical(new byte[] {1, (byte) 0xff})).isEqualTo("0x01ff");
        assertThat(Values.canonical(null)).isNull();
    }

    @Test
    void aModelThatContinuesAnotherTakesItsRowsAndUncertainKeysButNotItsLog() {
        List<LoadTable> tables = List.of(LoadTable.standard("t"));
        LoadModel first = new LoadModel(tables, true);
        RowChange seven = new RowChange("t", RowChange.Op.INSERT, 7, null, Map.of("id", 7L, "k", 1));
        RowChange eight = new RowChange("t", RowChange.Op.INSERT, 8, null, Map.of("id", 8L, "k", 2));
        first.committed(new LoadTransaction(0, "0-1-5", 0, 1, List.of(seven, eight),
                LoadTransaction.Outcome.COMMITTED, 1, 1));
        first.markUncertain("t", 8);

        LoadModel next = new LoadModel(tables, true);
        next.adopt(first);

        assertThat(next.expectedRows("t")).containsOnlyKeys(7L);
        assertThat(next.row("t", 7)).isEqualTo(seven.after());
        assertThat(next.isUncertain("t", 8)).isTrue();
        assertThat(next.transactions(LoadTransaction.Outcome.COMMITTED)).isEmpty();
    }

    @Test
    void standardRowsAreSeedDetermined() {
        StandardRows rows = new StandardRows();
        assertThat(rows.insert(1, new Random(5))).isEqualTo(rows.insert(1, new Random(5)));
        assertThat(rows.insert(1, new Random(5)).keySet()).containsExactlyElementsOf(rows.columns());
    }
}
