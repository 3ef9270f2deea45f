package io.vstream.connect.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code GRANT} statements docs/grants.md prints, read from the page itself so that the tests create exactly the
 * accounts a user creates from it: the SQL block after the marker {@code <!-- grants: NAME -->}, split into statements,
 * with the example database {@code commerce} replaced by the test's and {@code change-me} by {@link #PASSWORD}.
 */
final class DocumentedGrants {
    static final String PASSWORD = "change-me";
    private static final Path PAGE = Path.of("../docs/grants.md");

    private DocumentedGrants() {
    }

    /** The statements of the block named {@code name} (e.g. "clone target"), for database {@code database}. */
    static List<String> statements(String name, String database) {
        return parse(name, database, false);
    }

    /**
     * The statements of the block named {@code name} that the page calls optional (a comment line above the statement
     * says "(optional"): the workflow runs without them, e.g. only slower.
     */
    static List<String> optional(String name, String database) {
        return parse(name, database, true);
    }

    private static List<String> parse(String name, String database, boolean onlyOptional) {
        List<String> lines;
        try {
            lines = Files.readAllLines(PAGE, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        int i = 0;
        while (i < lines.size() && !isMarker(lines.get(i), name)) {
            i++;
        }
        if (i == lines.size()) {
            throw new IllegalArgumentException("docs/grants.md has no block '" + name + "'");
        }
        while (++i < lines.size() && !lines.get(i).startsWith("```sql")) {
            // up to the block's opening fence
        }
        List<String> out = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        boolean optional = false; // the comment above the statement calls it optional
        for (i++; i < lines.size() && !lines.get(i).startsWith("```"); i++) {
            String line = lines.get(i).strip();
            if (line.startsWith("--")) {
                optional |= line.contains("(optional");
                continue;
            }
            if (line.isEmpty()) {
                continue;
            }
            current.append(current.length() == 0 ? "" : " ").append(line);
            if (line.endsWith(";")) {
                if (optional || !onlyOptional) {
                    out.add(current.substring(0, current.length() - 1).replace("`commerce`", "`" + database + "`"));
                }
                current.setLength(0);
                optional = false;
            }
        }
        if (out.isEmpty() && !onlyOptional) {
            throw new IllegalArgumentException("the block '" + name + "' of docs/grants.md holds no statement");
        }
        return out;
    }

    /** The statements of {@code name} without the one that grants exactly {@code grant} (e.g. "RELOAD ON *.*"). */
    static List<String> without(List<String> statements, String grant) {
        List<String> out = new ArrayList<>();
        boolean removed = false;
        for (String s : statements) {
            if (s.startsWith("GRANT " + grant + " TO ")) {
                removed = true;
            } else {
                out.add(s);
            }
        }
        if (!removed) {
            throw new IllegalArgumentException("no statement grants exactly " + grant + ": " + statements);
        }
        return out;
    }

    private static boolean isMarker(String line, String name) {
        String l = line.strip();
        return l.startsWith("<!-- grants: " + name) && (l.equals("<!-- grants: " + name + " -->")
                || l.equals("<!-- grants: " + name + " (tested) -->"));
    }
}
