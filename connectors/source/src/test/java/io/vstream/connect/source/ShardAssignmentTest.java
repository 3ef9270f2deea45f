package io.vstream.connect.source;

import static org.assertj.core.api.Assertions.assertThat;

import io.vstream.connect.core.keyrange.KeyRange;
import io.vstream.connect.core.topology.ShardAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The source connector's task assignment at scale (docs/scale.md): 256 shards over 4-64 tasks, a changed
 * {@code tasks.max}, and a split of every shard, on the real {@link ShardAssignment} and task configurations. Prints
 * the figures docs/scale.md quotes.
 */
class ShardAssignmentTest {
    /** {@code n} equal shards (n a power of two up to 65536), in a shuffled order as a topology may list them. */
    static List<ShardAddress> shards(int n) {
        List<ShardAddress> out = new ArrayList<>();
        int bits = Integer.numberOfTrailingZeros(n);
        int hexDigits = Math.max(2, (bits + 7) / 8 * 2);
        for (int i = 0; i < n; i++) {
            String start = i == 0 ? "" : bound(i, n, hexDigits);
            String end = i == n - 1 ? "" : bound(i + 1, n, hexDigits);
            String name = n == 1 ? "-" : start + "-" + end;
            out.add(new ShardAddress(name, KeyRange.parse(name), "shard" + i + ".db.example.com", 3306));
        }
        Collections.shuffle(out, new java.util.Random(42));
        return out;
    }

    private static String bound(int i, int n, int hexDigits) {
        long value = (long) i << (hexDigits * 4) >> Integer.numberOfTrailingZeros(n);
        return String.format(Locale.ROOT, "%0" + hexDigits + "x", value);
    }

    private static Map<String, Integer> taskOf(List<List<ShardAddress>> groups) {
        Map<String, Integer> out = new HashMap<>();
        for (int t = 0; t < groups.size(); t++) {
            for (ShardAddress s : groups.get(t)) {
                out.put(s.name(), t);
            }
        }
        return out;
    }

    @Test
    void twoHundredFiftySixShardsSpreadEvenlyOverFourToSixtyFourTasks() {
        List<ShardAddress> shards = shards(256);
        for (int tasks : new int[] {1, 4, 6, 8, 16, 24, 32, 48, 64, 300}) {
            List<List<ShardAddress>> groups = ShardAssignment.assign(shards, tasks);
            assertThat(groups).hasSize(Math.min(tasks, 256));
            int min = groups.stream().mapToInt(List::size).min().orElseThrow();
            int max = groups.stream().mapToInt(List::size).max().orElseThrow();
            assertThat(max - min).as("spread over %d tasks", tasks).isLessThanOrEqualTo(1);
            assertThat(taskOf(groups)).as("every shard exactly once").hasSize(256);
            for (List<ShardAddress> g : groups) {
                for (int i = 1; i < g.size(); i++) {
                    assertThat(g.get(i - 1).keyRange().compareTo(g.get(i).keyRange())).isNegative();
                }
            }
        }
    }

    @Test
    void aSplitOfEveryShardKeepsEachChildWithItsParentsTask() {
        for (int tasks : new int[] {4, 16, 64}) {
            Map<String, Integer> before = taskOf(ShardAssignment.assign(shards(256), tasks));
            Map<String, Integer> after = taskOf(ShardAssignment.assign(shards(512), tasks));
            int moved = 0;
            for (ShardAddress child : shards(512)) {
                ShardAddress parent = shards(256).stream().filter(p -> p.keyRange().includes(child.keyRange()))
                        .findFirst().orElseThrow();
                if (!after.get(child.name()).equals(before.get(parent.name()))) {
                    moved++;
                }
            }
            assertThat(moved).as("children not on their parent's task, %d tasks", tasks).isZero();
            System.out.printf(Locale.ROOT, "scale: split 256 -> 512 shards over %d tasks: %d of 512 children moved"
                    + " away from their parent's task (round robin: %d)%n", tasks, moved, roundRobinMoved(tasks));
        }
    }

    /** The same measure for the round robin the connector used before ({@code shard i -> task i % tasks}). */
    private static int roundRobinMoved(int tasks) {
        List<ShardAddress> parents = new ArrayList<>(shards(256));
        parents.sort((a, b) -> a.keyRange().compareTo(b.keyRange()));
        List<ShardAddress> children = new ArrayList<>(shards(512));
        children.sort((a, b) -> a.keyRange().compareTo(b.keyRange()));
        int moved = 0;
        for (int c = 0; c < children.size(); c++) {
            if (c % tasks != (c / 2) % tasks) {
                moved++;
            }
        }
        return moved;
    }

    @Test
    void aChangedTasksMaxMovesFewShardsAndTheTaskConfigsStaySmall() {
        List<ShardAddress> shards = shards(256);
        int[][] changes = {{32, 48}, {48, 64}, {64, 63}, {16, 32}};
        for (int[] change : changes) {
            Map<String, Integer> a = taskOf(ShardAssignment.assign(shards, change[0]));
            Map<String, Integer> b = taskOf(ShardAssignment.assign(shards, change[1]));
            // a task keeps a shard when the task of the same index streams it after the change
            long kept = a.entrySet().stream().filter(e -> e.getValue().equals(b.get(e.getKey()))).count();
            System.out.printf(Locale.ROOT, "scale: tasks.max %d -> %d over 256 shards: %d shards stay on their task"
                    + " index%n", change[0], change[1], kept);
            assertThat(kept).isPositive();
        }
        Map<String, String> connector = new HashMap<>();
        connector.put("name", "commerce-cdc");
        connector.put("keyspace", "commerce");
        connector.put("topology", String.join(",", shards.stream().map(ShardAddress::format).toList()));
        long total = 0;
        long largest = 0;
        for (List<ShardAddress> g : ShardAssignment.assign(shards, 64)) {
            Map<String, String> task = VStreamSourceTaskConfig.forShards(connector, shards, g, ReshardPlan.empty());
            long bytes = 0;
            for (Map.Entry<String, String> e : task.entrySet()) {
                bytes += e.getKey().getBytes(StandardCharsets.UTF_8).length
                        + e.getValue().getBytes(StandardCharsets.UTF_8).length;
            }
            total += bytes;
            largest = Math.max(largest, bytes);
        }
        System.out.printf(Locale.ROOT, "scale: 256 shards over 64 tasks: task configs %,d bytes in all, the largest"
                + " %,d bytes%n", total, largest);
        // every task carries the whole topology (it follows journals of any shard): O(shards) per task, well under
        // the config topic's 1 MB record limit
        assertThat(largest).isLessThan(1_000_000);
    }
}
