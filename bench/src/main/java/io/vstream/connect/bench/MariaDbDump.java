package io.vstream.connect.bench;

import io.vstream.connect.testsupport.db.MariaDbServer;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * "Peer" of the copy scenario: {@code mariadb-dump --single-transaction --skip-lock-tables} of one table, output to
 * {@code /dev/null}: the time the server and the standard client take to produce every row of a consistent snapshot.
 * Runs the {@code mariadb-dump} binary against the shard's TCP port only ({@code --no-defaults}: no option file is
 * read, so it never reaches another server).
 */
final class MariaDbDump {
    private final MariaDbServer server;
    private final Path stderr;

    MariaDbDump(MariaDbServer server, Path workDir) {
        this.server = server;
        this.stderr = workDir.resolve("mariadb-dump.err");
    }

    /** The dump binary's version line, e.g. {@code mariadb-dump Ver 10.19 Distrib 10.11.19-MariaDB}. */
    static String version() {
        try {
            Process p = new ProcessBuilder(binary(), "--version").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip()
                    .replaceAll("\\s+", " ");
            p.waitFor(10, TimeUnit.SECONDS);
            return out;
        } catch (IOException e) {
            throw new IllegalStateException("mariadb-dump is not installed: apt-get install -y mariadb-client", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "unknown";
        }
    }

    /** One timed dump to /dev/null; valid when it exits 0 (its row count is checked once by {@link #countRows}). */
    Measurement timed(String database, String table, long expected, Duration timeout) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(command(database, table))
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(stderr.toFile());
        long t0 = System.nanoTime();
        Process p = pb.start();
        boolean exited = p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        double seconds = (System.nanoTime() - t0) / 1e9;
        if (!exited) {
            p.destroyForcibly();
            return Measurement.invalid("peer", seconds, 0, expected, "mariadb-dump did not finish within "
                    + timeout.toSeconds() + " s");
        }
        if (p.exitValue() != 0) {
            return Measurement.invalid("peer", seconds, 0, expected, "mariadb-dump exited " + p.exitValue() + ": "
                    + Files.readString(stderr).strip());
        }
        return new Measurement("peer", seconds, expected, expected, Double.NaN, true, "");
    }

    /** Dumps the table once (not timed) and counts the row tuples of its INSERT statements. */
    long countRows(String database, String table) throws Exception {
        Process p = new ProcessBuilder(command(database, table)).redirectError(stderr.toFile()).start();
        long rows;
        try (InputStream in = p.getInputStream()) {
            rows = countTuples(in);
        }
        if (p.waitFor() != 0) {
            throw new IllegalStateException("mariadb-dump exited " + p.exitValue() + ": " + Files.readString(stderr));
        }
        return rows;
    }

    /**
     * Counts the rows of extended INSERT statements ({@code INSERT INTO `t` VALUES (..),(..);}, MariaDB 10.11 puts each
     * row on its own line): one per INSERT line plus one per {@code "),("} or {@code "),\n("}. The benchmark's rows hold
     * no parentheses, so the count is exact for them.
     */
    static long countTuples(InputStream in) throws IOException {
        byte[] insert = "INSERT INTO".getBytes(StandardCharsets.US_ASCII);
        byte[] buf = new byte[1 << 16];
        long rows = 0;
        int lineMatch = 0; // characters of "INSERT INTO" the current line starts with; -1: not an INSERT line
        int prev3 = -1;
        int prev2 = -1;
        int prev1 = -1;
        int n;
        while ((n = in.read(buf)) > 0) {
            for (int i = 0; i < n; i++) {
                int b = buf[i];
                if (lineMatch >= 0 && lineMatch < insert.length) {
                    lineMatch = b == insert[lineMatch] ? lineMatch + 1 : -1;
                    if (lineMatch == insert.length) {
                        rows++;
                    }
                }
                if (b == '(' && ((prev2 == ')' && prev1 == ',') || (prev3 == ')' && prev2 == ',' && prev1 == '\n'))) {
                    rows++;
                }
                if (b == '\n') {
                    lineMatch = 0;
                }
                prev3 = prev2;
                prev2 = prev1;
                prev1 = b;
            }
        }
        return rows;
    }

    /** The dump command line of one table (for the clone scenario's pipe into {@code mariadb}). */
    List<String> command(String database, String table) {
        List<String> c = new ArrayList<>();
        c.add(binary());
        c.add("--no-defaults");
        c.add("--single-transaction");
        c.add("--skip-lock-tables");
        c.add("--protocol=TCP");
        c.add("--host=" + server.host());
        c.add("--port=" + server.port());
        c.add("--user=" + MariaDbServer.USER);
        c.add(database);
        c.add(table);
        return c;
    }

    private static String binary() {
        return Files.isExecutable(Path.of("/usr/bin/mariadb-dump")) ? "/usr/bin/mariadb-dump" : "mariadb-dump";
    }

    /** The command-line client, {@code mariadb}. */
    static String clientBinary() {
        return Files.isExecutable(Path.of("/usr/bin/mariadb")) ? "/usr/bin/mariadb" : "mariadb";
    }
}
