package io.vstream.connect.testsupport.db;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One freshly initialised MariaDB datadir per JVM ({@code mariadb-install-db} runs once, 1-3 s), copied for
 * each test server (~0.1 s). Runs the bootstrap server of {@code mariadb-install-db}, which listens on no
 * port; the template is deleted when the JVM exits.
 */
final class DataDirTemplate {

    private static final Logger LOG = LoggerFactory.getLogger(DataDirTemplate.class);
    private static final long INSTALL_TIMEOUT_SECONDS = 120;

    private static Path template;

    private DataDirTemplate() {
    }

    /** Copies the template into {@code datadir} (which must not exist yet), installing it first if needed. */
    static void copyTo(Path datadir, Path baseDir, MariaDbBinaries binaries) throws IOException {
        DataDirFiles.copyTree(template(baseDir, binaries), datadir);
    }

    private static synchronized Path template(Path baseDir, MariaDbBinaries binaries) throws IOException {
        if (template == null) {
            template = install(baseDir, binaries);
        }
        return template;
    }

    private static Path install(Path baseDir, MariaDbBinaries binaries) throws IOException {
        long started = System.nanoTime();
        Path root = baseDir.resolve(".template-" + UUID.randomUUID().toString().substring(0, 8));
        Path data = root.resolve("data");
        Files.createDirectories(root);
        Files.createDirectories(ServerConfig.tmpdir(data));
        ProcessGuard.deleteOnExit(root);
        Path config = root.resolve("install.cnf");
        Path log = root.resolve("install.log");
        Files.writeString(config, ServerConfig.templateConfig(data), StandardCharsets.UTF_8);
        Process install = new ProcessBuilder(binaries.installDb.toString(), "--defaults-file=" + config,
                "--auth-root-authentication-method=normal", "--skip-test-db")
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        try {
            if (!install.waitFor(INSTALL_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                install.destroyForcibly();
                throw new IllegalStateException("mariadb-install-db did not finish within "
                        + INSTALL_TIMEOUT_SECONDS + " s; log " + log + ":\n" + DataDirFiles.tail(log, 40));
            }
        } catch (InterruptedException e) {
            install.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while installing the MariaDB datadir template", e);
        }
        if (install.exitValue() != 0) {
            throw new IllegalStateException("mariadb-install-db failed with exit code " + install.exitValue()
                    + " (check the MariaDB install: " + MariaDbBinaries.INSTALL_HINT + "); log " + log + ":\n"
                    + DataDirFiles.tail(log, 40));
        }
        LOG.info("Installed the MariaDB datadir template {} in {} ms", data,
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
        return data;
    }
}
