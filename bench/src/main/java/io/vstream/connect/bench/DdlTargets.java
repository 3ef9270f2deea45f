package io.vstream.connect.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The targets of the ddl scenarios besides the ratio of wall times, judged over the counted pairs. ddl (issue #9):
 * wall time at most 1.0x pt-osc's (the ratio, see {@link DdlScenario}), the write p99 during the migration no worse
 * than pt-osc's, zero failed writes in our runs, our cut-over's write block under 1 s. ddl instant: our wall time at
 * most {@value #INSTANT_SECONDS} s (absolute; the ratio to pt-osc is reported, with no target) and zero failed writes;
 * it has no cut-over, so no write block to judge. Touches nothing.
 */
final class DdlTargets {
    /** ddl: our wall time at most this times pt-osc's. */
    static final double RATIO = 1.0;
    static final double BLOCK_TARGET_MS = 1000;
    /** ddl instant: our wall time at most this, in seconds. */
    static final double INSTANT_SECONDS = 2.0;

    private DdlTargets() {
    }

    /** The ratio target of {@code alter}'s scenario (NaN: none, the ratio is reported only). */
    static double ratio(DdlAlter alter) {
        return alter.instant() ? Double.NaN : RATIO;
    }

    /** The checks of {@code alter}'s scenario besides the ratio. */
    static List<ScenarioResult.Check> checks(DdlAlter alter, List<ScenarioResult.Pair> pairs, String peerMissing) {
        List<Measurement> us = valid(pairs, true);
        List<ScenarioResult.Check> checks = new ArrayList<>();
        if (alter.instant()) {
            checks.add(wallTime(us, pairs.size()));
            checks.add(failedWrites(us, pairs));
            return checks;
        }
        checks.add(p99(us, valid(pairs, false), peerMissing));
        checks.add(failedWrites(us, pairs));
        checks.add(cutOverBlock(us));
        return checks;
    }

    /** ddl instant: the median wall time of our valid counted runs at most {@value #INSTANT_SECONDS} s. */
    private static ScenarioResult.Check wallTime(List<Measurement> us, int counted) {
        String target = String.format(Locale.ROOT, "our wall time at most %.0f s", INSTANT_SECONDS);
        if (us.isEmpty()) {
            return new ScenarioResult.Check(target, null, "no valid run of ours");
        }
        List<Double> seconds = new ArrayList<>();
        long instant = 0;
        for (Measurement m : us) {
            seconds.add(m.seconds());
            instant += m.note().contains("; " + OnlineDdlRun.APPLIED_INSTANTLY) ? 1 : 0;
        }
        Stats s = Stats.of(seconds);
        return new ScenarioResult.Check(target, s.median() <= INSTANT_SECONDS, String.format(Locale.ROOT,
                "median %.2f s, longest %.2f s, over our %d valid of %d counted runs; %d of them applied instantly",
                s.median(), s.max(), us.size(), counted, instant));
    }

    private static ScenarioResult.Check p99(List<Measurement> us, List<Measurement> peer, String peerMissing) {
        String target = "write p99 during the migration no worse than pt-osc's";
        if (us.isEmpty() || peer.isEmpty()) {
            return new ScenarioResult.Check(target, null,
                    peerMissing != null ? "pt-online-schema-change unavailable" : "no valid runs to compare");
        }
        Stats usP99 = DdlScenario.stat(us, WriteWindow::p99Ms);
        Stats peerP99 = DdlScenario.stat(peer, WriteWindow::p99Ms);
        return new ScenarioResult.Check(target, usP99.median() <= peerP99.median(), String.format(Locale.ROOT,
                "median p99 us %.1f ms, pt-osc %.1f ms", usP99.median(), peerP99.median()));
    }

    /** No failed write in any of our counted runs (valid or not). */
    private static ScenarioResult.Check failedWrites(List<Measurement> us, List<ScenarioResult.Pair> pairs) {
        long failed = 0;
        long writes = 0;
        for (ScenarioResult.Pair p : pairs) {
            if (p.us().writes() != null) {
                failed += p.us().writes().failed();
                writes += p.us().writes().commits() + p.us().writes().failed();
            }
        }
        return new ScenarioResult.Check("zero failed writes", us.isEmpty() ? null : failed == 0,
                String.format(Locale.ROOT, "%,d failed of %,d in our %d counted runs", failed, writes, pairs.size()));
    }

    /** ddl: the longest write block of our cut-overs (coordinator's log) under {@value #BLOCK_TARGET_MS} ms. */
    private static ScenarioResult.Check cutOverBlock(List<Measurement> us) {
        double maxBlock = Double.NaN;
        boolean unknown = us.isEmpty();
        for (Measurement m : us) {
            double b = m.writes().blockMs();
            if (Double.isNaN(b)) {
                unknown = true;
            } else {
                maxBlock = Double.isNaN(maxBlock) ? b : Math.max(maxBlock, b);
            }
        }
        return new ScenarioResult.Check("cut-over write block under 1 s", unknown ? null
                : maxBlock < BLOCK_TARGET_MS, unknown ? "not found in the coordinator's log"
                : String.format(Locale.ROOT, "longest %.0f ms (coordinator's log)", maxBlock));
    }

    private static List<Measurement> valid(List<ScenarioResult.Pair> pairs, boolean ours) {
        List<Measurement> out = new ArrayList<>();
        for (ScenarioResult.Pair p : pairs) {
            Measurement m = ours ? p.us() : p.peer();
            if (m.valid()) {
                out.add(m);
            }
        }
        return out;
    }
}
