package io.vstream.connect.coordinator.ddl;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Objects;

/**
 * Names a migration's side tables from a pattern with a {@code ${table}} placeholder: the ghost table is
 * {@code _${table}_gho} by default, as gh-ost names it. A name that would pass MySQL's 64-character identifier limit
 * keeps the pattern's fixed parts and as much of the table name as fits, followed by {@code _} and 8 hex digits of
 * the table name's SHA-256, so every shard derives the same short name and two long table names sharing a prefix do
 * not collide. Touches no server.
 */
public final class GhostNames {
    /** The placeholder a pattern must hold once. */
    public static final String PLACEHOLDER = "${table}";
    /** gh-ost's ghost table name. */
    public static final String DEFAULT_PATTERN = "_" + PLACEHOLDER + "_gho";
    /** MySQL's and MariaDB's limit on a table name, in characters. */
    public static final int MAX_LENGTH = 64;

    private static final int HASH_HEX = 8;
    /** The shortest part of the table name a shortened name keeps, besides the hash. */
    private static final int MIN_KEPT = 1;

    private final String pattern;

    /** @throws IllegalArgumentException if the pattern lacks {@code ${table}}, holds it twice, or is too long */
    public GhostNames(String pattern) {
        this.pattern = validate(pattern);
    }

    public static GhostNames defaults() {
        return new GhostNames(DEFAULT_PATTERN);
    }

    public String pattern() {
        return pattern;
    }

    /** The ghost table's name for {@code table}. */
    public String ghostOf(String table) {
        return apply(pattern, table);
    }

    /**
     * {@code pattern} with {@code ${table}} replaced by {@code table}, shortened with a hash suffix when longer than
     * 64 characters (see the class comment). The cut-over can name its other side tables the same way.
     */
    public static String apply(String pattern, String table) {
        validate(pattern);
        if (table == null || table.isEmpty()) {
            throw new IllegalArgumentException("The table name is empty");
        }
        int at = pattern.indexOf(PLACEHOLDER);
        String prefix = pattern.substring(0, at);
        String suffix = pattern.substring(at + PLACEHOLDER.length());
        String full = prefix + table + suffix;
        if (full.codePointCount(0, full.length()) <= MAX_LENGTH) {
            return full;
        }
        int fixed = prefix.codePointCount(0, prefix.length()) + suffix.codePointCount(0, suffix.length());
        int keep = MAX_LENGTH - fixed - 1 - HASH_HEX;
        String kept = table.substring(0, table.offsetByCodePoints(0, keep));
        return prefix + kept + "_" + hash(table) + suffix;
    }

    private static String validate(String pattern) {
        Objects.requireNonNull(pattern, "pattern");
        int at = pattern.indexOf(PLACEHOLDER);
        if (at < 0 || pattern.indexOf(PLACEHOLDER, at + 1) >= 0) {
            throw new IllegalArgumentException("Ghost table name pattern \"" + pattern + "\" must hold " + PLACEHOLDER
                    + " exactly once, e.g. \"" + DEFAULT_PATTERN + "\"");
        }
        String fixed = pattern.replace(PLACEHOLDER, "");
        if (fixed.isEmpty()) {
            throw new IllegalArgumentException("Ghost table name pattern \"" + pattern + "\" names the table itself;"
                    + " add a prefix or suffix, e.g. \"" + DEFAULT_PATTERN + "\"");
        }
        if (fixed.codePointCount(0, fixed.length()) > MAX_LENGTH - 1 - HASH_HEX - MIN_KEPT) {
            throw new IllegalArgumentException("Ghost table name pattern \"" + pattern + "\" leaves no room for the"
                    + " table name within " + MAX_LENGTH + " characters; shorten its prefix or suffix");
        }
        if (fixed.indexOf('\0') >= 0 || pattern.endsWith(" ")) {
            throw new IllegalArgumentException("Ghost table name pattern \"" + pattern.replace('\0', '?')
                    + "\" holds a NUL or ends with a space, which MySQL does not allow in a table name");
        }
        return pattern;
    }

    private static String hash(String table) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(table.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest).substring(0, HASH_HEX);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
