package io.vstream.connect.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One process started on this machine (a {@code mariadbd}, the Kafka broker, a Connect worker). By default it runs in
 * its own session ({@code setsid}), so a Ctrl-C in the terminal reaches only the quickstart, which then stops its
 * processes in order; the benchmark's and the tests' servers stay in their JVM's session (and so in its scheduling
 * group). Its output goes to a log file, and its pid to {@code <name>.pid} in the pid directory, so that
 * {@code ./quickstart --stop} can end it after {@code --keep}. Touches only the process it started.
 */
public final class ManagedProcess {
    private static final Path SETSID = Path.of("/usr/bin/setsid");

    private final String name;
    private final Process process;
    private final Path logFile;
    private final Path pidFile;

    private ManagedProcess(String name, Process process, Path logFile, Path pidFile) {
        this.name = name;
        this.process = process;
        this.logFile = logFile;
        this.pidFile = pidFile;
    }

    /**
     * Ends the process (SIGTERM, SIGKILL 20 s later) when its stdin closes, i.e. when the JVM that started it is gone
     * however it died; only if the process's command line still names {@code $2} (no pid-reuse accidents).
     */
    private static final String WATCHDOG = "read _ignored; "
            + "if tr '\\000' ' ' < /proc/$1/cmdline 2>/dev/null | grep -qF -- \"$2\"; then kill $1; sleep 20; "
            + "kill -9 $1 2>/dev/null; fi";

    private Process watchdog;

    /** Starts {@code command} with its output appended to {@code logFile}; writes the pid file when asked. */
    public static ManagedProcess start(String name, List<String> command, Path logFile, Path pidDir) {
        return start(name, command, logFile, pidDir, false);
    }

    /**
     * As {@link #start(String, List, Path, Path)}; with {@code dieWithThisJvm} a watchdog ends the process when this
     * JVM ends, even by SIGKILL (for tests, and for a quickstart run without {@code --keep}).
     */
    public static ManagedProcess start(String name, List<String> command, Path logFile, Path pidDir,
                                       boolean dieWithThisJvm) {
        return start(name, command, logFile, pidDir, dieWithThisJvm, true);
    }

    /** As {@link #start(String, List, Path, Path, boolean)}; without {@code ownSession} it stays in this JVM's session. */
    public static ManagedProcess start(String name, List<String> command, Path logFile, Path pidDir,
                                       boolean dieWithThisJvm, boolean ownSession) {
        List<String> full = new ArrayList<>();
        if (ownSession && Files.isExecutable(SETSID)) {
            full.add(SETSID.toString()); // not a group leader, so setsid execs in place: the pid stays the same
        }
        full.addAll(command);
        try {
            Files.createDirectories(logFile.getParent());
            Process p = new ProcessBuilder(full).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()))
                    .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
                    .start();
            Path pidFile = null;
            if (pidDir != null) {
                Files.createDirectories(pidDir);
                pidFile = pidDir.resolve(name + ".pid");
                Files.writeString(pidFile, Long.toString(p.pid()));
            }
            ManagedProcess started = new ManagedProcess(name, p, logFile, pidFile);
            if (dieWithThisJvm) {
                started.watchdog = new ProcessBuilder("sh", "-c", WATCHDOG, "watchdog", Long.toString(p.pid()),
                        command.get(command.size() - 1)).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                        .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            }
            return started;
        } catch (IOException e) {
            throw new UncheckedIOException("Could not start " + name + " (" + command.get(0) + ")", e);
        }
    }

    /** Runs {@code command} to its end (output to {@code logFile}); fails with the log's tail on a non-zero exit. */
    public static void run(String what, List<String> command, Path logFile, Duration timeout) {
        start(what, command, logFile, null).awaitSuccess(timeout);
    }

    /** Waits for the process to end; fails with the log's tail if it does not in time or exits non-zero. */
    public void awaitSuccess(Duration timeout) {
        try {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException(name + " did not finish within " + timeout.toSeconds() + " s; log "
                        + logFile + ":\n" + logTail(20));
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while waiting for " + name, e);
        }
        if (process.exitValue() != 0) {
            throw new IllegalStateException(name + " failed (exit code " + process.exitValue() + "); log " + logFile
                    + ":\n" + logTail(20));
        }
    }

    public String name() {
        return name;
    }

    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** The exit code of a process that has ended. */
    public int exitCode() {
        return process.exitValue();
    }

    /** The process, for a reaper at this JVM's exit. */
    ProcessHandle handle() {
        return process.toHandle();
    }

    /** Waits up to {@code timeout} for the process to end (e.g. after a {@code SHUTDOWN}); true if it has. */
    public boolean awaitExit(Duration timeout) {
        try {
            return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    public Path logFile() {
        return logFile;
    }

    /** Fails, naming the log, if the process has exited. */
    public void checkAlive() {
        if (!process.isAlive()) {
            throw new IllegalStateException(name + " exited (code " + process.exitValue() + "); log " + logFile
                    + ":\n" + logTail(30));
        }
    }

    /** SIGTERM, then SIGKILL after {@code grace}; removes the pid file. */
    public void stop(Duration grace) {
        if (process.isAlive()) {
            process.destroy();
            try {
                if (!process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
                    process.destroyForcibly();
                    process.waitFor(10, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                process.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
        if (watchdog != null) {
            watchdog.destroy();
        }
        if (pidFile != null) {
            try {
                Files.deleteIfExists(pidFile);
            } catch (IOException e) {
                // a stale pid file is checked against the process's command line before use
            }
        }
    }

    /** SIGKILL (no shutdown: a crash), waiting until the process is gone; fails if it is still there after 30 s. */
    public void kill() {
        process.destroyForcibly();
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException(this + " did not die of SIGKILL");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while killing " + this, e);
        }
        if (watchdog != null) {
            watchdog.destroy();
        }
    }

    /** The last {@code lines} lines of the log. */
    public String logTail(int lines) {
        try {
            List<String> all = Files.readAllLines(logFile, StandardCharsets.UTF_8);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException | UncheckedIOException e) {
            return "(log unreadable: " + e.getMessage() + ")";
        }
    }

    /** True if the log holds {@code text} (a startup line). */
    public boolean logContains(String text) {
        try {
            return Files.readString(logFile, StandardCharsets.ISO_8859_1).contains(text);
        } catch (IOException e) {
            return false;
        }
    }

    @Override
    public String toString() {
        return name + " (pid " + pid() + ")";
    }
}
