package io.vstream.connect.core.topology;

import io.vstream.connect.core.keyrange.KeyRange;
import io.vstream.connect.core.keyrange.KeyRanges;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The checks every connector makes of a topology before anything starts: each entry parses
 * ({@link ShardAddress#parse}), no shard is listed twice, and the shards either cover the whole key space exactly
 * once (a keyspace: source, online DDL) or at least do not overlap (a part of one: the old shards of a reshard). Each
 * problem is a sentence naming the entry and the fix; an empty list means the topology is sound. No I/O.
 */
public final class TopologyCheck {
    /** What the shards of a topology must cover. */
    public enum Coverage {
        /** The whole key space, exactly once. */
        WHOLE_KEY_SPACE,
        /** Any part of it, each key at most once. */
        NO_OVERLAP
    }

    private TopologyCheck() {
    }

    /** The problems of {@code entries} (each {@code <shard>=<host>:<port>}). */
    public static List<String> problems(Collection<String> entries, Coverage coverage) {
        List<String> problems = new ArrayList<>();
        if (entries == null || entries.isEmpty()) {
            problems.add("No shards: list at least one <shard>=<host>:<port>, e.g. '-=127.0.0.1:3306' for an"
                    + " unsharded keyspace.");
            return problems;
        }
        List<KeyRange> ranges = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (String entry : entries) {
            try {
                ShardAddress s = ShardAddress.parse(entry);
                if (!names.add(s.keyRange().name())) {
                    problems.add("Shard '" + s.name() + "' is listed twice; list each shard once.");
                } else {
                    ranges.add(s.keyRange());
                }
            } catch (IllegalArgumentException e) {
                problems.add(e.getMessage());
            }
        }
        if (!problems.isEmpty()) {
            return problems;
        }
        if (coverage == Coverage.WHOLE_KEY_SPACE) {
            for (String p : KeyRanges.fullCoverageProblems(ranges)) {
                problems.add("The shards must cover the whole key space exactly once: " + p);
            }
        } else {
            for (int i = 0; i < ranges.size(); i++) {
                for (int j = i + 1; j < ranges.size(); j++) {
                    if (ranges.get(i).intersects(ranges.get(j))) {
                        problems.add("Shards " + ranges.get(i) + " and " + ranges.get(j) + " overlap: each key"
                                + " belongs to one shard.");
                    }
                }
            }
        }
        return problems;
    }
}
