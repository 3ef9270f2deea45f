package io.vstream.connect.coordinator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vstream.connect.core.keyrange.KeyRange;
import io.vstream.connect.core.keyrange.KeyRanges;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigValue;
import org.junit.jupiter.api.Test;

class ReshardPreflightTest {
    private static List<KeyRange> ranges(String names) {
        return KeyRanges.parseList(names);
    }

    @Test
    void aSplitAndAMergeThatCoverTheSameSpacePass() {
        assertEquals(List.of(), ReshardPreflight.coverageProblems(ranges("-"), ranges("-80,80-")));
        assertEquals(List.of(), ReshardPreflight.coverageProblems(ranges("-80,80-"), ranges("-")));
        assertEquals(List.of(), ReshardPreflight.coverageProblems(ranges("-80"), ranges("-40,40-80")));
    }

    @Test
    void gapsOverlapsAndExtraSpaceAreRefusedWithTheFix() {
        List<String> gap = ReshardPreflight.coverageProblems(ranges("-"), ranges("-40,80-"));
        assertTrue(gap.stream().anyMatch(p -> p.contains("must cover exactly")), gap.toString());
        List<String> overlap = ReshardPreflight.coverageProblems(ranges("-"), ranges("-80,40-"));
        assertTrue(overlap.stream().anyMatch(p -> p.contains("overlap")), overlap.toString());
        List<String> extra = ReshardPreflight.coverageProblems(ranges("-80"), ranges("-40,40-"));
        assertTrue(extra.stream().anyMatch(p -> p.contains("must cover exactly")), extra.toString());
    }

    @Test
    void validateReportsOnTheNewShardsField() {
        Map<String, String> props = new HashMap<>();
        props.put("workflow", "reshard");
        props.put("shards", "-=h:1");
        props.put("reshard.target.shards", "-80=h:2,c0-=h:3");
        props.put("reshard.columns", "orders");
        Map<String, ConfigValue> values = new HashMap<>();
        for (String k : List.of("shards", "reshard.target.shards", "reshard.columns")) {
            values.put(k, new ConfigValue(k));
        }
        ReshardPreflight.validateConfig(props, values);
        assertTrue(values.get("reshard.target.shards").errorMessages().stream()
                .anyMatch(m -> m.contains("must cover exactly")), values.get("reshard.target.shards").toString());
        assertTrue(values.get("reshard.columns").errorMessages().stream()
                .anyMatch(m -> m.contains("<table>:<column>")));
        assertTrue(values.get("shards").errorMessages().isEmpty());
    }
}
