package io.vstream.connect.local;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The operating-system side of one local {@code mariadbd}: launches {@code mariadbd --defaults-file=...} (a
 * {@link ManagedProcess}: its output appended to its log, a pid file and its own session when asked), waits until it
 * accepts a JDBC connection, shuts it down with the {@code SHUTDOWN} statement (SIGKILL as the fallback) or SIGKILLs
 * it for crash tests. A server that ends with this JVM has a watchdog and is killed at the JVM's exit
 * ({@link ProcessGuard}); one that outlives it (the quickstart's {@code --keep}) has neither. The caller's JDBC driver
 * connects. Touches only its own {@code mariadbd}.
 */
public final class MariaDbProcess {

    private static final Logger LOG = LoggerFactory.getLogger(MariaDbProcess.class);
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);
    private static final int LOG_TAIL_LINES = 40;

    private final String name;
    private final Path mariadbd;
    private final Path configFile;
    private final Path logFile;
    private final Path pidDir;
    private final boolean endsWithThisJvm;
    private ManagedProcess process;
    private boolean shutdownRequested;

    /**
     * @param name            the server's name (its pid file's, {@code <name>.pid})
     * @param pidDir          where its pid file goes (a server the user may leave running: it runs in a session of
     *                        its own, as the quickstart's), or null for none (it stays in this JVM's session)
     * @param endsWithThisJvm whether a watchdog and a shutdown hook end it with this JVM
     */
    public MariaDbProcess(String name, Path mariadbd, MariaDbConfig config, Path pidDir, boolean endsWithThisJvm) {
        this.name = name;
        this.mariadbd = mariadbd;
        this.configFile = config.file();
        this.logFile = config.logFile();
        this.pidDir = pidDir;
        this.endsWithThisJvm = endsWithThisJvm;
    }

    public Path logFile() {
        return logFile;
    }

    public synchronized boolean isRunning() {
        return process != null && process.isAlive();
    }

    public synchronized long pid() {
        return process == null ? -1 : process.pid();
    }

    /** Starts the server and returns once {@code probeUrl} accepts a connection. */
    public synchronized void start(String probeUrl) {
        if (isRunning()) {
            throw new IllegalStateException("mariadbd " + name + " is already running (pid " + process.pid() + ")");
        }
        long started = System.nanoTime();
        shutdownRequested = false;
        process = ManagedProcess.start(name, List.of(mariadbd.toString(), "--defaults-file=" + configFile), logFile,
                pidDir, endsWithThisJvm, pidDir != null);
        if (endsWithThisJvm) {
            ProcessGuard.guard(process);
        }
        awaitReady(probeUrl, started);
        LOG.info("Started mariadbd {} (pid {}) in {} ms", name, process.pid(),
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
    }

    private void awaitReady(String probeUrl, long started) {
        long deadline = started + START_TIMEOUT.toNanos();
        SQLException last = null;
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                release();
                throw new MariaDbStartupException("mariadbd " + name + " exited with code " + process.exitCode()
                        + " while starting; log " + logFile + ":\n" + logTail(), logTail());
            }
            try (Connection probe = DriverManager.getConnection(probeUrl)) {
                if (probe.isValid(1)) {
                    return;
                }
            } catch (SQLException e) {
                last = e;
            }
            Sleeper.sleep(50);
        }
        killNow();
        throw new MariaDbStartupException("mariadbd " + name + " did not accept connections within "
                + START_TIMEOUT.toSeconds() + " s (last error: " + (last == null ? "none" : last.getMessage())
                + "); log " + logFile + ":\n" + logTail(), logTail());
    }

    /** Asks the server to shut down without waiting; harmless when it is not running. */
    public synchronized void requestShutdown(String adminUrl) {
        if (!isRunning() || shutdownRequested) {
            return;
        }
        shutdownRequested = true;
        try (Connection connection = DriverManager.getConnection(adminUrl);
             Statement statement = connection.createStatement()) {
            statement.execute("SHUTDOWN /* vstream local-runtime: stop */");
        } catch (SQLException e) {
            LOG.debug("SHUTDOWN of mariadbd {} reported {}", name, e.getMessage());
        }
    }

    /** Waits for the exit after {@link #requestShutdown}; SIGKILLs the server if it takes too long. */
    public synchronized void awaitExit() {
        if (process == null || !process.isAlive() && !shutdownRequested) {
            return;
        }
        long started = System.nanoTime();
        if (!process.awaitExit(STOP_TIMEOUT)) {
            LOG.warn("mariadbd {} did not stop within {} s; killing it (log {})", name, STOP_TIMEOUT.toSeconds(),
                    logFile);
            killNow();
            return;
        }
        release();
        shutdownRequested = false;
        LOG.info("Stopped mariadbd {} in {} ms", name, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
    }

    /** SIGKILL, as a crash would; waits until the process is gone. */
    public synchronized void killNow() {
        if (process == null) {
            return;
        }
        process.kill();
        release();
    }

    public String logTail() {
        return DataDirFiles.tail(logFile, LOG_TAIL_LINES);
    }

    /** Ends the watchdog, removes the pid file and the registration of a process that has exited. */
    private void release() {
        process.stop(Duration.ZERO);
        ProcessGuard.release(process);
    }

    /** A start that failed; {@link #portInUse()} tells whether another port may succeed. */
    public static final class MariaDbStartupException extends IllegalStateException {
        private static final long serialVersionUID = 1L;
        private final boolean portInUse;

        MariaDbStartupException(String message, String logTail) {
            super(message);
            this.portInUse = logTail.contains("Bind on TCP/IP port") || logTail.contains("Address already in use");
        }

        public boolean portInUse() {
            return portInUse;
        }
    }
}
