package io.vstream.connect.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The runs of one scenario, us and peer alternately on the same data, and what they add up to: rates and times per
 * side (median, min-max over the valid runs) and the ratio us/peer pair by pair, of rates or of times as the
 * scenario's {@link Goal} says.
 *
 * @param name        {@code cdc}, {@code copy}, {@code clone}, {@code ddl} or {@code ddl instant} (and the variants
 *                    of cdc and copy)
 * @param title       one line saying what is moved
 * @param unit        what is counted ({@code row changes}, {@code rows})
 * @param us          what "us" is
 * @param peer        what "peer" is
 * @param targetRatio the ratio us/peer the connector should reach: at least this (rates), at most this (times); NaN
 *                    when the ratio is reported with no target (ddl instant: its targets are {@code checks})
 * @param goal        which ratio the target is about
 * @param settings    how the runs were set up, for the report
 * @param warmups     the warm-up pairs (run first, not counted)
 * @param pairs       the counted pairs, in run order (us first in each)
 * @param singles     runs outside the alternation, each once (ddl: the write load alone, the server's own ALTER);
 *                    their {@link Measurement#side()} says what they are
 * @param checks      targets besides the ratio (ddl: write latency, failed writes, the cut-over's write block; ddl
 *                    instant: our wall time, failed writes)
 * @param peerMissing why the peer could not run at all (its tool is missing), or null: then its runs are neither
 *                    counted nor invalid, and no target that needs it has a result
 */
record ScenarioResult(String name, String title, String unit, String us, String peer, double targetRatio, Goal goal,
                      Map<String, String> settings, List<Pair> warmups, List<Pair> pairs, List<Measurement> singles,
                      List<Check> checks, String peerMissing) {

    /** A target besides the ratio: {@code met} is null when there is no result. */
    record Check(String target, Boolean met, String detail) {
    }

    /** What the target compares. */
    enum Goal {
        /** Items per second, us/peer: the ratio must be at least the target (cdc, copy). */
        RATE,
        /** Seconds to the end, us/peer: the ratio must be at most the target (clone). */
        TIME;

        /** The ratio of one valid pair that this goal compares. */
        double ratio(Pair p) {
            if (!p.valid()) {
                return Double.NaN;
            }
            return this == RATE ? p.us().rate() / p.peer().rate() : p.us().seconds() / p.peer().seconds();
        }

        boolean met(double ratio, double target) {
            return this == RATE ? ratio >= target : ratio <= target;
        }
    }

    /** One us run and the peer run right after it. */
    record Pair(Measurement us, Measurement peer) {
        boolean valid() {
            return us.valid() && peer.valid();
        }

        /** us/peer of the rates (items per second). */
        double ratio() {
            return Goal.RATE.ratio(this);
        }
    }

    ScenarioResult {
        settings = new LinkedHashMap<>(settings);
        warmups = List.copyOf(warmups);
        pairs = List.copyOf(pairs);
        singles = List.copyOf(singles);
        checks = List.copyOf(checks);
    }

    /** A scenario of us/peer pairs only (cdc, copy, clone). */
    ScenarioResult(String name, String title, String unit, String us, String peer, double targetRatio, Goal goal,
                   Map<String, String> settings, List<Pair> warmups, List<Pair> pairs) {
        this(name, title, unit, us, peer, targetRatio, goal, settings, warmups, pairs, List.of(), List.of(), null);
    }

    Stats usRate() {
        return Stats.of(rates(true, false));
    }

    Stats peerRate() {
        return Stats.of(rates(false, false));
    }

    Stats usSeconds() {
        return Stats.of(seconds(true));
    }

    Stats peerSeconds() {
        return Stats.of(seconds(false));
    }

    /** The ratio of one pair that the target is about (rates or times, see {@link Goal}). */
    double ratio(Pair p) {
        return goal.ratio(p);
    }

    Stats usStreamRate() {
        return Stats.of(rates(true, true));
    }

    Stats peerStreamRate() {
        return Stats.of(rates(false, true));
    }

    Stats ratio() {
        List<Double> r = new ArrayList<>();
        for (Pair p : pairs) {
            if (p.valid()) {
                r.add(goal.ratio(p));
            }
        }
        return Stats.of(r);
    }

    /** Counted runs and single runs that ran and are invalid (an unavailable peer's runs did not run). */
    long invalidRuns() {
        long n = pairs.stream().mapToLong(p -> invalid(p.us()) + invalid(p.peer())).sum();
        return n + singles.stream().mapToLong(ScenarioResult::invalid).sum();
    }

    private static long invalid(Measurement m) {
        return m.valid() || m.isUnavailable() ? 0 : 1;
    }

    /**
     * The run is a result only when every counted run (and single run) that ran is valid and at least one pair was
     * measured. With the peer unavailable, the runs of us can still be complete, but no ratio has a result.
     */
    boolean complete() {
        return !pairs.isEmpty() && invalidRuns() == 0;
    }

    /** Whether the ratio has a target (else it is reported only). */
    boolean hasRatioTarget() {
        return !Double.isNaN(targetRatio);
    }

    /** Whether the ratio has a target and a result and meets the target. */
    boolean ratioMet() {
        Stats r = ratio();
        return hasRatioTarget() && complete() && r.count() > 0 && goal.met(r.median(), targetRatio);
    }

    /** The ratio's target (if it has one; else every run valid) and every other check met. */
    boolean targetMet() {
        return (hasRatioTarget() ? ratioMet() : complete())
                && checks.stream().allMatch(c -> Boolean.TRUE.equals(c.met()));
    }

    /** The measurements of one side's valid counted runs. */
    List<Measurement> valid(boolean ours) {
        List<Measurement> out = new ArrayList<>();
        for (Pair p : pairs) {
            Measurement m = ours ? p.us() : p.peer();
            if (m.valid()) {
                out.add(m);
            }
        }
        return out;
    }

    private List<Double> seconds(boolean ours) {
        List<Double> out = new ArrayList<>();
        for (Pair p : pairs) {
            Measurement m = ours ? p.us() : p.peer();
            if (m.valid()) {
                out.add(m.seconds());
            }
        }
        return out;
    }

    private List<Double> rates(boolean ours, boolean stream) {
        List<Double> out = new ArrayList<>();
        for (Pair p : pairs) {
            Measurement m = ours ? p.us() : p.peer();
            double rate = stream ? m.streamRate() : m.rate();
            if (m.valid() && !Double.isNaN(rate)) {
                out.add(rate);
            }
        }
        return out;
    }
}
