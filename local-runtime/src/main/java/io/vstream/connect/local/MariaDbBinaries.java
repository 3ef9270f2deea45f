package io.vstream.connect.local;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Finds the executables of Debian's {@code mariadb-server} package ({@code mariadbd},
 * {@code mariadb-install-db}) on the {@code PATH} or in {@code /usr/sbin}, and runs {@code mariadb-install-db} into a
 * fresh datadir. Touches no running server; fails with the install command when the package is missing.
 */
public final class MariaDbBinaries {

    static final String INSTALL_HINT = "apt-get install -y mariadb-server mariadb-client";

    private static volatile MariaDbBinaries found;

    private final Path mariadbd;
    private final Path installDb;

    private MariaDbBinaries(Path mariadbd, Path installDb) {
        this.mariadbd = mariadbd;
        this.installDb = installDb;
    }

    public Path mariadbd() {
        return mariadbd;
    }

    /**
     * Starts {@code mariadb-install-db} (1-3 s) for the datadir of {@code configFile}, its output to {@code logFile};
     * several may run at once. Its bootstrap server listens on no port.
     */
    public ManagedProcess startInstall(Path configFile, Path logFile) {
        return ManagedProcess.start("mariadb-install-db", List.of(installDb.toString(), "--defaults-file=" + configFile,
                "--auth-root-authentication-method=normal", "--skip-test-db"), logFile, null);
    }

    public static MariaDbBinaries find() {
        MariaDbBinaries result = found;
        if (result == null) {
            result = new MariaDbBinaries(require("mariadbd"), require("mariadb-install-db"));
            found = result;
        }
        return result;
    }

    private static Path require(String name) {
        return locate(name).orElseThrow(() -> new IllegalStateException(
                "'" + name + "' was not found on the PATH or in /usr/sbin; local shards need Debian's "
                        + "MariaDB server: run `" + INSTALL_HINT + "`"));
    }

    private static Optional<Path> locate(String name) {
        List<String> dirs = new ArrayList<>();
        String path = System.getenv("PATH");
        if (path != null) {
            dirs.addAll(List.of(path.split(File.pathSeparator)));
        }
        dirs.add("/usr/sbin");
        dirs.add("/usr/bin");
        for (String dir : dirs) {
            if (dir.isEmpty()) {
                continue;
            }
            Path candidate = Path.of(dir, name);
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }
}
