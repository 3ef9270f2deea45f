package io.vstream.connect.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * The Markdown tables of the ddl scenarios (docs/benchmarks.md copies them): per counted pair the wall time, the write
 * latency p50 / p99 / max and the failed writes of both sides, our cut-over's write block (n/a in ddl instant, which
 * has no cut-over) and the ratio of the wall times; then the runs outside the pairs (the load alone, the server's own
 * ALTER). Writes text only.
 */
final class DdlTables {
    /** The settings key of a scenario whose runs of us have no cut-over (ddl instant): its block column says n/a. */
    static final String NO_CUT_OVER = "cut-over write block";
    private static final String NOT_APPLICABLE = "n/a";

    private DdlTables() {
    }

    static void write(StringBuilder o, ScenarioResult s) {
        String slow = "writes >= " + WriteWindow.SLOW_MS + " ms";
        boolean cutOver = !s.settings().containsKey(NO_CUT_OVER);
        o.append("| ").append(Report.cellText(s.name())).append(" | us: ").append(Report.cellText(s.us()))
                .append(" | writes p50 / p99 / max | ").append(slow)
                .append(" | failed writes | cut-over write block | peer: ").append(Report.cellText(s.peer()))
                .append(" | writes p50 / p99 / max | ").append(slow)
                .append(" | failed writes | ratio us/peer (time) |\n");
        o.append("|---|---|---|---|---|---|---|---|---|---|---|\n");
        int i = 1;
        for (ScenarioResult.Pair p : s.pairs()) {
            o.append("| pair ").append(i++).append(" | ").append(wall(p.us())).append(" | ").append(latency(p.us()))
                    .append(" | ").append(slow(p.us())).append(" | ").append(failed(p.us())).append(" | ")
                    .append(block(p.us(), cutOver)).append(" | ").append(wall(p.peer())).append(" | ")
                    .append(latency(p.peer())).append(" | ").append(slow(p.peer())).append(" | ")
                    .append(failed(p.peer())).append(" | ").append(p.valid() ? Report.ratio(s.ratio(p))
                            : p.peer().isUnavailable() ? "-" : "invalid").append(" |\n");
        }
        List<Measurement> us = s.valid(true);
        List<Measurement> peer = s.valid(false);
        Stats usWall = s.usSeconds();
        Stats peerWall = s.peerSeconds();
        Stats ratio = s.ratio();
        Stats block = DdlScenario.stat(us, WriteWindow::blockMs);
        boolean noBlock = !cutOver
                && us.stream().noneMatch(m -> m.writes() != null && m.writes().cutOverAttempts() > 0);
        o.append("| **median** | **").append(Report.secs(usWall.median())).append("** | **")
                .append(latencies(us, Stats::median)).append("** | ").append(slowMedian(us)).append(" | ")
                .append(failedSum(us)).append(" | ").append(noBlock ? NOT_APPLICABLE
                        : "**" + ms(block.median()) + "**").append(" | **")
                .append(Report.secs(peerWall.median())).append("** | **").append(latencies(peer, Stats::median))
                .append("** | ").append(slowMedian(peer)).append(" | ").append(failedSum(peer)).append(" | **")
                .append(Report.ratio(ratio.median())).append("** |\n");
        o.append("| min-max | ").append(Report.secs(usWall.min())).append(" - ").append(Report.secs(usWall.max()))
                .append(" | ").append(p99Range(us)).append(" | | | ").append(noBlock ? ""
                        : ms(block.min()) + " - " + ms(block.max())).append(" | ")
                .append(Report.secs(peerWall.min())).append(" - ")
                .append(Report.secs(peerWall.max())).append(" | ").append(p99Range(peer)).append(" | | | ")
                .append(Report.ratio(ratio.min())).append(" - ").append(Report.ratio(ratio.max())).append(" |\n");
        o.append('\n');
        if (!s.singles().isEmpty()) {
            o.append("| once per run | wall time | writes p50 / p99 / max | ").append(slow).append(" | failed writes |"
                    + " wall time against it: us / peer (medians) |\n");
            o.append("|---|---|---|---|---|---|\n");
            for (Measurement m : s.singles()) {
                boolean migration = !m.side().equals("baseline");
                o.append("| ").append(migration ? "lower bound: " + m.side() : "baseline: the write load alone, no"
                                + " migration").append(" | ").append(wall(m)).append(" | ").append(latency(m))
                        .append(" | ").append(slow(m)).append(" | ").append(failed(m)).append(" | ");
                if (migration && m.valid() && m.seconds() > 0) {
                    o.append(String.format(Locale.ROOT, "us %sx, peer %sx", Report.ratio(usWall.median() / m.seconds()),
                            Report.ratio(peerWall.median() / m.seconds())));
                } else {
                    o.append('-');
                }
                o.append(" |\n");
            }
            o.append('\n');
        }
    }

    private static String wall(Measurement m) {
        if (m.isUnavailable()) {
            return "unavailable";
        }
        return Report.secs(m.seconds()) + (m.valid() ? "" : " (invalid)");
    }

    private static String latency(Measurement m) {
        WriteWindow w = m.writes();
        return w == null ? "-" : String.format(Locale.ROOT, "%s / %s / %s ms", num(w.p50Ms()), num(w.p99Ms()),
                num(w.maxMs()));
    }

    private static String slow(Measurement m) {
        WriteWindow w = m.writes();
        return w == null ? "-" : String.format(Locale.ROOT, "%,d of %,d", w.slow(), w.commits());
    }

    private static String slowMedian(List<Measurement> runs) {
        Stats n = DdlScenario.stat(runs, w -> w.slow());
        return n.count() == 0 ? "-" : String.format(Locale.ROOT, "%,.0f", n.median());
    }

    private static String failed(Measurement m) {
        WriteWindow w = m.writes();
        return w == null ? "-" : String.format(Locale.ROOT, "%,d of %,d", w.failed(), w.commits() + w.failed());
    }

    /** The run's cut-over write block, "-" when unknown, n/a when the scenario has none and the run logged none. */
    private static String block(Measurement m, boolean cutOver) {
        WriteWindow w = m.writes();
        if (!cutOver && !m.isUnavailable() && (w == null || w.cutOverAttempts() == 0)) {
            return NOT_APPLICABLE;
        }
        if (w == null || Double.isNaN(w.blockMs())) {
            return "-";
        }
        return ms(w.blockMs()) + (w.cutOverAttempts() > 1 ? " (" + w.cutOverAttempts() + " attempts, "
                + ms(w.blockTotalMs()) + " in all)" : "");
    }

    private static String failedSum(List<Measurement> runs) {
        long failed = 0;
        long all = 0;
        for (Measurement m : runs) {
            if (m.writes() != null) {
                failed += m.writes().failed();
                all += m.writes().commits() + m.writes().failed();
            }
        }
        return runs.isEmpty() ? "-" : String.format(Locale.ROOT, "%,d of %,d in all", failed, all);
    }

    /** p50 / p99 / max, each taken over the runs by {@code pick} (median, min or max). */
    private static String latencies(List<Measurement> runs, java.util.function.Function<Stats, Double> pick) {
        List<ToDoubleFunction<WriteWindow>> fields = new ArrayList<>();
        fields.add(WriteWindow::p50Ms);
        fields.add(WriteWindow::p99Ms);
        fields.add(WriteWindow::maxMs);
        List<String> parts = new ArrayList<>();
        for (ToDoubleFunction<WriteWindow> f : fields) {
            parts.add(num(pick.apply(DdlScenario.stat(runs, f))));
        }
        return String.join(" / ", parts) + " ms";
    }

    private static String p99Range(List<Measurement> runs) {
        Stats p99 = DdlScenario.stat(runs, WriteWindow::p99Ms);
        return p99.count() == 0 ? "-" : "p99 " + num(p99.min()) + " - " + num(p99.max()) + " ms";
    }

    private static String num(double ms) {
        if (Double.isNaN(ms)) {
            return "-";
        }
        return String.format(Locale.ROOT, ms >= 100 ? "%,.0f" : "%.1f", ms);
    }

    private static String ms(double d) {
        return Double.isNaN(d) ? "-" : String.format(Locale.ROOT, "%,.0f ms", d);
    }
}
