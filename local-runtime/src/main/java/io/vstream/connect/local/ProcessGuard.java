package io.vstream.connect.local;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Makes sure no local {@code mariadbd} that ends with this JVM outlives it when the JVM exits: a shutdown hook
 * SIGKILLs every server still registered, then deletes registered scratch directories. (A JVM killed with SIGKILL runs
 * no hook: then the server's {@link ManagedProcess} watchdog ends it.) Touches only the processes registered.
 */
final class ProcessGuard {

    private static final Set<ProcessHandle> LIVE = ConcurrentHashMap.newKeySet();
    private static final List<Path> SCRATCH = new CopyOnWriteArrayList<>();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(ProcessGuard::onJvmExit, "mariadbd-reaper"));
    }

    private ProcessGuard() {
    }

    /** Registers a started server. */
    static void guard(ManagedProcess server) {
        LIVE.add(server.handle());
    }

    /** Forgets a server that has exited. */
    static void release(ManagedProcess server) {
        LIVE.remove(server.handle());
    }

    /** Deletes the directory when the JVM exits (after the servers are dead). */
    static void deleteOnExit(Path dir) {
        SCRATCH.add(dir);
    }

    private static void onJvmExit() {
        for (ProcessHandle server : LIVE) {
            if (server.isAlive()) {
                // stderr, not slf4j: logging back ends may already be shut down in a shutdown hook
                System.err.println("vstream local-runtime: killing leftover mariadbd pid " + server.pid());
                server.destroyForcibly();
            }
        }
        for (ProcessHandle server : LIVE) {
            server.onExit().join();
        }
        SCRATCH.forEach(DataDirFiles::deleteQuietly);
    }
}
