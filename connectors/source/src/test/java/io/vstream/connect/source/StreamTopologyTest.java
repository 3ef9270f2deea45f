package io.vstream.connect.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vstream.connect.core.position.GtidPosition;
import io.vstream.connect.core.position.OffsetCodec;
import io.vstream.connect.core.position.ShardGtid;
import io.vstream.connect.core.reshard.Journal;
import io.vstream.connect.core.topology.ShardAddress;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class StreamTopologyTest {
    private static final Journal SPLIT = new Journal(7L, "ks", "w", List.of(
            new Journal.ShardPosition("-", "h0:1", "MariaDB/0-1-50")), List.of(
            new Journal.ShardPosition("-80", "h1:2", "MariaDB/0-2-10"),
            new Journal.ShardPosition("80-", "h2:3", "MariaDB/0-3-12")), 0L);
    private static final Journal MERGE = new Journal(9L, "ks", "w2", List.of(
            new Journal.ShardPosition("-80", "h1:2", "MariaDB/0-2-90"),
            new Journal.ShardPosition("80-", "h2:3", "MariaDB/0-3-95")), List.of(
            new Journal.ShardPosition("-", "h4:4", "MariaDB/0-4-3")), 0L);

    private static Map<String, Object> at(String shard, String gtid, Journal j, boolean fallback) {
        Map<String, Object> o = new LinkedHashMap<>(OffsetCodec.offset(ShardGtid.of("ks", shard,
                GtidPosition.parse(gtid))));
        if (j != null) {
            JournalMarks.mark(o, j, fallback);
        }
        return o;
    }

    @Test
    void aSplitMovesTheStreamToTheNewShardsFromTheirJournaledPositions() {
        StreamTopology t = new StreamTopology(List.of(ShardAddress.parse("-=h0:1")), ReshardPlan.empty());
        assertTrue(t.afterJournals(Map.of("-", at("-", "MariaDB/0-1-40", null, false)), List.of()).isEmpty());
        StreamTopology next = t.afterJournals(Map.of("-", at("-", "MariaDB/0-1-51", SPLIT, false)), List.of())
                .orElseThrow();
        assertEquals(List.of("-80", "80-"), next.shards().stream().map(ShardAddress::name).toList());
        assertEquals("h1", next.shards().get(0).host());
        assertEquals("MariaDB/0-2-10", next.plan().starts.get("-80"));
        assertEquals(7L, next.plan().epochOf("80-"));
        assertTrue(next.plan().retired.contains("-"));
        assertTrue(next.plan().copy.isEmpty());
    }

    @Test
    void theConfiguredAddressOfANewShardWins() {
        StreamTopology t = new StreamTopology(List.of(ShardAddress.parse("-=h0:1")), ReshardPlan.empty());
        StreamTopology next = t.afterJournals(Map.of("-", at("-", "MariaDB/0-1-51", SPLIT, false)),
                List.of(ShardAddress.parse("-80=replica1:33"))).orElseThrow();
        assertEquals("replica1", next.shards().get(0).host());
    }

    @Test
    void aMergeWaitsForEveryParticipant() {
        StreamTopology t = new StreamTopology(List.of(ShardAddress.parse("-80=h1:2"), ShardAddress.parse("80-=h2:3")),
                ReshardPlan.empty());
        Map<String, Map<String, Object>> offsets = new HashMap<>();
        offsets.put("-80", at("-80", "MariaDB/0-2-91", MERGE, false));
        offsets.put("80-", at("80-", "MariaDB/0-3-80", null, false));
        assertTrue(t.afterJournals(offsets, List.of()).isEmpty(), "80- has not reached the journal");
        offsets.put("80-", at("80-", "MariaDB/0-3-96", MERGE, false));
        StreamTopology next = t.afterJournals(offsets, List.of()).orElseThrow();
        assertEquals(List.of("-"), next.shards().stream().map(ShardAddress::name).toList());
        assertEquals(9L, next.plan().epochOf("-"));
    }

    @Test
    void aFallbackCopiesTheNewShards() {
        StreamTopology t = new StreamTopology(List.of(ShardAddress.parse("-=h0:1")), ReshardPlan.empty());
        Optional<StreamTopology> next = t.afterJournals(Map.of("-", at("-", "MariaDB/0-1-20", SPLIT, true)),
                List.of());
        ReshardPlan plan = next.orElseThrow().plan();
        assertEquals(java.util.Set.of("-80", "80-"), plan.copy);
        assertTrue(plan.starts.isEmpty());
        assertEquals(7L, plan.fallbackJournal);
    }

    @Test
    void thePlanRoundTripsThroughJson() {
        ReshardPlan p = ReshardPlan.empty();
        p.switchThrough(SPLIT, false);
        p.drain.put("-", SPLIT);
        assertEquals(p, ReshardPlan.fromJson(p.toJson()));
        assertEquals(SPLIT, ReshardPlan.fromJson(p.toJson()).drain.get("-"));
    }
}
