package io.vstream.connect.local.load;

import static org.assertj.core.api.Assertions.assertThat;

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

    private static final Target NO_SERVER = new Target() {
        @Override
        public int shardCount() {
            return 1;
        }

        @Override
        public int shardOf(long key) {
            return 0;
        }

        @Override
        public java.sql.Connection connect(int shard) {
            throw new UnsupportedOperationException("pure logic test");
        }
    };

    @Test
    void threadsOwnDisjointKeysCoveringTheKeySpace() {
        LoadSettings settings = new LoadSettings(NO_SERVER, List.of(LoadTable.standard("t")), 3,
                1000, KeyDistribution.uniform(), 1, 1, 0.1, 1, 0, 10, null, false, true);
        long[] all = LongStream.concat(LongStream.concat(
                Arrays.stream(settings.keysOf(0)), Arrays.stream(settings.keysOf(1))),
                Arrays.stream(settings.keysOf(2))).sorted().toArray();

        assertThat(all).containsExactly(LongStream.rangeClosed(1, 1000).toArray());
        assertThat(settings.keysOf(0).length).isBetween(250, 420);
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
