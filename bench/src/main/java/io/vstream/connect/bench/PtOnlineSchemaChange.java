package io.vstream.connect.bench;

import io.vstream.connect.testsupport.db.MariaDbServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * "Peer" of the ddl scenarios: {@code pt-online-schema-change} (percona-toolkit; bench/run installs Debian's package
 * when it is missing) making the scenario's ALTER ({@link DdlAlter}) on the same table under the same write load:
 * {@code pt-online-schema-change --alter "<ALTER>" --execute --recursion-method=none D=<db>,t=orders,h=127.0.0.1,P=<port>,u=root},
 * its other options default (chunks sized to {@code --chunk-time 0.5}, the old table dropped after the swap). Timed
 * from the process start to its exit (exit 0 required); the write load runs over the same window. When the tool is
 * not installed, every peer run is reported as unavailable. Touches only the benchmark's shard.
 */
final class PtOnlineSchemaChange {
    static final String BINARY = "pt-online-schema-change";

    private final MariaDbServer server;
    private final String alter;
    private final Path output;
    private final String version;
    private final String unavailable;

    PtOnlineSchemaChange(MariaDbServer server, Path workDir, DdlAlter alter) {
        this.server = server;
        this.alter = alter.sql();
        this.output = workDir.resolve(alter.scenario() + "-pt-osc.out");
        String v = null;
        String why = null;
        try {
            Process p = new ProcessBuilder(BINARY, "--version").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
                why = BINARY + " --version failed: " + out;
            } else {
                v = out;
            }
        } catch (IOException e) {
            why = BINARY + " is not installed (Debian: apt-get install -y percona-toolkit; bench/run tries that"
                    + " when run as root)";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            why = "interrupted";
        }
        this.version = v;
        this.unavailable = why;
    }

    /** Its version line, or null when it is unavailable. */
    String version() {
        return version;
    }

    /** Why it cannot run, or null. */
    String unavailable() {
        return unavailable;
    }

    /** The command line of one run on {@code database}. */
    List<String> command(String database) {
        List<String> c = new ArrayList<>();
        c.add(BINARY);
        c.add("--alter");
        c.add(alter);
        c.add("--execute");
        c.add("--recursion-method=none");
        c.add("D=" + database + ",t=" + DdlTable.TABLE + ",h=" + server.host() + ",P=" + server.port() + ",u="
                + MariaDbServer.USER + (MariaDbServer.PASSWORD.isEmpty() ? "" : ",p=" + MariaDbServer.PASSWORD));
        return c;
    }

    /** One run on a fresh table; {@code cpu} accounts for the processes' CPU time over it (the tool's too). */
    Measurement run(DdlTable.Run table, long rows, Duration timeout, ProcessCpu cpu) throws Exception {
        if (unavailable != null) {
            return Measurement.unavailable("peer", rows, unavailable);
        }
        ProcessBuilder pb = new ProcessBuilder(command(table.database())).redirectErrorStream(true)
                .redirectOutput(output.toFile());
        WriteWindow writes;
        Process p;
        boolean exited;
        double seconds;
        table.startLoad();
        ProcessCpu.Usage cpu0 = cpu.now();
        long t0 = System.nanoTime();
        String used;
        try {
            p = pb.start();
            exited = p.waitFor(timeout.toNanos(), TimeUnit.NANOSECONDS);
            seconds = (System.nanoTime() - t0) / 1e9;
            used = cpu.since(cpu0).describe(BINARY);
            if (!exited) {
                p.destroyForcibly();
            }
        } finally {
            writes = table.stopLoad();
        }
        if (!exited) {
            return new Measurement("peer", seconds, 0, rows, Double.NaN, false, BINARY + " did not finish within "
                    + timeout.toSeconds() + " s", writes);
        }
        if (p.exitValue() != 0) {
            return new Measurement("peer", seconds, 0, rows, Double.NaN, false, BINARY + " exited " + p.exitValue()
                    + ": " + tail(), writes);
        }
        String wrong = table.verify(true);
        return wrong == null ? new Measurement("peer", seconds, rows, rows, Double.NaN, true, used, writes)
                : new Measurement("peer", seconds, 0, rows, Double.NaN, false, wrong, writes);
    }

    /** The last lines of the tool's output. */
    private String tail() {
        try {
            List<String> lines = Files.readAllLines(output);
            return String.join(" / ", lines.subList(Math.max(0, lines.size() - 6), lines.size())).strip();
        } catch (IOException e) {
            return "(" + e.getMessage() + ")";
        }
    }
}
