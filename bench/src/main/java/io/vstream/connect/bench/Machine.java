package io.vstream.connect.bench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * What the benchmark ran on: CPUs, memory, JDK, OS, the MariaDB version, and the load average (the machine may be
 * shared). Reads {@code /proc}; touches no server (the MariaDB version is passed in).
 */
record Machine(int cpus, String cpuModel, long memoryMb, String jdk, String os, String mariadb, String loadAtStart,
               String loadAtEnd) {

    static Machine probe(String mariadbVersion) {
        return new Machine(Runtime.getRuntime().availableProcessors(), probeCpuModel(), probeMemoryMb(),
                System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"),
                osName(), mariadbVersion, loadAverage(), null);
    }

    Machine withLoadAtEnd() {
        return new Machine(cpus, cpuModel, memoryMb, jdk, os, mariadb, loadAtStart, loadAverage());
    }

    static String loadAverage() {
        List<String> lines = read("/proc/loadavg");
        if (lines.isEmpty()) {
            return "unknown";
        }
        String[] f = lines.get(0).split("\\s+");
        return f.length >= 3 ? f[0] + " " + f[1] + " " + f[2] : lines.get(0);
    }

    private static String probeCpuModel() {
        for (String line : read("/proc/cpuinfo")) {
            if (line.toLowerCase(Locale.ROOT).startsWith("model name")) {
                return line.substring(line.indexOf(':') + 1).strip();
            }
        }
        return System.getProperty("os.arch");
    }

    private static long probeMemoryMb() {
        for (String line : read("/proc/meminfo")) {
            if (line.startsWith("MemTotal:")) {
                String[] f = line.split("\\s+");
                return Long.parseLong(f[1]) / 1024;
            }
        }
        return Runtime.getRuntime().maxMemory() / (1024 * 1024);
    }

    private static String osName() {
        String pretty = "";
        for (String line : read("/etc/os-release")) {
            if (line.startsWith("PRETTY_NAME=")) {
                pretty = line.substring("PRETTY_NAME=".length()).replace("\"", "") + ", ";
            }
        }
        return pretty + System.getProperty("os.name") + " " + System.getProperty("os.version");
    }

    private static List<String> read(String file) {
        try {
            return Files.readAllLines(Path.of(file));
        } catch (IOException | RuntimeException e) {
            return List.of();
        }
    }

    /** Writes what the machine was into {@code node} (a report's {@code machine}) and returns it. */
    ObjectNode json(ObjectNode node) {
        node.put("cpus", cpus());
        node.put("cpu_model", cpuModel());
        node.put("memory_mb", memoryMb());
        node.put("jdk", jdk());
        node.put("os", os());
        node.put("mariadb", mariadb());
        node.put("load_average_start", loadAtStart());
        node.put("load_average_end", loadAtEnd());
        return node;
    }
}
