package io.vstream.connect.testsupport.db;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The operating-system side of one test server: launches {@code mariadbd --defaults-file=...} with its
 * stderr appended to a log in the datadir, waits until it accepts a JDBC connection, shuts it down with the
 * {@code SHUTDOWN} statement (SIGKILL as the fallback) or SIGKILLs it for crash tests. Touches only its
 * own {@code mariadbd}.
 */
final class MariaDbProcess {

    static final String LOG_FILE = "mariadbd.log";
    private static final Logger LOG = LoggerFactory.getLogger(MariaDbProcess.class);
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);
    private static final int LOG_TAIL_LINES = 40;

    private final String name;
    private final Path mariadbd;
    private final Path configFile;
    private final Path logFile;
    private final Path datadir;
    private Process process;
    private Process watchdog;
    private boolean shutdownRequested;

    MariaDbProcess(String name, Path mariadbd, Path datadir) {
        this.name = name;
        this.mariadbd = mariadbd;
        this.datadir = datadir;
        this.configFile = datadir.resolve(ServerConfig.FILE_NAME);
        this.logFile = datadir.resolve(LOG_FILE);
    }

    Path logFile() {
        return logFile;
    }

    synchronized boolean isRunning() {
        return process != null && process.isAlive();
    }

    synchronized long pid() {
        return process == null ? -1 : process.pid();
    }

    /** Starts the server and returns once {@code probeUrl} accepts a connection. */
    synchronized void start(String probeUrl) {
        if (isRunning()) {
            throw new IllegalStateException("mariadbd " + name + " is already running (pid " + process.pid() + ")");
        }
        long started = System.nanoTime();
        shutdownRequested = false;
        try {
            process = new ProcessBuilder(mariadbd.toString(), "--defaults-file=" + configFile)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()))
                    .start();
        } catch (IOException e) {
            throw new IllegalStateException("Could not launch " + mariadbd + " for " + name + ": " + e.getMessage(), e);
        }
        watchdog = ProcessGuard.guard(process, datadir);
        awaitReady(probeUrl, started);
        LOG.info("Started mariadbd {} (pid {}) in {} ms", name, process.pid(),
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
    }

    private void awaitReady(String probeUrl, long started) {
        long deadline = started + START_TIMEOUT.toNanos();
        SQLException last = null;
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                ProcessGuard.release(process, watchdog);
                throw new MariaDbStartupException("mariadbd " + name + " exited with code " + process.exitValue()
                        + " while starting; log " + logFile + ":\n" + logTail(), logTail());
            }
            try (Connection probe = DriverManager.getConnection(probeUrl)) {
                if (probe.isValid(1)) {
                    return;
                }
            } catch (SQLException e) {
                last = e;
            }
            sleep(50);
        }
        killNow();
        throw new MariaDbStartupException("mariadbd " + name + " did not accept connections within "
                + START_TIMEOUT.toSeconds() + " s (last error: " + (last == null ? "none" : last.getMessage())
                + "); log " + logFile + ":\n" + logTail(), logTail());
    }

    /** Asks the server to shut down without waiting; harmless when it is not running. */
    synchronized void requestShutdown(String adminUrl) {
        if (!isRunning() || shutdownRequested) {
            return;
        }
        shutdownRequested = true;
        try (Connection connection = DriverManager.getConnection(adminUrl);
             Statement statement = connection.createStatement()) {
            statement.execute("SHUTDOWN /* vstream test-support: stop */");
        } catch (SQLException e) {
            LOG.debug("SHUTDOWN of mariadbd {} reported {}", name, e.getMessage());
        }
    }

    /** Waits for the exit after {@link #requestShutdown}; SIGKILLs the server if it takes too long. */
    synchronized void awaitExit() {
        if (process == null || !process.isAlive() && !shutdownRequested) {
            return;
        }
        long started = System.nanoTime();
        try {
            if (!process.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                LOG.warn("mariadbd {} did not stop within {} s; killing it (log {})", name,
                        STOP_TIMEOUT.toSeconds(), logFile);
                killNow();
                return;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            killNow();
            return;
        }
        ProcessGuard.release(process, watchdog);
        shutdownRequested = false;
        LOG.info("Stopped mariadbd {} in {} ms", name, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
    }

    /** SIGKILL, as a crash would; waits until the process is gone. */
    synchronized void killNow() {
        if (process == null) {
            return;
        }
        process.destroyForcibly();
        try {
            process.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        ProcessGuard.release(process, watchdog);
    }

    String logTail() {
        return DataDirFiles.tail(logFile, LOG_TAIL_LINES);
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while waiting for mariadbd", e);
        }
    }

    /** A start that failed; {@link #portInUse()} tells whether another port may succeed. */
    static final class MariaDbStartupException extends IllegalStateException {
        private static final long serialVersionUID = 1L;
        private final boolean portInUse;

        MariaDbStartupException(String message, String logTail) {
            super(message);
            this.portInUse = logTail.contains("Bind on TCP/IP port") || logTail.contains("Address already in use");
        }

        boolean portInUse() {
            return portInUse;
        }
    }
}
