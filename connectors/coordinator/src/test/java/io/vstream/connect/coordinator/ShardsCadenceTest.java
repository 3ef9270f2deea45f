package io.vstream.connect.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class ShardsCadenceTest {
    private static List<ShardStatus> shards(String state, long lagMs, String throttle) {
        return List.of(new ShardStatus("-80", state, "MariaDB/0-1-" + lagMs, lagMs, 1L, 10L, throttle),
                new ShardStatus("80-", ShardStatus.STREAMING, "MariaDB/0-2-" + lagMs, lagMs, 1L, 10L, null));
    }

    @Test
    void theFirstRecordAndEveryTenSecondsCarryTheShards() {
        ShardsCadence c = new ShardsCadence();
        assertThat(c.due(1_000, false, shards(ShardStatus.COPYING, 5, null))).isTrue();
        c.written(1_000, shards(ShardStatus.COPYING, 5, null));
        assertThat(c.due(2_000, false, shards(ShardStatus.COPYING, 900, null))).as("only positions and lags moved")
                .isFalse();
        assertThat(c.due(11_000, false, shards(ShardStatus.COPYING, 900, null))).isTrue();
    }

    @Test
    void aChangedShardStateThrottleOrWorkflowStateCarriesThemAtOnce() {
        ShardsCadence c = new ShardsCadence();
        c.written(1_000, shards(ShardStatus.COPYING, 5, null));
        assertThat(c.due(1_500, false, shards(ShardStatus.STREAMING, 5, null))).isTrue();
        assertThat(c.due(1_500, false, shards(ShardStatus.COPYING, 5, "applier lag 12000 ms"))).isTrue();
        assertThat(c.due(1_500, true, shards(ShardStatus.COPYING, 5, null))).isTrue();
    }

    @Test
    void aWorkflowWithoutShardEntriesNeverCarriesThem() {
        assertThat(new ShardsCadence().due(1_000, true, List.of())).isFalse();
    }
}
