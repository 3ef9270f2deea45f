package io.vstream.connect.local;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One freshly initialised MariaDB datadir per JVM ({@code mariadb-install-db} runs once, 1-3 s), copied for
 * each test server (~0.1 s). Runs the bootstrap server of {@code mariadb-install-db}, which listens on no
 * port; the template is deleted when the JVM exits.
 */
public final class DataDirTemplate {

    private static final Logger LOG = LoggerFactory.getLogger(DataDirTemplate.class);
    private static final long INSTALL_TIMEOUT_SECONDS = 120;

    private static Path template;

    private DataDirTemplate() {
    }

    /** Copies the template into {@code datadir} (which must not exist yet), installing it first if needed. */
    public static void copyTo(Path datadir, Path baseDir, MariaDbBinaries binaries) throws IOException {
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
        Files.createDirectories(MariaDbConfig.tmpdir(data));
        ProcessGuard.deleteOnExit(root);
        Path config = root.resolve("install.cnf");
        Path log = root.resolve("install.log");
        Files.writeString(config, MariaDbConfig.templateConfig(data), StandardCharsets.UTF_8);
        try {
            binaries.startInstall(config, log).awaitSuccess(Duration.ofSeconds(INSTALL_TIMEOUT_SECONDS));
        } catch (IllegalStateException e) {
            throw new IllegalStateException(e.getMessage() + "\n(check the MariaDB install: "
                    + MariaDbBinaries.INSTALL_HINT + ")", e);
        }
        LOG.info("Installed the MariaDB datadir template {} in {} ms", data,
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
        return data;
    }
}
