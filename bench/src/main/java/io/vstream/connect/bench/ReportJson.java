package io.vstream.connect.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * The JSON file of a benchmark run ({@code <stamp>.json}): every run's numbers, for tools, beside the Markdown that
 * {@link Report} writes for people. Builds a tree; writes nothing.
 */
final class ReportJson {
    private ReportJson() {
    }

    static ObjectNode of(Report report) {
        ObjectMapper m = new ObjectMapper();
        ObjectNode root = m.createObjectNode();
        root.put("started", report.started);
        root.put("scale", report.options.scale().name());
        root.put("pairs", report.options.pairs());
        if (report.wallTime != null) {
            root.put("wall_time", report.wallTime);
        }
        root.put("warmup_pairs", report.options.warmups());
        report.machine.json(root.putObject("machine")).put("shared", true);
        ObjectNode st = root.putObject("setup");
        report.setup.forEach(st::put);
        ArrayNode arr = root.putArray("scenarios");
        for (ScenarioResult s : report.scenarios) {
            ObjectNode n = arr.addObject();
            n.put("name", s.name());
            n.put("title", s.title());
            n.put("unit", s.unit());
            n.put("us", s.us());
            n.put("peer", s.peer());
            number(n, "target_ratio", s.targetRatio());
            n.put("target_compares", compares(s));
            n.put("complete", s.complete());
            n.put("target_met", s.targetMet());
            if (s.hasRatioTarget()) {
                n.put("ratio_target_met", s.ratioMet());
            } else {
                n.putNull("ratio_target_met");
            }
            if (s.peerMissing() != null) {
                n.put("peer_unavailable", s.peerMissing());
            }
            ArrayNode checks = n.putArray("checks");
            for (ScenarioResult.Check c : s.checks()) {
                ObjectNode cn = checks.addObject();
                cn.put("target", c.target());
                if (c.met() == null) {
                    cn.putNull("met");
                } else {
                    cn.put("met", c.met());
                }
                cn.put("detail", c.detail());
            }
            ObjectNode sum = n.putObject("summary");
            stats(sum.putObject("us_rate"), s.usRate());
            stats(sum.putObject("peer_rate"), s.peerRate());
            stats(sum.putObject("ratio"), s.ratio());
            stats(sum.putObject("us_seconds"), s.usSeconds());
            stats(sum.putObject("peer_seconds"), s.peerSeconds());
            stats(sum.putObject("us_stream_rate"), s.usStreamRate());
            stats(sum.putObject("peer_stream_rate"), s.peerStreamRate());
            ObjectNode set = n.putObject("settings");
            s.settings().forEach(set::put);
            pairs(n.putArray("warmups"), s.warmups(), s);
            pairs(n.putArray("pairs"), s.pairs(), s);
            ArrayNode singles = n.putArray("singles");
            for (Measurement single : s.singles()) {
                measurement(singles.addObject().put("what", single.side()), single);
            }
        }
        if (report.footprint != null) {
            ObjectNode fp = root.putObject("footprint");
            fp.put("worker_heap", Footprint.HEAP);
            number(fp, "peak_heap_used_mb", report.footprint.peakHeapMb());
            number(fp, "peak_rss_mb", report.footprint.peakRssMb());
            fp.put("all_runs_valid", report.footprint.allValid());
            number(fp, "rss_growth_last_over_first", report.footprint.rssGrowth());
            Boolean flat = report.footprint.flat();
            if (flat == null) {
                fp.putNull("flat");
            } else {
                fp.put("flat", flat);
            }
            ArrayNode fr = fp.putArray("runs");
            for (Footprint.Run r : report.footprint.runs()) {
                ObjectNode rn = fr.addObject().put("run", r.label()).put("valid", r.valid());
                number(rn, "start_s", r.start());
                number(rn, "end_s", r.end());
                number(rn, "rate", r.rateItems());
                number(rn, "heap_used_mb", r.heapUsedMb());
                number(rn, "old_used_mb", r.oldUsedMb());
                number(rn, "rss_mb", r.rssMb());
                number(rn, "gc_seconds", r.gcSeconds());
            }
            ArrayNode fs = fp.putArray("samples");
            for (MemorySampler.Sample x : report.footprint.samples()) {
                ObjectNode sn = fs.addObject();
                number(sn, "t", x.t());
                number(sn, "rss_mb", x.rssMb());
                number(sn, "heap_used_mb", x.heapUsedMb());
                number(sn, "old_used_mb", x.oldUsedMb());
                number(sn, "gc_seconds", x.gcSeconds());
            }
        }
        if (report.curve != null) {
            report.curve.json(root);
        }
        if (report.formats != null) {
            report.formats.json(root);
        }
        ArrayNode err = root.putArray("errors");
        report.errors.forEach(err::add);
        return root;
    }

    /** What the ratio of the scenario compares, and against what target. */
    private static String compares(ScenarioResult s) {
        String what = s.goal() == ScenarioResult.Goal.TIME ? "seconds" : "rates";
        if (!s.hasRatioTarget()) {
            return what + ", us/peer reported with no target (the targets are the checks)";
        }
        return what + (s.goal() == ScenarioResult.Goal.TIME ? ", us/peer at most target_ratio"
                : ", us/peer at least target_ratio");
    }

    private static void pairs(ArrayNode out, List<ScenarioResult.Pair> pairs, ScenarioResult s) {
        for (ScenarioResult.Pair p : pairs) {
            ObjectNode n = out.addObject();
            measurement(n.putObject("us"), p.us());
            measurement(n.putObject("peer"), p.peer());
            number(n, "ratio", s.ratio(p));
        }
    }

    private static void measurement(ObjectNode n, Measurement m) {
        number(n, "seconds", m.seconds());
        number(n, "rate", m.rate());
        n.put("counted", m.items());
        n.put("expected", m.expectedItems());
        number(n, "stream_seconds", m.streamSeconds());
        number(n, "stream_rate", m.streamRate());
        n.put("valid", m.valid());
        n.put("note", m.note());
        WriteWindow w = m.writes();
        if (w != null) {
            ObjectNode wn = n.putObject("writes");
            number(wn, "seconds", w.seconds());
            wn.put("commits", w.commits());
            wn.put("failed", w.failed());
            number(wn, "p50_ms", w.p50Ms());
            number(wn, "p99_ms", w.p99Ms());
            number(wn, "max_ms", w.maxMs());
            wn.put("slow", w.slow());
            wn.put("slow_ms", WriteWindow.SLOW_MS);
            wn.put("first_error", w.firstError());
            wn.put("cutover_attempts", w.cutOverAttempts());
            number(wn, "cutover_block_ms", w.blockMs());
            number(wn, "cutover_block_total_ms", w.blockTotalMs());
        }
    }

    private static void stats(ObjectNode n, Stats s) {
        number(n, "median", s.median());
        number(n, "min", s.min());
        number(n, "max", s.max());
        n.put("count", s.count());
    }

    private static void number(ObjectNode n, String key, double v) {
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            n.putNull(key);
        } else {
            n.put(key, Math.round(v * 1000.0) / 1000.0);
        }
    }
}
