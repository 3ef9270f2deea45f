package io.vstream.connect.bench;

import io.vstream.connect.testsupport.db.MariaDbServer;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The CPU time the processes of a ddl run used over its window: the shard's {@code mariadbd}, the Connect worker and
 * the Kafka broker (of each JVM, its JIT compiler threads also apart), and the benchmark's own child processes that
 * ended in the window ({@code pt-online-schema-change}, counted once the benchmark has waited for it). User plus
 * system time from {@code /proc} in clock ticks of 10 ms; NaN where {@code /proc} cannot be read (not Linux). A
 * compiler thread that ended within the window takes its time with it (the JVM stops idle ones), so the JIT figure is
 * a lower bound; the process figures are exact. Reads only.
 */
final class ProcessCpu {
    private static final double TICKS_PER_SECOND = 100.0;

    private final long serverPid;
    private final long workerPid;
    private final long brokerPid;

    ProcessCpu(long serverPid, long workerPid, long brokerPid) {
        this.serverPid = serverPid;
        this.workerPid = workerPid;
        this.brokerPid = brokerPid;
    }

    /** For the shard's server (its pid from {@code @@pid_file}; -1 when unreadable) and the cluster's processes. */
    static ProcessCpu of(MariaDbServer server, ConnectProcesses connect) {
        return new ProcessCpu(serverPid(server), connect.workerPid(), connect.brokerPid());
    }

    private static long serverPid(MariaDbServer server) {
        try {
            String file = server.queryString(null, "SELECT @@pid_file");
            return Long.parseLong(Files.readString(Path.of(file)).strip());
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** The counters now, to pass to {@link #since}. */
    Usage now() {
        return new Usage(seconds(serverPid), seconds(workerPid), jitSeconds(workerPid), seconds(brokerPid),
                jitSeconds(brokerPid), childrenSeconds());
    }

    /** What each process used since {@code start} (counters {@link #now} read). */
    Usage since(Usage start) {
        return now().minus(start);
    }

    /** Seconds of CPU: the counters at a moment ({@link #now}), or what was used between two ({@link #since}). */
    record Usage(double server, double worker, double workerJit, double broker, double brokerJit, double children) {
        Usage minus(Usage o) {
            return new Usage(server - o.server, worker - o.worker, workerJit - o.workerJit, broker - o.broker,
                    brokerJit - o.brokerJit, children - o.children);
        }

        /**
         * E.g. {@code CPU mariadbd 1.62 s, worker 0.61 s (JIT 0.31 s), broker 0.40 s (JIT 0.10 s)}; {@code child}
         * names the child process whose time is added (the peer's tool), or null for none.
         */
        String describe(String child) {
            return String.format(Locale.ROOT, "CPU mariadbd %.2f s, worker %.2f s (JIT %.2f s), broker %.2f s (JIT"
                    + " %.2f s)%s", server, worker, workerJit, broker, brokerJit, child == null ? ""
                    : String.format(Locale.ROOT, ", %s %.2f s", child, children));
        }
    }

    /** User plus system time of a whole process ({@code /proc/<pid>/stat}), NaN when unreadable. */
    static double seconds(long pid) {
        if (pid <= 0) {
            return Double.NaN;
        }
        Stat st = Stat.read(Path.of("/proc", String.valueOf(pid), "stat"));
        return st == null ? Double.NaN : (st.utime + st.stime) / TICKS_PER_SECOND;
    }

    /** User plus system time of the process's JIT compiler threads (named {@code C1/C2 CompilerThread<n>}). */
    static double jitSeconds(long pid) {
        if (pid <= 0) {
            return Double.NaN;
        }
        long sum = 0;
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc", String.valueOf(pid), "task"))) {
            for (Path task : tasks) {
                Stat st = Stat.read(task.resolve("stat"));
                if (st != null && (st.name.startsWith("C1 CompilerThre") || st.name.startsWith("C2 CompilerThre"))) {
                    sum += st.utime + st.stime;
                }
            }
        } catch (IOException | RuntimeException e) {
            return Double.NaN;
        }
        return sum / TICKS_PER_SECOND;
    }

    /** User plus system time of this JVM's children that ended and were waited for ({@code cutime}, {@code cstime}). */
    static double childrenSeconds() {
        Stat st = Stat.read(Path.of("/proc", "self", "stat"));
        return st == null ? Double.NaN : (st.cutime + st.cstime) / TICKS_PER_SECOND;
    }

    /** A process's or thread's {@code stat} file: its name (field 2) and its times in ticks (fields 14-17). */
    private record Stat(String name, long utime, long stime, long cutime, long cstime) {
        /** The file read and parsed, or null when it cannot be (the process or thread has ended). */
        static Stat read(Path stat) {
            try {
                String s = Files.readString(stat);
                int close = s.lastIndexOf(')');
                String[] f = s.substring(close + 2).split(" ");
                return new Stat(s.substring(s.indexOf('(') + 1, close), Long.parseLong(f[11]), Long.parseLong(f[12]),
                        Long.parseLong(f[13]), Long.parseLong(f[14]));
            } catch (IOException | RuntimeException e) {
                return null;
            }
        }
    }
}
