package io.vstream.connect.bench;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the write-block time of an online-DDL workflow's cut-over from the coordinator's log, which the Connect
 * worker's process writes (slf4j-simple, to {@link ConnectProcesses#workerLog()}). Per
 * cut-over attempt and shard the coordinator logs one line
 * {@code Workflow <name>: shard <s> attempt <n>: SWAPPED, writes blocked <ms> ms, rename <ms> ms after unlock, ...}
 * ({@code CutOverRunner}, from the attempt's {@code CutOverResult}): the time from LOCK TABLES acquired to UNLOCK
 * TABLES returned, measured on the coordinator's side. The status topic does not carry it, and the coordinator takes
 * no listener from outside. Reads the log file only.
 */
final class CutOverLog {
    /**
     * The cut-over attempts of one workflow.
     *
     * @param attempts attempts logged (any outcome)
     * @param swapped  whether one of them swapped the tables
     * @param maxMs    the longest write block of one attempt, or NaN when no line was found
     * @param totalMs  all attempts' write blocks added up, or NaN
     * @param lines    the lines, joined by "; " (for the report's notes)
     */
    record Blocks(int attempts, boolean swapped, double maxMs, double totalMs, String lines) {
        static final Blocks UNKNOWN = new Blocks(0, false, Double.NaN, Double.NaN, "");

        /** These attempts and {@code other}'s (the same workflow's lines in another worker's log). */
        Blocks plus(Blocks other) {
            if (other.attempts == 0) {
                return this;
            }
            if (attempts == 0) {
                return other;
            }
            return new Blocks(attempts + other.attempts, swapped || other.swapped, nanMax(maxMs, other.maxMs),
                    nanSum(totalMs, other.totalMs), lines + "; " + other.lines);
        }

        private static double nanMax(double a, double b) {
            return Double.isNaN(a) ? b : Double.isNaN(b) ? a : Math.max(a, b);
        }

        private static double nanSum(double a, double b) {
            return Double.isNaN(a) ? b : Double.isNaN(b) ? a : a + b;
        }
    }

    private static final Pattern ATTEMPT = Pattern.compile("shard (\\S+) attempt (\\d+): (\\w+)");
    private static final Pattern BLOCKED = Pattern.compile("writes blocked (\\d+) ms");

    private final Path file;
    private final long offset;

    /** Reads {@code file} (the worker's log) from its current end on: only lines written after this. */
    CutOverLog(Path file) {
        this(file, sizeOf(file));
    }

    /** Reads {@code file} from {@code offset} on (0 for a log begun later, such as a restarted worker's). */
    CutOverLog(Path file, long offset) {
        this.file = file;
        this.offset = offset;
    }

    /** The size of {@code file} now, or 0 when it does not exist (yet). */
    static long sizeOf(Path file) {
        try {
            return file == null ? 0 : Files.size(file);
        } catch (IOException e) {
            return 0; // no log yet
        }
    }

    /** The attempts of workflow {@code name} logged since this reader was made. */
    Blocks read(String name) {
        if (file == null) {
            return Blocks.UNKNOWN;
        }
        String text;
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "r")) {
            long length = f.length();
            if (length <= offset) {
                return Blocks.UNKNOWN;
            }
            byte[] bytes = new byte[(int) Math.min(Integer.MAX_VALUE - 8, length - offset)];
            f.seek(offset);
            f.readFully(bytes);
            text = new String(bytes, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return Blocks.UNKNOWN;
        }
        String marker = "Workflow " + name + ": shard ";
        int attempts = 0;
        boolean swapped = false;
        double max = Double.NaN;
        double total = 0;
        StringBuilder lines = new StringBuilder();
        for (String line : text.split("\n")) {
            int at = line.indexOf(marker);
            if (at < 0) {
                continue;
            }
            String summary = line.substring(at + marker.length() - "shard ".length()).strip();
            Matcher a = ATTEMPT.matcher(summary);
            if (!a.find()) {
                continue;
            }
            attempts++;
            swapped |= a.group(3).equals("SWAPPED");
            Matcher b = BLOCKED.matcher(summary);
            if (b.find()) {
                double ms = Double.parseDouble(b.group(1));
                max = Double.isNaN(max) ? ms : Math.max(max, ms);
                total += ms;
            }
            lines.append(lines.length() == 0 ? "" : "; ").append(summary);
        }
        return attempts == 0 ? Blocks.UNKNOWN
                : new Blocks(attempts, swapped, max, Double.isNaN(max) ? Double.NaN : total, lines.toString());
    }
}
