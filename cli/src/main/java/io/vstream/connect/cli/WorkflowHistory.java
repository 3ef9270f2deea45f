package io.vstream.connect.cli;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * The status records of one workflow in topic order: the latest ones (enough for rates over a minute) and what the
 * whole history says that a window would lose (when the copy started, the most tables ever copying at once).
 */
public final class WorkflowHistory {
    static final int KEEP = 500;

    private final String workflow;
    private final Deque<StatusRecord> records = new ArrayDeque<>();
    private int maxTablesCopying;
    private Long copyStartedMs;

    public WorkflowHistory(String workflow) {
        this.workflow = workflow;
    }

    public String workflow() {
        return workflow;
    }

    /**
     * Adds the next record. The coordinator writes each shard's entry only when a shard's state or throttle changed,
     * the workflow's state changed, or every 10 s, not in every record (at 256 shards they were ~50 KB a second); a
     * record without them takes the last ones written, for the same state.
     */
    public synchronized void add(StatusRecord r) {
        StatusRecord last = records.peekLast();
        if (r.shards().isEmpty() && last != null && !last.shards().isEmpty() && last.state().equals(r.state())) {
            r = r.withShards(last.shards());
        }
        records.addLast(r);
        while (records.size() > KEEP) {
            records.removeFirst();
        }
        if (r.tablesCopying() != null) {
            maxTablesCopying = Math.max(maxTablesCopying, r.tablesCopying());
        }
        if ("COPYING".equals(r.state()) && copyStartedMs == null) {
            copyStartedMs = r.tsMs();
        }
    }

    public synchronized StatusRecord latest() {
        return records.peekLast();
    }

    public synchronized List<StatusRecord> records() {
        return new ArrayList<>(records);
    }

    public synchronized int maxTablesCopying() {
        return maxTablesCopying;
    }

    /** When the first COPYING record was written, or null. */
    public synchronized Long copyStartedMs() {
        return copyStartedMs;
    }

    /** The distinct states in the order they were reached (consecutive repeats folded). */
    public synchronized List<String> states() {
        List<String> out = new ArrayList<>();
        for (StatusRecord r : records) {
            if (out.isEmpty() || !out.get(out.size() - 1).equals(r.state())) {
                out.add(r.state());
            }
        }
        return out;
    }
}
