package io.vstream.connect.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class WorkflowHistoryTest {
    private static StatusRecord record(String state, long ts, List<StatusRecord.Shard> shards) {
        return new StatusRecord("w", "online-ddl", state, null, null, null, "-80:MariaDB/0-1-" + ts, 0L, 0, 0, ts)
                .withShards(shards);
    }

    @Test
    void aRecordWithoutShardsShowsTheLastOnesWrittenForTheSameState() {
        List<StatusRecord.Shard> shards = List.of(new StatusRecord.Shard("-80", "copying", "MariaDB/0-1-5", 10L, 1L,
                500L, null));
        WorkflowHistory h = new WorkflowHistory("w");
        h.add(record("COPYING", 1_000, shards));
        h.add(record("COPYING", 2_000, List.of()));
        assertThat(h.latest().shards()).isEqualTo(shards);
        assertThat(h.latest().tsMs()).isEqualTo(2_000);
        assertThat(h.latest().appliedPosition()).as("the record's own fields").isEqualTo("-80:MariaDB/0-1-2000");
        h.add(record("READY", 3_000, List.of()));
        assertThat(h.latest().shards()).as("not across a change of state").isEmpty();
    }
}
