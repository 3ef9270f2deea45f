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
    }

    private static final Pattern ATTEMPT = Pattern.compile("shard (\\S+) attempt (\\d+): (\\w+)");
    private static final Pattern BLOCKED = Pattern.compile("writes blocked (\\d+) ms");

    private final Path file;
    private long offset;

    /** Reads {@code file} (the worker's log) from its current end on: only lines written after this. */
    CutOverLog(Path file) {
        this.file = file;
        long size = 0;
        try {
            size = file == null ? 0 : Files.size(file);
        } catch (IOException e) {
            // no log yet
        }
        this.offset = size;
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
