package io.vstream.connect.bench;

import io.vstream.connect.testsupport.db.MariaDbServer;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * "Peer" of the clone scenario: {@code mariadb-dump --single-transaction --skip-lock-tables <db> <table> | mariadb
 * <db>}, the dump of the source table piped (an OS pipe, no shell) into the command-line client connected to the
 * target, into a freshly created database of the same name. The client's session runs with
 * {@code sql_log_bin=0} ({@code --init-command}), as the sink's does with {@code target.binlog=off}, so neither side
 * writes the target's binlog. Timed from the start of both processes until both have exited (exit 0 required); then
 * the target table must have the source's row count and checksum. Both run with {@code --no-defaults} over TCP to the
 * benchmark's own servers only.
 */
final class DumpRestore {
    private final MariaDbDump dump;
    private final CloneTarget target;
    private final Path dumpErr;
    private final Path clientErr;

    DumpRestore(MariaDbDump dump, CloneTarget target, Path workDir) {
        this.dump = dump;
        this.target = target;
        this.dumpErr = workDir.resolve("clone-dump.err");
        this.clientErr = workDir.resolve("clone-restore.err");
    }

    /** The client's command line (for the report, and the run). */
    List<String> clientCommand() {
        MariaDbServer t = target.server();
        List<String> c = new ArrayList<>();
        c.add(MariaDbDump.clientBinary());
        c.add("--no-defaults");
        c.add("--protocol=TCP");
        c.add("--host=" + t.host());
        c.add("--port=" + t.port());
        c.add("--user=" + MariaDbServer.USER);
        c.add("--init-command=SET SESSION sql_log_bin=0");
        c.add(target.database());
        return c;
    }

    Measurement run(Duration timeout) throws Exception {
        target.freshDatabase();
        long rows = target.expected().rows();
        ProcessBuilder producer = new ProcessBuilder(dump.command(target.database(), target.table()))
                .redirectError(dumpErr.toFile());
        ProcessBuilder consumer = new ProcessBuilder(clientCommand())
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(clientErr.toFile());
        Measurement m;
        long t0 = System.nanoTime();
        List<Process> procs = ProcessBuilder.startPipeline(List.of(producer, consumer));
        long deadline = t0 + timeout.toNanos();
        boolean exited = true;
        for (Process p : procs) {
            exited &= p.waitFor(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        try {
            if (!exited) {
                procs.forEach(Process::destroyForcibly);
                m = Measurement.invalid("peer", seconds, 0, rows, "mariadb-dump | mariadb did not finish within "
                        + timeout.toSeconds() + " s");
            } else if (procs.get(0).exitValue() != 0) {
                m = Measurement.invalid("peer", seconds, 0, rows, "mariadb-dump exited " + procs.get(0).exitValue()
                        + ": " + read(dumpErr.toFile()));
            } else if (procs.get(1).exitValue() != 0) {
                m = Measurement.invalid("peer", seconds, 0, rows, "mariadb exited " + procs.get(1).exitValue() + ": "
                        + read(clientErr.toFile()));
            } else {
                String diff = target.verify();
                m = diff == null ? new Measurement("peer", seconds, rows, rows, Double.NaN, true, "")
                        : Measurement.invalid("peer", seconds, 0, rows, diff);
            }
        } finally {
            target.reset(CloneRun.STATE_DATABASE);
        }
        return m;
    }

    private static String read(File f) {
        try {
            return Files.readString(f.toPath()).strip();
        } catch (Exception e) {
            return "(" + e.getMessage() + ")";
        }
    }
}
