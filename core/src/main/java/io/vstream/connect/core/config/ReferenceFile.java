package io.vstream.connect.core.config;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Keeps a generated file in the repository (a {@code docs/reference/*.md} page) in step with the code that generates
 * it. A test renders the content and calls {@link #check}: normally the file must already hold exactly that content,
 * or the test fails naming the command that regenerates it; with {@code -Ddocs.update=true} the test writes the file
 * instead. Touches only that one file, never a server.
 *
 * <p>Every module with a configuration reference has one such test, e.g.:
 *
 * <pre>{@code
 * ReferenceFile.check(Path.of("../../docs/reference/source-connector.md"),
 *         ConfigDocs.toMarkdown(TITLE, INTRO, VStreamSourceConnectorConfig.CONFIG_DEF),
 *         ReferenceFile.updateCommand("connectors/source", ConfigReferenceTest.class));
 * }</pre>
 *
 * <p>The path is relative to the module (Surefire runs tests in the module's directory). Messages name the file
 * without its leading {@code ..} segments, i.e. relative to the repository root when the path climbs up to it.
 * Line ends are compared as {@code \n}, so a checkout that turned them into {@code \r\n} is not stale.
 */
public final class ReferenceFile {

    /** The system property that switches {@link #check} from comparing to writing. */
    public static final String UPDATE_PROPERTY = "docs.update";

    /** What {@link #check} found or did. */
    public enum Outcome {
        /** The file already held the content; nothing was written. */
        UP_TO_DATE,
        /** Update mode: the file was missing or different and now holds the content. */
        WRITTEN
    }

    private ReferenceFile() {
    }

    /**
     * Compares {@code file} with {@code content}, or, when the system property {@value #UPDATE_PROPERTY} is
     * {@code true}, writes {@code content} to it (UTF-8).
     *
     * @param updateCommand the command that regenerates the file, quoted in the failure (see {@link #updateCommand})
     * @throws AssertionError when not updating and the file is missing or differs: "{@code <file> is stale: run
     *     <updateCommand>}"
     * @throws UncheckedIOException when the file cannot be read or written
     */
    public static Outcome check(Path file, String content, String updateCommand) {
        return check(file, content, updateCommand, Boolean.getBoolean(UPDATE_PROPERTY));
    }

    static Outcome check(Path file, String content, String updateCommand, boolean update) {
        String name = displayName(file);
        String existing = read(file);
        if (existing != null && normalize(existing).equals(normalize(content))) {
            return Outcome.UP_TO_DATE;
        }
        if (!update) {
            if (existing == null) {
                throw new AssertionError(name + " is missing (no file at " + file.toAbsolutePath().normalize()
                        + "): run " + updateCommand);
            }
            throw new AssertionError(name + " is stale: run " + updateCommand);
        }
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            Files.writeString(file, content, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write " + name + " (" + file.toAbsolutePath().normalize() + "): "
                    + e.getMessage(), e);
        }
        return Outcome.WRITTEN;
    }

    /**
     * The Maven command that regenerates the files a test checks: {@code mvn -pl <module> test -Dtest=<test>
     * -Ddocs.update=true}.
     *
     * @param module the module's directory relative to the repository root, e.g. {@code connectors/source}
     * @param test the test class that calls {@link #check}
     */
    public static String updateCommand(String module, Class<?> test) {
        return "mvn -pl " + module + " test -Dtest=" + test.getSimpleName() + " -D" + UPDATE_PROPERTY + "=true";
    }

    /** {@code ../../docs/reference/x.md} as {@code docs/reference/x.md}: the path without leading {@code ..}/{@code .}. */
    static String displayName(Path file) {
        Path p = file.normalize();
        if (p.isAbsolute()) {
            return p.toString();
        }
        int first = 0;
        while (first < p.getNameCount() - 1 && (p.getName(first).toString().equals("..")
                || p.getName(first).toString().equals("."))) {
            first++;
        }
        StringBuilder name = new StringBuilder();
        for (int i = first; i < p.getNameCount(); i++) {
            if (name.length() > 0) {
                name.append('/');
            }
            name.append(p.getName(i));
        }
        return name.toString();
    }

    private static String read(Path file) {
        if (!Files.exists(file)) {
            return null;
        }
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + displayName(file) + " ("
                    + file.toAbsolutePath().normalize() + "): " + e.getMessage(), e);
        }
    }

    private static String normalize(String s) {
        return s.replace("\r\n", "\n");
    }
}
