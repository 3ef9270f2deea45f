package io.vstream.connect.testsupport.registry;

import io.vstream.connect.local.ManagedProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real schema registry for tests: Apicurio Registry 2.4.2 (in-memory storage) as a separate {@code java} process,
 * built by the {@code schema-registry} module into {@code target/quarkus-app/quarkus-run.jar}, launched by
 * local-runtime's {@link ManagedProcess} as the tests' other servers are (in this JVM's session, its output in a log
 * file). Starts on a free loopback port, waits until {@code /health/ready} answers UP, and is always stopped: by
 * {@link #close()}, by a shutdown hook if the JVM exits first, and by the process's watchdog when this JVM dies without
 * running hooks. Touches only the process it started.
 *
 * <p>The jar is the system property {@code vstream.registry.jar} (set by the integration-tests build) unless given.
 */
public final class ApicurioRegistry implements AutoCloseable {
    public static final String JAR_PROPERTY = "vstream.registry.jar";
    /** The Confluent-compatible API, as Confluent's clients and Apicurio's converter in Confluent mode use it. */
    public static final String CCOMPAT_PATH = "/apis/ccompat/v7";

    private static final Logger LOG = LoggerFactory.getLogger(ApicurioRegistry.class);
    private static final String HOST = "127.0.0.1";
    private static final Duration START_TIMEOUT = Duration.ofSeconds(90);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(15);
    private static final int START_ATTEMPTS = 3;
    private static final Set<Long> LIVE = ConcurrentHashMap.newKeySet(); // pids, for the reaper at the JVM's exit

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(ApicurioRegistry::killLeftovers, "registry-reaper"));
    }

    private final ManagedProcess process;
    private final int port;

    private ApicurioRegistry(ManagedProcess process, int port) {
        this.process = process;
        this.port = port;
    }

    /** Starts the registry from the jar named by {@value #JAR_PROPERTY}, logging under {@code target/registry/}. */
    public static ApicurioRegistry start() {
        String jar = System.getProperty(JAR_PROPERTY);
        if (jar == null) {
            throw new IllegalStateException("System property " + JAR_PROPERTY + " is not set: run the tests through"
                    + " 'mvn verify' (the integration-tests build sets it to the schema-registry module's"
                    + " target/quarkus-app/quarkus-run.jar)");
        }
        return start(Paths.get(jar), Paths.get("target", "registry"));
    }

    public static ApicurioRegistry start(Path jar, Path logDir) {
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("Schema registry jar " + jar + " does not exist: build the schema-registry"
                    + " module first, once and online: mvn -B install -pl schema-registry (without -DskipTests, which"
                    + " skips its assembly; docs/development.md)");
        }
        IllegalStateException last = null;
        for (int attempt = 1; attempt <= START_ATTEMPTS; attempt++) {
            try {
                return launch(jar, logDir, freePort());
            } catch (PortTakenException e) {
                last = e; // another process took the free port between probe and bind: try another
                LOG.info("Registry port taken while starting ({}); retrying on another port", e.getMessage());
            }
        }
        throw last;
    }

    private static ApicurioRegistry launch(Path jar, Path logDir, int port) {
        long started = System.nanoTime();
        List<String> cmd = new ArrayList<>();
        cmd.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-Xmx256m");
        cmd.add("-XX:+UseSerialGC");
        cmd.add("-XX:TieredStopAtLevel=1"); // a short-lived server: start fast rather than peak
        cmd.add("-Dquarkus.http.host=" + HOST);
        cmd.add("-Dquarkus.http.port=" + port);
        cmd.add("-Dquarkus.http.cors.origins=http://" + HOST + ":" + port);
        cmd.add("-jar");
        cmd.add(jar.toAbsolutePath().toString()); // last: the watchdog ends only a process that still names it
        Path logFile = logDir.toAbsolutePath().resolve("registry-" + port + ".log");
        try {
            Files.deleteIfExists(logFile); // the log is appended to: an older run's on this port is not this one's
        } catch (IOException e) {
            throw new UncheckedIOException("Could not remove the old registry log " + logFile, e);
        }
        // in this JVM's session, as the tests' mariadbd, broker and workers; ended with this JVM however it dies
        ManagedProcess process = ManagedProcess.start("schema-registry-" + port, cmd, logFile, null, true, false);
        LIVE.add(process.pid());
        ApicurioRegistry registry = new ApicurioRegistry(process, port);
        registry.awaitReady(started);
        LOG.info("Started schema registry (Apicurio, pid {}) at {} in {} ms", process.pid(), registry.url(),
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
        return registry;
    }

    private void awaitReady(long started) {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        long deadline = started + START_TIMEOUT.toNanos();
        String lastState = "no answer";
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                close();
                String tail = logTail();
                if (tail.contains("seems to be in use by another process") || tail.contains("Address already in use")) {
                    throw new PortTakenException("port " + port);
                }
                throw new IllegalStateException("The schema registry exited with code " + process.exitCode()
                        + " while starting; log " + logFile() + ":\n" + tail);
            }
            try {
                HttpResponse<String> ready = http.send(HttpRequest.newBuilder(URI.create(url() + "/health/ready"))
                        .timeout(Duration.ofSeconds(2)).build(), HttpResponse.BodyHandlers.ofString());
                if (ready.statusCode() == 200 && ready.body().contains("\"UP\"")) {
                    return;
                }
                lastState = "HTTP " + ready.statusCode();
            } catch (IOException e) {
                lastState = e.toString();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                close();
                throw new IllegalStateException("Interrupted while waiting for the schema registry", e);
            }
            sleep(100);
        }
        close();
        throw new IllegalStateException("The schema registry was not ready within " + START_TIMEOUT.toSeconds()
                + " s (last: " + lastState + "); log " + logFile() + ":\n" + logTail());
    }

    /** The base URL, e.g. {@code http://127.0.0.1:34567}. */
    public String url() {
        return "http://" + HOST + ":" + port;
    }

    /** The Confluent-compatible API's base URL, {@code <url>/apis/ccompat/v7}: what converters and clients take. */
    public String ccompatUrl() {
        return url() + CCOMPAT_PATH;
    }

    /** A client of the Confluent-compatible API of this registry. */
    public CcompatApi ccompat() {
        return new CcompatApi(ccompatUrl());
    }

    public long pid() {
        return process.pid();
    }

    public boolean isRunning() {
        return process.isAlive();
    }

    public Path logFile() {
        return process.logFile();
    }

    /** Stops the registry (SIGTERM, then SIGKILL after 15 s) and waits for its exit. */
    @Override
    public void close() {
        long started = System.nanoTime();
        boolean wasRunning = process.isAlive();
        process.stop(STOP_TIMEOUT);
        LIVE.remove(process.pid());
        if (wasRunning) {
            LOG.info("Stopped schema registry (pid {}) in {} ms", process.pid(),
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
        }
    }

    String logTail() {
        return process.logTail(40);
    }

    private static void killLeftovers() {
        for (long pid : LIVE) {
            ProcessHandle.of(pid).filter(ProcessHandle::isAlive).ifPresent(p -> {
                // stderr, not slf4j: logging back ends may already be shut down in a shutdown hook
                System.err.println("vstream test-support: killing leftover schema registry pid " + pid);
                p.destroyForcibly();
            });
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(HOST))) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("No free port on " + HOST, e);
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while waiting for the schema registry", e);
        }
    }

    /** A start that failed because the port was taken; another port may succeed. */
    private static final class PortTakenException extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        PortTakenException(String message) {
            super(message);
        }
    }
}
