package io.vstream.connect.quickstart;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * Our four plugin archives as {@code mvn package} builds them ({@code connectors/*}{@code /target} and
 * {@code transforms/target}, {@code *-plugin.zip}), unpacked into a directory that becomes the worker's
 * {@code plugin.path}, as a user installs them. Reads and writes files only.
 */
final class PluginArchives {
    static final List<String> MODULES = List.of("connectors/source", "connectors/sink", "connectors/coordinator",
            "transforms");

    private PluginArchives() {
    }

    /** The archives, or a failure that says how to build them. */
    static List<Path> find(Path repo) {
        List<Path> zips = new ArrayList<>();
        for (String module : MODULES) {
            Path target = repo.resolve(module).resolve("target");
            Path found = null;
            if (Files.isDirectory(target)) {
                try (DirectoryStream<Path> ds = Files.newDirectoryStream(target, "*-plugin.zip")) {
                    for (Path p : ds) {
                        found = p;
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
            if (found == null) {
                throw new IllegalStateException("No plugin archive in " + target + ": build them with"
                        + " mvn -DskipTests package");
            }
            zips.add(found);
        }
        return zips;
    }

    /** Unpacks each archive into {@code pluginPath} (one directory per plugin, as in the archive). */
    static void unpack(List<Path> zips, Path pluginPath) {
        try {
            Files.createDirectories(pluginPath);
            for (Path zip : zips) {
                try (ZipFile z = new ZipFile(zip.toFile())) {
                    for (ZipEntry e : java.util.Collections.list(z.entries())) {
                        Path out = pluginPath.resolve(e.getName()).normalize();
                        if (!out.startsWith(pluginPath)) {
                            throw new IllegalStateException(zip + " has an entry outside its directory: "
                                    + e.getName());
                        }
                        if (e.isDirectory()) {
                            Files.createDirectories(out);
                        } else {
                            Files.createDirectories(out.getParent());
                            try (InputStream in = z.getInputStream(e)) {
                                Files.copy(in, out, StandardCopyOption.REPLACE_EXISTING);
                            }
                        }
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
