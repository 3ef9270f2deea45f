package io.vstream.connect.source;

import io.vstream.connect.core.topology.ShardAddress;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Which task streams which shard: the shards in key-range order, cut into {@code min(tasks.max, shards)} contiguous
 * runs whose lengths differ by at most one. Contiguous runs keep a split's children with the task that had their
 * parent (a shard {@code i} of {@code n} goes to task {@code floor(i * tasks / n)}, and its two halves, shards
 * {@code 2i} and {@code 2i+1} of {@code 2n}, to the same task), where a round robin would move almost every shard.
 * Offsets are kept per shard, so any assignment is correct; this one keeps a reshard's hand-off on one worker and
 * spreads the shards evenly (docs/scale.md measures both). No I/O.
 */
final class ShardAssignment {
    private ShardAssignment() {
    }

    /** The shards of each task, in task order; never an empty task. */
    static List<List<ShardAddress>> assign(List<ShardAddress> shards, int maxTasks) {
        List<ShardAddress> ordered = new ArrayList<>(shards);
        ordered.sort(Comparator.comparing(ShardAddress::keyRange));
        int n = ordered.size();
        int tasks = Math.max(1, Math.min(maxTasks, n));
        List<List<ShardAddress>> groups = new ArrayList<>();
        for (int t = 0; t < tasks; t++) {
            int from = (int) ((long) t * n / tasks);
            int to = (int) ((long) (t + 1) * n / tasks);
            groups.add(List.copyOf(ordered.subList(from, to)));
        }
        return groups;
    }
}
