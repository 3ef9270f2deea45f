package io.vstream.connect.core.position;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/**
 * What is being parsed (e.g. "MariaDB GTID position"), the whole input as the user wrote it and a valid example:
 * the three things every {@link MalformedPositionException} message states. Also holds the lexical helpers the
 * flavors share (comma-separated entries, unsigned numbers).
 */
record ParseContext(String what, String input, String example) {

    static final BigInteger UINT32_MAX = BigInteger.valueOf(0xFFFF_FFFFL);
    static final BigInteger UINT64_MAX = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);
    static final BigInteger INT64_MAX = BigInteger.valueOf(Long.MAX_VALUE);

    /** The exception for this input: {@code Malformed <what> '<input>': <problem>, e.g. <example>}. */
    MalformedPositionException fail(String problem) {
        return new MalformedPositionException("Malformed " + what + " '" + input + "': " + problem + ", e.g. " + example);
    }

    /**
     * The comma-separated entries of {@code body}, each stripped of surrounding whitespace (MySQL's
     * {@code @@gtid_executed} puts a newline after each comma). A blank body has no entries; an empty entry is an error.
     */
    List<String> entries(String body) {
        List<String> entries = new ArrayList<>();
        if (body.isBlank()) {
            return entries;
        }
        for (String raw : body.split(",", -1)) {
            String entry = raw.strip();
            if (entry.isEmpty()) {
                throw fail("it has an empty entry (a leading, trailing or doubled comma)");
            }
            entries.add(entry);
        }
        return entries;
    }

    /**
     * Parses the unsigned decimal {@code token}, the {@code name} part of {@code entry}, no larger than {@code max}.
     * Values up to 2^64-1 come back as the long with the same 64 bits (compare them with {@link Long#compareUnsigned}).
     */
    long unsigned(String token, String name, String entry, BigInteger max) {
        String where = "entry '" + entry + "' has ";
        if (token.isEmpty()) {
            throw fail(where + "an empty " + name);
        }
        if (token.startsWith("-")) {
            throw fail(where + name + " '" + token + "', which is negative; GTID numbers are unsigned");
        }
        for (int i = 0; i < token.length(); i++) {
            char c = token.charAt(i);
            if (c < '0' || c > '9') {
                throw fail(where + name + " '" + token + "', which is not a number");
            }
        }
        BigInteger value = new BigInteger(token);
        if (value.compareTo(max) > 0) {
            throw fail(where + name + " '" + token + "', which is too large (at most " + max + ")");
        }
        return value.longValue();
    }
}
