package io.vstream.connect.bench;

import java.nio.file.Path;
import java.time.Duration;

/**
 * The command line of the stress command ({@code bench/stress}): {@code [--migrations N] [--kill-share F] [--seed S]
 * [--rows R] [--write-interval-ms MS] [--migration-timeout SECONDS] [--out DIR] [--work DIR]}.
 *
 * @param migrations       consecutive online migrations of the one table
 * @param killShare        the share of the migrations (chosen by the seeded random) during which one Connect worker
 *                         process is killed with SIGKILL at a random moment and started again
 * @param seed             the seed of every random choice (the load's, which migrations see a kill, which worker and
 *                         when); printed and reported, so a run can be repeated
 * @param rows             rows per shard before the first migration
 * @param writeIntervalMs  each writer thread's pace: one transaction every this many ms
 * @param migrationTimeout the longest one migration may take before it counts as failed
 * @param outDir           where the report files go
 * @param workDir          where scratch files go
 */
record StressOptions(int migrations, double killShare, long seed, int rows, int writeIntervalMs,
                     Duration migrationTimeout, Path outDir, Path workDir) {

    static final String USAGE = "usage: bench/stress [--migrations N] [--kill-share F] [--seed S] [--rows R]"
            + " [--write-interval-ms MS] [--migration-timeout SECONDS] [--no-build]";

    static StressOptions parse(String... args) {
        int migrations = 20;
        double killShare = 0.2;
        long seed = System.currentTimeMillis() % 1_000_000;
        int rows = 20_000;
        int interval = 5;
        Duration timeout = Duration.ofMinutes(15);
        Path out = Path.of("results");
        Path work = Path.of("target", "work");
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            String v = i + 1 < args.length ? args[i + 1] : null;
            switch (a) {
                case "--migrations" -> migrations = positive(a, require(a, v));
                case "--kill-share" -> {
                    killShare = Double.parseDouble(require(a, v));
                    if (!(killShare >= 0 && killShare <= 1)) {
                        throw new IllegalArgumentException("--kill-share must be within [0, 1], was " + v);
                    }
                }
                case "--seed" -> seed = Long.parseLong(require(a, v));
                case "--rows" -> rows = positive(a, require(a, v));
                case "--write-interval-ms" -> interval = positive(a, require(a, v));
                case "--migration-timeout" -> timeout = Duration.ofSeconds(positive(a, require(a, v)));
                case "--out" -> out = Path.of(require(a, v));
                case "--work" -> work = Path.of(require(a, v));
                case "-h", "--help" -> throw new IllegalArgumentException(USAGE);
                default -> throw new IllegalArgumentException("unknown option '" + a + "'\n" + USAGE);
            }
            i++;
        }
        return new StressOptions(migrations, killShare, seed, rows, interval, timeout, out, work);
    }

    /** How many migrations see a kill: the share of them, rounded (at least one when the share is above 0). */
    int kills() {
        return killShare == 0 ? 0 : Math.max(1, (int) Math.round(killShare * migrations));
    }

    /** The command line that reproduces this run. */
    String commandLine() {
        return String.format(java.util.Locale.ROOT, "bench/stress --migrations %d --kill-share %s --seed %d --rows %d"
                        + "%s%s", migrations, killShare, seed, rows,
                writeIntervalMs == 5 ? "" : " --write-interval-ms " + writeIntervalMs,
                migrationTimeout.equals(Duration.ofMinutes(15)) ? ""
                        : " --migration-timeout " + migrationTimeout.toSeconds());
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
