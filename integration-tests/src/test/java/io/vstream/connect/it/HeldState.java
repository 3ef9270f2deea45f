package io.vstream.connect.it;

import io.vstream.connect.testsupport.connect.ConnectCluster;
import io.vstream.connect.testsupport.connect.TopicReader.Decoded;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.connect.data.Struct;

/**
 * Proves that a workflow stays in a state (POSTPONED until released, COPYING under a throttle that holds): it must be
 * in that state now, and every status record its coordinator writes up to one written a given span after the latest
 * one must still be in it. The span is measured by the coordinator's own records ({@code ts_ms}), not by a sleep of
 * the test, which on a loaded machine can pass without a single round of the coordinator. The coordinator writes a
 * record whenever its progress changes, with its shards' entries every 10 s and at least every 30 s, so one comes.
 * Reads the workflow's status topic; writes nothing.
 */
final class HeldState {
    private static final Duration RECORD_WAIT = Duration.ofSeconds(90); // past the 30 s cadence on a busy machine

    private HeldState() {
    }

    /**
     * Fails unless workflow {@code workflow}'s latest status in {@code statusTopic} is {@code state} and its status
     * records stay in it for {@code span} of the coordinator's time; returns the records read last.
     */
    static List<Struct> await(ConnectCluster connect, String statusTopic, String workflow, String state,
                              Duration span) throws InterruptedException {
        List<Struct> all = statuses(connect, statusTopic, workflow);
        if (all.isEmpty()) {
            throw new AssertionError("workflow " + workflow + " has no status in " + statusTopic + ", not " + state);
        }
        Struct from = all.get(all.size() - 1);
        if (!state.equals(from.getString("state"))) {
            throw new AssertionError("workflow " + workflow + " is not " + state + " to begin with: " + from);
        }
        long until = from.getInt64("ts_ms") + span.toMillis();
        int checked = all.size();
        long deadline = System.nanoTime() + span.plus(RECORD_WAIT).toNanos();
        while (System.nanoTime() < deadline) {
            all = statuses(connect, statusTopic, workflow);
            for (int i = checked; i < all.size(); i++) {
                Struct s = all.get(i);
                if (!state.equals(s.getString("state"))) {
                    throw new AssertionError("workflow " + workflow + " left " + state + " within " + span + ": " + s);
                }
                if (s.getInt64("ts_ms") >= until) {
                    return all;
                }
            }
            checked = all.size();
            Thread.sleep(300);
        }
        throw new AssertionError("the coordinator of " + workflow + " wrote no status " + span + " after " + from
                + " within " + span.plus(RECORD_WAIT) + " (it writes one at least every 30 s)");
    }

    /** The status records of {@code workflow}, oldest first; none while the topic does not exist yet. */
    private static List<Struct> statuses(ConnectCluster connect, String statusTopic, String workflow) {
        List<Struct> out = new ArrayList<>();
        try {
            for (Decoded d : connect.topics().readAll(statusTopic, false)) {
                Struct s = (Struct) d.value().value();
                if (workflow.equals(s.getString("workflow"))) {
                    out.add(s);
                }
            }
        } catch (RuntimeException e) {
            // the topic does not exist yet
        }
        return out;
    }
}
