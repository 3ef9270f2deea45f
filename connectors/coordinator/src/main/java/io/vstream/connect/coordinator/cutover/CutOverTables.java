package io.vstream.connect.coordinator.cutover;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Objects;

/**
 * The tables of one cut-over and their names: the original table, the ghost table the applier filled, and the old
 * table name the original is renamed to. As in gh-ost, the sentry table is created under the old table's name:
 * {@code RENAME TABLE t TO old, ghost TO t} then fails with ER_TABLE_EXISTS (1050) for as long as the sentry exists,
 * which is what makes the RENAME harmless if the lock holder dies; dropping the sentry just before unlocking lets
 * it through. Touches no server.
 *
 * <p><b>Why the default old name is {@code <t>_old} and not {@code _<t>_old}.</b> A RENAME acquires its exclusive
 * metadata locks one at a time in the order of the lock keys (schema, then table name bytes, each NUL-terminated)
 * and waits on the first it cannot get. If the sentry's name sorts before {@code t} (as {@code _t_old} and gh-ost's
 * {@code _t_del} do for a lower-case {@code t}), the RENAME waits on the sentry and has no request on {@code t} yet;
 * it queues on {@code t} only after the sentry is dropped, and writes waiting on {@code t} win if {@code UNLOCK
 * TABLES} arrives first (seen with performance_schema on MariaDB 10.11). A name that extends {@code t} always sorts
 * after it, so the RENAME's exclusive request on {@code t} is queued from step 5 on and goes before the waiting
 * writes when the lock is released. A name chosen by the operator that sorts before {@code t} works as in gh-ost;
 * the cut-over then checks the RENAME's queue position in performance_schema where the MDL instrument is on.
 *
 * @param database the schema holding all three tables
 * @param table    the original table
 * @param ghost    the ghost table (e.g. {@code _t_gho})
 * @param oldTable the name the original table gets (and the sentry has); null to let each attempt choose
 *                 {@link #defaultOldName} or, when that is taken by a table that is not our sentry,
 *                 {@link #timestampedOldName}
 */
public record CutOverTables(String database, String table, String ghost, String oldTable) {

    /** MySQL's and MariaDB's limit on a table name, in characters. */
    public static final int MAX_NAME_LENGTH = 64;
    /** The start of the sentry table's comment, which marks it as ours (the rest identifies the table). */
    public static final String SENTRY_COMMENT_PREFIX = "vstream-connect cut-over sentry ";

    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd_HHmmss")
            .withZone(ZoneOffset.UTC);
    private static final int HASH_HEX = 8;

    public CutOverTables {
        requireName(database, "database");
        requireName(table, "table");
        requireName(ghost, "ghost");
        if (oldTable != null) {
            requireName(oldTable, "oldTable");
        }
        if (ghost.equals(table) || table.equals(oldTable) || ghost.equals(oldTable)) {
            throw new IllegalArgumentException("The original (" + table + "), ghost (" + ghost + ") and old ("
                    + oldTable + ") tables need three distinct names");
        }
    }

    /** The tables of {@code database.table} with its ghost, the old name chosen by each attempt. */
    public static CutOverTables of(String database, String table, String ghost) {
        return new CutOverTables(database, table, ghost, null);
    }

    /** The same tables with an old name fixed by the operator (an attempt fails if it is taken). */
    public CutOverTables withOldTable(String name) {
        return new CutOverTables(database, table, ghost, name);
    }

    /** {@code <table>_old}, shortened with a hash of the table name when longer than 64 characters. */
    public static String defaultOldName(String table) {
        return withSuffix(table, "_old");
    }

    /** {@code <table>_old_<yyyyMMdd_HHmmss>} (UTC), shortened like {@link #defaultOldName}. */
    public static String timestampedOldName(String table, Instant at) {
        return withSuffix(table, "_old_" + STAMP.format(at));
    }

    /** The comment that marks the sentry of {@code table} as ours: the prefix and 8 hex digits of its SHA-256. */
    public static String sentryComment(String table) {
        return SENTRY_COMMENT_PREFIX + hash(table);
    }

    /**
     * Compares two table names of one schema in the order MySQL/MariaDB take their metadata locks: the UTF-8 bytes
     * of the name followed by a NUL, lower-cased first when the server has {@code lower_case_table_names} set.
     * Negative if {@code a}'s lock is taken before {@code b}'s.
     */
    public static int lockOrder(String a, String b, boolean lowerCaseNames) {
        byte[] x = key(a, lowerCaseNames);
        byte[] y = key(b, lowerCaseNames);
        return java.util.Arrays.compareUnsigned(x, y);
    }

    private static byte[] key(String name, boolean lowerCase) {
        String n = lowerCase ? name.toLowerCase(Locale.ROOT) : name;
        byte[] utf8 = n.getBytes(StandardCharsets.UTF_8);
        byte[] key = java.util.Arrays.copyOf(utf8, utf8.length + 1); // the NUL terminator
        return key;
    }

    private static String withSuffix(String table, String suffix) {
        requireName(table, "table");
        String full = table + suffix;
        if (full.codePointCount(0, full.length()) <= MAX_NAME_LENGTH) {
            return full;
        }
        int keep = MAX_NAME_LENGTH - suffix.length() - 1 - HASH_HEX;
        return table.substring(0, table.offsetByCodePoints(0, keep)) + "_" + hash(table) + suffix;
    }

    private static String hash(String s) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, HASH_HEX / 2);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }

    private static void requireName(String name, String what) {
        Objects.requireNonNull(name, what);
        if (name.isEmpty() || name.codePointCount(0, name.length()) > MAX_NAME_LENGTH || name.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("The " + what + " name \"" + name.replace('\0', '?') + "\" is not a"
                    + " valid table name (1 to 64 characters, no NUL)");
        }
    }
}
