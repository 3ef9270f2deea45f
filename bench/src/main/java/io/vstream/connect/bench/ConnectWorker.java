package io.vstream.connect.bench;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One Connect worker of a {@link ConnectProcesses} group: its fixed properties file (so its REST port and group) and
 * its current process ({@code org.apache.kafka.connect.cli.ConnectDistributed}), which the stress command may kill
 * with SIGKILL and start again. Worker 0 logs to {@code logs/connect.log} (and {@code connect.out}), worker i to
 * {@code logs/connect-<i>.log}; a restarted worker to a new file ({@code -restart<n>}), since slf4j-simple truncates
 * its file when it starts. Touches its own process and files only.
 */
final class ConnectWorker {
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private final int index;
    private final Path properties;
    private final int restPort;
    private final List<Path> logs = new ArrayList<>();
    private Process process;
    private int starts;

    ConnectWorker(int index, Path properties, int restPort) {
        this.index = index;
        this.properties = properties;
        this.restPort = restPort;
    }

    int index() {
        return index;
    }

    String rest() {
        return "http://127.0.0.1:" + restPort;
    }

    /** The {@code worker_id} that Connect's statuses give this worker (its REST listener, {@code host:port}). */
    boolean isWorkerId(String workerId) {
        return ("127.0.0.1:" + restPort).equals(workerId) || ("localhost:" + restPort).equals(workerId);
    }

    boolean alive() {
        return process != null && process.isAlive();
    }

    long pid() {
        return process.pid();
    }

    Process process() {
        return process;
    }

    /** Every log file its processes wrote, restarts included. */
    List<Path> logs() {
        return List.copyOf(logs);
    }

    /**
     * Starts its process (the first time, or again after it died) with a log file of its own; returns at once.
     *
     * @param name    the cluster's name (for the JFR file)
     * @param cp      the Kafka classpath
     * @param logsDir where the logs go
     * @param heap    {@code -Xmx}
     * @param jfrDir  where a JFR recording goes, or null for none
     */
    void start(String name, String cp, Path logsDir, String heap, Path jfrDir) throws IOException {
        if (alive()) {
            throw new IllegalStateException("worker " + index + " is still running (pid " + process.pid() + ")");
        }
        String restart = starts == 0 ? "" : "-restart" + starts;
        String base = (index == 0 ? "connect" : "connect-" + index) + restart;
        List<String> cmd = new ArrayList<>(List.of(ConnectProcesses.java(), "-Xmx" + heap, "-XX:+UseG1GC"));
        cmd.addAll(ConnectProcesses.jfr(jfrDir, name + "-worker" + (index == 0 ? "" : "-" + index) + restart
                + ".jfr"));
        Path log = logsDir.resolve(base + ".log");
        cmd.addAll(List.of("-Dorg.slf4j.simpleLogger.logFile=" + log,
                "-cp", cp, "org.apache.kafka.connect.cli.ConnectDistributed", properties.toString()));
        process = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(logsDir.resolve(base + ".out").toFile()).start();
        logs.add(log);
        starts++;
    }

    /** Waits until its REST API answers; fails when the process exits first or {@code timeout} passes. */
    void awaitRest(Duration timeout) throws InterruptedException, IOException {
        Path log = logs.get(logs.size() - 1);
        Path out = log.resolveSibling(log.getFileName().toString().replaceFirst("\\.log$", ".out"));
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("the Connect worker exited " + process.exitValue() + ": "
                        + ConnectProcesses.tail(out) + ConnectProcesses.tail(log));
            }
            try {
                HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(rest() + "/connectors"))
                        .timeout(Duration.ofSeconds(5)).GET().build(), HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() == 200) {
                    return;
                }
            } catch (IOException e) {
                // not listening yet
            }
            Thread.sleep(250);
        }
        throw new IllegalStateException("the Connect worker's REST API (" + rest() + ") did not answer within "
                + timeout.toSeconds() + " s: " + ConnectProcesses.tail(log));
    }

    /** SIGKILL (no shutdown, no offset flush, no leaving the group), waiting until the process is gone. */
    void kill() throws InterruptedException {
        if (!alive()) {
            return;
        }
        process.destroyForcibly();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException("worker " + index + " (pid " + process.pid() + ") did not die of SIGKILL");
        }
    }
}
