package io.vstream.connect.bench;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.List;

/**
 * The command line of the benchmark: {@code [--scale tiny|small|medium] [--only cdc|copy|clone|ddl|ddl-instant|curve|formats]
 * [--pairs N] [--warmup N] [--converter json-schemas|json] [--out DIR] [--run-timeout SECONDS]}.
 *
 * @param scale      how much data
 * @param scenarios  which scenarios to run
 * @param pairs      counted us/peer pairs per scenario (at least 3 for a report)
 * @param warmups    pairs run first and not counted
 * @param outDir     where the report files go
 * @param workDir    where scratch files go
 * @param runTimeout the longest one run may take
 * @param converter  the connector's key and value converter: {@code json-schemas} (JsonConverter with schemas, the
 *                   worker default of the test harness) or {@code json} (JsonConverter without schemas); the clone
 *                   and ddl scenarios (ddl, ddl-instant) always use schemas (the sink needs them)
 * @param jfr        whether the broker's and the worker's JVMs record a JFR profile (bench/run's {@code --jfr})
 * @param sourceProps settings added to the source connector's config in cdc and copy ({@code --source-prop K=V},
 *                    repeatable; e.g. {@code producer.override.batch.size=1048576}): for experiments, the report says
 *                    which
 * @param docs       docs/benchmarks.md, whose generated block a {@link #fullDefaultRun()} rewrites (bench/run passes
 *                   it), or null
 */
record BenchOptions(Scale scale, List<String> scenarios, int pairs, int warmups, Path outDir, Path workDir,
                    Duration runTimeout, String converter, boolean jfr, java.util.Map<String, String> sourceProps,
                    Path docs) {

    /** A run that the docs show: every scenario, small scale, default converter and settings, at least 3 pairs. */
    boolean fullDefaultRun() {
        return scenarios.equals(SCENARIOS) && scale.equals(Scale.SMALL) && converter.equals("json-schemas")
                && sourceProps.isEmpty() && pairs >= 3;
    }

    static final String USAGE = "usage: bench/run [--scale tiny|small|medium] [--only cdc|copy|clone|ddl|ddl-instant|curve|formats]"
            + " [--pairs N] [--warmup N]"
            + " [--converter json-schemas|json] [--out DIR] [--run-timeout SECONDS] [--jfr] [--source-prop KEY=VALUE]";

    /** Every scenario, in the order a default run runs them. */
    static final List<String> SCENARIOS = List.of("cdc", "copy", "clone", "ddl", "ddl-instant", "curve", "formats");

    static BenchOptions parse(String... args) {
        Scale scale = Scale.SMALL;
        List<String> scenarios = SCENARIOS;
        int pairs = 3;
        int warmups = 1;
        Path out = Path.of("results");
        Path work = Path.of("target", "work");
        Duration timeout = Duration.ofMinutes(10);
        String converter = "json-schemas";
        boolean jfr = false;
        java.util.Map<String, String> sourceProps = new java.util.LinkedHashMap<>();
        Path docs = null;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            String v = i + 1 < args.length ? args[i + 1] : null;
            switch (a) {
                case "--scale" -> scale = Scale.parse(require(a, v));
                case "--only" -> {
                    String s = require(a, v).toLowerCase(Locale.ROOT);
                    if (!SCENARIOS.contains(s)) {
                        throw new IllegalArgumentException("--only must be cdc, copy, clone, ddl, ddl-instant, curve or"
                                + " formats, was '"
                                + s + "'");
                    }
                    scenarios = List.of(s);
                }
                case "--pairs" -> pairs = positive(a, require(a, v));
                case "--warmup" -> warmups = Integer.parseInt(require(a, v));
                case "--out" -> out = Path.of(require(a, v));
                case "--docs" -> docs = Path.of(require(a, v));
                case "--work" -> work = Path.of(require(a, v));
                case "--converter" -> {
                    converter = require(a, v).toLowerCase(Locale.ROOT);
                    if (!converter.equals("json-schemas") && !converter.equals("json")) {
                        throw new IllegalArgumentException("--converter must be json-schemas or json, was '" + v + "'");
                    }
                }
                case "--jfr" -> {
                    jfr = true;
                    i--; // no value
                }
                case "--source-prop" -> {
                    String kv = require(a, v);
                    int eq = kv.indexOf('=');
                    if (eq < 1) {
                        throw new IllegalArgumentException("--source-prop needs KEY=VALUE, was '" + kv + "'");
                    }
                    sourceProps.put(kv.substring(0, eq), kv.substring(eq + 1));
                }
                case "--run-timeout" -> timeout = Duration.ofSeconds(positive(a, require(a, v)));
                case "-h", "--help" -> throw new IllegalArgumentException(USAGE);
                default -> throw new IllegalArgumentException("unknown option '" + a + "'\n" + USAGE);
            }
            i++;
        }
        return new BenchOptions(scale, scenarios, pairs, warmups, out, work, timeout, converter, jfr,
                java.util.Map.copyOf(sourceProps), docs);
    }

    private static String require(String option, String value) {
        if (value == null) {
            throw new IllegalArgumentException(option + " needs a value\n" + USAGE);
        }
        return value;
    }

    private static int positive(String option, String value) {
        int n = Integer.parseInt(value);
        if (n < 1) {
            throw new IllegalArgumentException(option + " must be at least 1, was " + n);
        }
        return n;
    }
}
