package io.vstream.connect.bench;

import java.util.ArrayList;
import java.util.List;

/**
 * Runs us and peer alternately (us, peer, us, peer, ...) on the same data, first the warm-up pairs (not counted), then
 * the counted pairs, and prints each run as it ends. Alternating spreads slow phases of a shared machine over both.
 */
final class Alternation {
    /** One timed run of one side. */
    interface Run {
        Measurement run() throws Exception;
    }

    final List<ScenarioResult.Pair> warmups = new ArrayList<>();
    final List<ScenarioResult.Pair> pairs = new ArrayList<>();
    /** With a second peer: us of each round with that peer's run of the same round. */
    final List<ScenarioResult.Pair> warmups2 = new ArrayList<>();
    final List<ScenarioResult.Pair> pairs2 = new ArrayList<>();

    static Alternation run(String scenario, String unit, int warmupCount, int pairCount, Run us, Run peer)
            throws Exception {
        return run(scenario, unit, ScenarioResult.Goal.RATE, warmupCount, pairCount, us, peer);
    }

    /** As above; {@code goal} says which ratio to print (of rates, or of times). */
    static Alternation run(String scenario, String unit, ScenarioResult.Goal goal, int warmupCount, int pairCount,
                           Run us, Run peer) throws Exception {
        return run(scenario, unit, goal, warmupCount, pairCount, us, peer, null);
    }

    /**
     * As above with a second peer: each round runs us, peer, peer2 (A B C A B C); us's run of a round is paired with
     * both peers' runs of that round ({@link #pairs} and {@link #pairs2}).
     */
    static Alternation run(String scenario, String unit, ScenarioResult.Goal goal, int warmupCount, int pairCount,
                           Run us, Run peer, Run peer2) throws Exception {
        Alternation a = new Alternation();
        for (int i = 0; i < warmupCount + pairCount; i++) {
            boolean warmup = i < warmupCount;
            String label = scenario + (warmup ? " warm-up " + (i + 1) : " pair " + (i - warmupCount + 1));
            Measurement u = us.run();
            report(label, u, unit);
            Measurement p = peer.run();
            report(label, p, unit);
            ScenarioResult.Pair pair = new ScenarioResult.Pair(u, p);
            (warmup ? a.warmups : a.pairs).add(pair);
            if (pair.valid()) {
                Bench.say(String.format("%s: ratio us/peer %.3f%s", label, goal.ratio(pair),
                        goal == ScenarioResult.Goal.TIME ? " (time)" : ""));
            }
            if (peer2 != null) {
                Measurement p2 = peer2.run();
                report(label, p2, unit);
                ScenarioResult.Pair second = new ScenarioResult.Pair(u, p2);
                (warmup ? a.warmups2 : a.pairs2).add(second);
                if (second.valid()) {
                    Bench.say(String.format("%s: ratio us/%s %.3f", label, p2.side(), goal.ratio(second)));
                }
            }
        }
        return a;
    }

    private static void report(String label, Measurement m, String unit) {
        if (m.isUnavailable()) {
            Bench.say(label + ": " + m.side() + " " + m.note());
            return;
        }
        if (m.writes() != null) {
            WriteWindow w = m.writes();
            Bench.say(String.format(java.util.Locale.ROOT, "%s: %-4s %7.2f s  %s%s%s", label, m.side(), m.seconds(),
                    DdlScenario.writes(w), Double.isNaN(w.blockMs()) ? ""
                            : String.format(java.util.Locale.ROOT, ", cut-over write block %.0f ms", w.blockMs()),
                    m.valid() ? "" : "  INVALID: " + m.note()));
            return;
        }
        Bench.say(String.format("%s: %-4s %7.2f s  %,10.0f %s/s%s%s", label, m.side(), m.seconds(), m.rate(), unit,
                Double.isNaN(m.streamSeconds()) ? "" : String.format(" (first to last: %.2f s)", m.streamSeconds()),
                m.valid() ? (m.note().isEmpty() ? "" : "  (" + m.note() + ")") : "  INVALID: " + m.note()));
    }
}
