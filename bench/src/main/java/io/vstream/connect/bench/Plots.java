package io.vstream.connect.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The PNG plots of a run (XChart), written next to the report as {@code <stamp>-<id>.png} and embedded in its Markdown:
 * the scenarios add their charts while they run, the report writes them. Writes files only.
 */
final class Plots {
    /** One line of a chart. */
    record Series(String name, List<Double> x, List<Double> y) {
    }

    /** One chart: {@code id} names its file; {@code scatter} draws points (one per item) instead of lines. */
    record Chart(String id, String title, String xTitle, String yTitle, List<Series> series, boolean logY,
                 boolean scatter) {
        Chart(String id, String title, String xTitle, String yTitle, List<Series> series, boolean logY) {
            this(id, title, xTitle, yTitle, series, logY, false);
        }
    }

    private static final List<Chart> CHARTS = new ArrayList<>();

    private Plots() {
    }

    static synchronized void add(Chart chart) {
        CHARTS.add(chart);
    }

    static synchronized List<Chart> charts() {
        return List.copyOf(CHARTS);
    }

    /** Writes every chart as {@code <dir>/<stamp>-<id>.png}; returns the charts with their file names. */
    static synchronized Map<Chart, String> write(Path dir, String stamp) {
        Map<Chart, String> files = new LinkedHashMap<>();
        for (Chart c : CHARTS) {
            String file = stamp + "-" + c.id() + ".png";
            try {
                XYChart chart = new XYChartBuilder().width(900).height(540).title(c.title()).xAxisTitle(c.xTitle())
                        .yAxisTitle(c.yTitle()).build();
                chart.getStyler().setYAxisLogarithmic(c.logY());
                chart.getStyler().setMarkerSize(c.scatter() ? 4 : 3);
                if (c.scatter()) {
                    chart.getStyler().setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
                }
                // below the plot: inside, it hid points (the ddl plot's cut-over write)
                chart.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.OutsideS);
                for (Series s : c.series()) {
                    if (s.x().isEmpty()) {
                        continue;
                    }
                    List<Double> y = s.y();
                    if (c.logY()) { // a log axis cannot show 0
                        y = y.stream().map(v -> v <= 0 ? Double.NaN : v).toList();
                    }
                    XYSeries xy = chart.addSeries(s.name(), s.x(), y);
                    xy.setMarker(c.scatter() || s.x().size() <= 60 ? SeriesMarkers.CIRCLE : SeriesMarkers.NONE);
                }
                BitmapEncoder.saveBitmap(chart, dir.resolve(file).toString(), BitmapEncoder.BitmapFormat.PNG);
                files.put(c, file);
            } catch (IOException | RuntimeException e) {
                Bench.say("plot " + c.id() + " not written: " + e);
            }
        }
        return files;
    }

    /**
     * Collects the throughput over time of each side's last run in a scenario (the last round is a counted one), for
     * one chart of items per second against seconds from each run's start.
     */
    static final class Throughput {
        private final Map<String, Timeline> last = new LinkedHashMap<>();

        /** Passes {@code m} through, keeping the side's timeline when the run is valid. */
        Measurement add(String side, Measurement m, Supplier<Timeline> timeline) {
            Timeline t = timeline.get();
            if (m.valid() && t != null) {
                last.put(side, t);
            }
            return m;
        }

        /**
         * Adds the chart {@code <scenario>-lag}: how many items each side had still to deliver over time, from the
         * backlog of {@code expected} at its start (the load is in the binlog before every run).
         */
        void lagChart(String scenario, String unit, long expected) {
            List<Series> series = new ArrayList<>();
            last.forEach((side, t) -> {
                List<Double> remaining = new ArrayList<>();
                double done = 0;
                for (double perSecond : t.ratePerSecond()) {
                    done += perSecond * Timeline.BUCKET_MS / 1000.0;
                    remaining.add(Math.max(0, expected - done));
                }
                series.add(new Series(side, t.seconds(), remaining));
            });
            Plots.add(new Chart(scenario + "-lag", scenario + ": lag, " + unit + " not yet delivered over time (last"
                    + " round)", "seconds from the run's start", unit + " behind", series, false));
        }

        /** Adds the chart {@code <scenario>-throughput}. */
        void chart(String scenario, String unit) {
            List<Series> series = new ArrayList<>();
            last.forEach((side, t) -> series.add(new Series(side, t.seconds(), t.ratePerSecond())));
            Plots.add(new Chart(scenario + "-throughput", scenario + ": " + unit + " per second over time (last round, per "
                    + Timeline.BUCKET_MS + " ms)", "seconds from the run's start", unit + "/s (log scale)", series,
                    true));
        }
    }
}
