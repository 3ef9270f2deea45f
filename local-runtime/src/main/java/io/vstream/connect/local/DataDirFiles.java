package io.vstream.connect.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/** Small file helpers for datadirs: recursive copy, recursive delete, pruning, log tails. Touches no server. */
public final class DataDirFiles {

    private DataDirFiles() {
    }

    static void copyTree(Path from, Path to) throws IOException {
        Files.walkFileTree(from, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) throws IOException {
                Files.createDirectories(to.resolve(from.relativize(dir).toString()));
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.copy(file, to.resolve(from.relativize(file).toString()), StandardCopyOption.COPY_ATTRIBUTES);
                return FileVisitResult.CONTINUE;
            }
        });
    }

    /** Deletes everything under {@code dir} except the named top-level files; deletes nothing if it is absent. */
    public static void deleteAllExcept(Path dir, Set<String> keep) {
        if (!Files.isDirectory(dir)) {
            return;
        }
        try (Stream<Path> children = Files.list(dir)) {
            children.filter(child -> !keep.contains(child.getFileName().toString()))
                    .forEach(DataDirFiles::deleteQuietly);
        } catch (IOException e) {
            throw new UncheckedIOException("Could not prune " + dir, e);
        }
    }

    static void deleteQuietly(Path path) {
        if (!Files.exists(path)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(path)) {
            walk.sorted((a, b) -> b.getNameCount() - a.getNameCount()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException ignored) {
                    // best effort: a leftover file in target/ is harmless
                }
            });
        } catch (IOException | UncheckedIOException ignored) {
            // best effort
        }
    }

    /** The last {@code lines} lines of a text file, or a note that it does not exist. */
    static String tail(Path file, int lines) {
        if (!Files.exists(file)) {
            return "(no file " + file + ")";
        }
        Deque<String> last = new ArrayDeque<>(lines);
        try (Stream<String> all = Files.lines(file, java.nio.charset.StandardCharsets.ISO_8859_1)) {
            all.forEach(line -> {
                if (last.size() == lines) {
                    last.removeFirst();
                }
                last.addLast(line);
            });
        } catch (IOException | UncheckedIOException e) {
            return "(could not read " + file + ": " + e.getMessage() + ")";
        }
        return String.join("\n", List.copyOf(last));
    }
}
