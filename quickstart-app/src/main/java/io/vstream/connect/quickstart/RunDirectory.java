package io.vstream.connect.quickstart;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The run directory, where all state of a run lives (datadirs, Kafka's log, the worker's config, logs, pid files):
 * wiped at the start of a run, after stopping whatever an earlier run left there (a {@code --keep} run, or a killed
 * one). A pid is trusted only if that process's command line names this directory. Touches only its directory and the
 * processes started from it.
 */
final class RunDirectory {
    /** Stop order: the worker before the broker before the shards. */
    private static final List<String> ORDER = List.of("connect", "kafka", "mariadbd");

    private final Path dir;

    RunDirectory(Path dir) {
        this.dir = dir;
    }

    Path path() {
        return dir;
    }

    Path pids() {
        return dir.resolve("pids");
    }

    /** Stops the processes whose pid files are here; returns how many it stopped. */
    int stopLeftovers() {
        Path pids = pids();
        if (!Files.isDirectory(pids)) {
            return 0;
        }
        int stopped = 0;
        try (Stream<Path> files = Files.list(pids)) {
            List<Path> sorted = files.filter(f -> f.toString().endsWith(".pid"))
                    .sorted(Comparator.comparingInt(RunDirectory::rank)).toList();
            for (Path f : sorted) {
                Optional<ProcessHandle> p = ours(f);
                if (p.isPresent()) {
                    System.out.println("  stopping " + f.getFileName().toString().replace(".pid", "") + " (pid "
                            + p.get().pid() + ")");
                    p.get().destroy();
                    try {
                        p.get().onExit().get(30, java.util.concurrent.TimeUnit.SECONDS);
                    } catch (Exception e) {
                        p.get().destroyForcibly();
                    }
                    stopped++;
                }
                Files.deleteIfExists(f);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return stopped;
    }

    /** Deletes everything in the directory and creates it again. */
    void wipe() {
        try {
            if (Files.exists(dir)) {
                try (Stream<Path> all = Files.walk(dir)) {
                    for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                        Files.delete(p);
                    }
                }
            }
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot wipe " + dir, e);
        }
    }

    private Optional<ProcessHandle> ours(Path pidFile) throws IOException {
        long pid;
        try {
            pid = Long.parseLong(Files.readString(pidFile).strip());
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
        Path cmdline = Path.of("/proc", Long.toString(pid), "cmdline");
        if (!Files.exists(cmdline)) {
            return Optional.empty();
        }
        String command = new String(Files.readAllBytes(cmdline), StandardCharsets.UTF_8).replace('\0', ' ');
        return command.contains(dir.toString()) ? ProcessHandle.of(pid) : Optional.empty();
    }

    private static int rank(Path pidFile) {
        String name = pidFile.getFileName().toString();
        for (int i = 0; i < ORDER.size(); i++) {
            if (name.startsWith(ORDER.get(i))) {
                return i;
            }
        }
        return ORDER.size();
    }
}
