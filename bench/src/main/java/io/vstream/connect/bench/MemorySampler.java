package io.vstream.connect.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Samples the memory of one process (the Connect worker) every {@link #INTERVAL_MS} ms: its resident set and peak
 * resident set from {@code /proc/<pid>/status} ({@code VmRSS}, {@code VmHWM}) and its Java heap from
 * {@code jstat -gc <pid> <interval>} (the JDK's tool, one process for the whole run, reading the JVM's perf data; used
 * = survivor + eden + old, and the old generation alone, and the total GC time). Reads only that process's files.
 */
final class MemorySampler implements AutoCloseable {
    static final int INTERVAL_MS = 500;

    /** One sample; sizes in MB, {@code t} in seconds from the sampler's start. */
    record Sample(double t, double rssMb, double hwmMb, double heapUsedMb, double oldUsedMb, double gcSeconds) {
    }

    private final long pid;
    private final long t0 = System.nanoTime();
    private final List<Sample> samples = new ArrayList<>();
    private final Process jstat;
    private final Thread reader;
    private volatile boolean running = true;

    MemorySampler(long pid) throws IOException {
        this.pid = pid;
        this.jstat = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jstat").toString(), "-gc",
                String.valueOf(pid), String.valueOf(INTERVAL_MS)).redirectErrorStream(true).start();
        this.reader = new Thread(this::read, "bench-memory-sampler");
        this.reader.setDaemon(true);
        this.reader.start();
    }

    /** Seconds from the sampler's start (for marking runs). */
    double now() {
        return (System.nanoTime() - t0) / 1e9;
    }

    synchronized List<Sample> samples() {
        return List.copyOf(samples);
    }

    /** The last sample taken at or before {@code t}, or null. */
    synchronized Sample at(double t) {
        Sample last = null;
        for (Sample s : samples) {
            if (s.t() > t) {
                break;
            }
            last = s;
        }
        return last;
    }

    private void read() {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(jstat.getInputStream(),
                StandardCharsets.US_ASCII))) {
            String[] header = null;
            String line;
            while (running && (line = in.readLine()) != null) {
                String[] f = line.trim().split("\\s+");
                if (f.length > 0 && f[0].equals("S0C")) {
                    header = f;
                    continue;
                }
                if (header == null || f.length != header.length) {
                    continue;
                }
                double kb = col(header, f, "S0U") + col(header, f, "S1U") + col(header, f, "EU") + col(header, f, "OU");
                double old = col(header, f, "OU");
                double gct = col(header, f, "GCT");
                double[] rss = rss();
                synchronized (this) {
                    samples.add(new Sample(now(), rss[0], rss[1], kb / 1024, old / 1024, gct));
                }
            }
        } catch (IOException | RuntimeException e) {
            // the process ended
        }
    }

    private static double col(String[] header, String[] f, String name) {
        for (int i = 0; i < header.length; i++) {
            if (header[i].equals(name)) {
                try {
                    return Double.parseDouble(f[i]);
                } catch (NumberFormatException e) {
                    return Double.NaN;
                }
            }
        }
        return Double.NaN;
    }

    /** VmRSS and VmHWM in MB. */
    private double[] rss() {
        double[] out = {Double.NaN, Double.NaN};
        try {
            for (String l : Files.readAllLines(Path.of("/proc", String.valueOf(pid), "status"))) {
                if (l.startsWith("VmRSS:")) {
                    out[0] = kb(l) / 1024;
                } else if (l.startsWith("VmHWM:")) {
                    out[1] = kb(l) / 1024;
                }
            }
        } catch (IOException e) {
            // gone
        }
        return out;
    }

    private static double kb(String line) {
        return Double.parseDouble(line.replaceAll("[^0-9]", ""));
    }

    @Override
    public void close() {
        running = false;
        jstat.destroy();
        try {
            reader.join(2_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
