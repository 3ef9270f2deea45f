package io.vstream.connect.testsupport.db;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes sure no test {@code mariadbd} outlives its JVM. A shutdown hook SIGKILLs every server still
 * registered, then deletes registered scratch directories; and each server gets a tiny {@code sh}
 * watchdog reading a pipe from this JVM, which SIGKILLs the server when the pipe closes, so even a JVM
 * killed with SIGKILL (a failsafe fork timeout) leaves no server behind. Touches only the processes it
 * started.
 */
final class ProcessGuard {

    private static final Logger LOG = LoggerFactory.getLogger(ProcessGuard.class);

    /** Kills PID when stdin closes, if PID still runs a command line naming DIR (no pid-reuse accidents). */
    private static final String WATCHDOG = "read _ignored; "
            + "if tr '\\000' ' ' < /proc/$1/cmdline 2>/dev/null | grep -qF -- \"$2\"; then kill -9 $1; fi";

    private static final Set<Process> LIVE = ConcurrentHashMap.newKeySet();
    private static final List<Path> SCRATCH = new CopyOnWriteArrayList<>();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(ProcessGuard::onJvmExit, "mariadbd-reaper"));
    }

    private ProcessGuard() {
    }

    /** Registers a started server and returns its watchdog (destroy it after the server has exited). */
    static Process guard(Process server, Path datadir) {
        LIVE.add(server);
        try {
            return new ProcessBuilder("sh", "-c", WATCHDOG, "mariadbd-watchdog",
                    Long.toString(server.pid()), datadir.toString())
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .redirectError(ProcessBuilder.Redirect.DISCARD)
                    .start();
        } catch (IOException e) {
            LOG.warn("Could not start the watchdog of mariadbd pid {}; only the shutdown hook guards it",
                    server.pid(), e);
            return null;
        }
    }

    /** Forgets a server that has exited and ends its watchdog. */
    static void release(Process server, Process watchdog) {
        LIVE.remove(server);
        if (watchdog != null) {
            watchdog.destroy();
        }
    }

    /** Deletes the directory when the JVM exits (after the servers are dead). */
    static void deleteOnExit(Path dir) {
        SCRATCH.add(dir);
    }

    private static void onJvmExit() {
        for (Process server : LIVE) {
            if (server.isAlive()) {
                // stderr, not slf4j: logging back ends may already be shut down in a shutdown hook
                System.err.println("vstream test-support: killing leftover mariadbd pid " + server.pid());
                server.destroyForcibly();
            }
        }
        for (Process server : LIVE) {
            try {
                server.waitFor();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        SCRATCH.forEach(DataDirFiles::deleteQuietly);
    }
}
