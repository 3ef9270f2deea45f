package io.vstream.connect.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The footprint of the Connect worker process while it streams one shard at full speed: the cdc scenario's worker runs
 * with a {@value #HEAP} heap and its memory is sampled ({@link MemorySampler}) over the whole scenario, every run of us
 * back to back with the peers' runs between them. Per run of us: the heap and resident set at its end and the GC time
 * it took; over all: the peak heap used and the peak resident set. Targets (issue #9): every run of us valid within the
 * heap (an OutOfMemoryError fails the task, and the run), and memory flat: the resident set at the end of the last run
 * within {@value #FLAT_TOLERANCE_PERCENT}% of that at the end of the first. Touches nothing.
 *
 * @param runs    the runs of us, in order
 * @param samples every sample
 */
record Footprint(List<Run> runs, List<MemorySampler.Sample> samples) {
    static final String HEAP = "256m";
    static final int FLAT_TOLERANCE_PERCENT = 10;

    /** One run of us: when it ran (seconds from the sampler's start) and memory at its end. */
    record Run(String label, double start, double end, boolean valid, double rateItems, double heapUsedMb,
               double oldUsedMb, double rssMb, double gcSeconds) {
    }

    Footprint {
        runs = List.copyOf(runs);
        samples = List.copyOf(samples);
    }

    double peakHeapMb() {
        return samples.stream().mapToDouble(MemorySampler.Sample::heapUsedMb).filter(d -> !Double.isNaN(d)).max()
                .orElse(Double.NaN);
    }

    double peakRssMb() {
        return samples.stream().mapToDouble(MemorySampler.Sample::hwmMb).filter(d -> !Double.isNaN(d)).max()
                .orElse(Double.NaN);
    }

    boolean allValid() {
        return !runs.isEmpty() && runs.stream().allMatch(Run::valid);
    }

    /** RSS at the end of the last run over RSS at the end of the first, or NaN. */
    double rssGrowth() {
        if (runs.size() < 2) {
            return Double.NaN;
        }
        return runs.get(runs.size() - 1).rssMb() / runs.get(0).rssMb();
    }

    Boolean flat() {
        double g = rssGrowth();
        return Double.isNaN(g) ? null : g <= 1 + FLAT_TOLERANCE_PERCENT / 100.0;
    }

    /** The Markdown section of the report. */
    void markdown(StringBuilder o) {
        o.append("## footprint: the Connect worker streaming one shard at full speed, -Xmx").append(HEAP).append("\n\n");
        o.append("The cdc scenario's worker process runs with -Xmx").append(HEAP).append(" (G1), and its memory was"
                + " sampled every ").append(MemorySampler.INTERVAL_MS).append(" ms over the whole scenario (")
                .append(String.format(Locale.ROOT, "%.0f s", samples.isEmpty() ? 0 : samples.get(samples.size() - 1).t()))
                .append("; its runs of us are back to back with the peers' between them): resident set from"
                        + " /proc/<pid>/status (VmRSS, VmHWM), heap from jstat -gc (survivors + eden + old).\n\n");
        o.append("| run of us | rate | heap used at its end | old gen at its end | RSS at its end | GC time in it |\n");
        o.append("|---|---|---|---|---|---|\n");
        for (Run r : runs) {
            o.append(String.format(Locale.ROOT, "| %s | %s | %.0f MB | %.0f MB | %.0f MB | %.2f s |\n", r.label(),
                    r.valid() ? String.format(Locale.ROOT, "%,.0f/s", r.rateItems()) : "invalid", r.heapUsedMb(),
                    r.oldUsedMb(), r.rssMb(), r.gcSeconds()));
        }
        o.append(String.format(Locale.ROOT, "\nPeak heap used %.0f MB of %s; peak RSS (VmHWM) %.0f MB.\n",
                peakHeapMb(), HEAP, peakRssMb()));
        o.append("Target: a worker streaming one shard at full speed within a ").append(HEAP).append(" heap: ")
                .append(allValid() ? "**met**" : "**not met**").append(" (").append(runs.stream().filter(Run::valid)
                        .count()).append(" of ").append(runs.size()).append(" runs valid).\n");
        Boolean flat = flat();
        o.append("Target: memory flat over the run (RSS at the end of the last run within ")
                .append(FLAT_TOLERANCE_PERCENT).append("% of the first's): ")
                .append(flat == null ? "**no result**" : flat ? "**met**" : "**not met**")
                .append(String.format(Locale.ROOT, " (%.2fx).\n\n", rssGrowth()));
    }

    /** The chart of RSS and heap over time. */
    Plots.Chart chart() {
        List<Double> t = new ArrayList<>();
        List<Double> rss = new ArrayList<>();
        List<Double> heap = new ArrayList<>();
        List<Double> old = new ArrayList<>();
        for (MemorySampler.Sample s : samples) {
            t.add(s.t());
            rss.add(s.rssMb());
            heap.add(s.heapUsedMb());
            old.add(s.oldUsedMb());
        }
        return new Plots.Chart("footprint", "footprint: Connect worker (-Xmx" + HEAP + ") over the cdc scenario",
                "seconds from the worker's start", "MB", List.of(new Plots.Series("RSS", t, rss),
                new Plots.Series("heap used", t, heap), new Plots.Series("old gen used", t, old)), false);
    }
}
