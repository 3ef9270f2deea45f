package io.vstream.connect.core.keyrange;

import java.util.Arrays;
import java.util.Objects;
import java.util.Optional;

/**
 * A Vitess key range: the keyspace ids a shard owns, named the Vitess way ({@code -80}, {@code 80-},
 * {@code 40-80}, {@code -} for the full range, {@code 0} for an unsharded keyspace).
 *
 * <p>The start is inclusive and the end exclusive; an empty start is the minimum key and an empty end the maximum.
 * Bounds and keyspace ids compare as unsigned byte strings with the shorter one padded with zero bytes, so
 * {@code -80}, {@code 00-80} and {@code 0000-8000} are the same range (equal, same hash code) even though each
 * keeps the name it was written with. Ranges order by start, then end. Instances are immutable.
 */
public final class KeyRange implements Comparable<KeyRange> {

    static final String EXAMPLES = "a Vitess shard name such as \"-80\", \"80-\", \"40-80\", \"-4000\", "
            + "\"-\" (full range) or \"0\" (unsharded)";

    private static final byte[] NONE = new byte[0];
    private static final KeyRange FULL = new KeyRange(NONE, NONE);

    private final byte[] start;
    private final byte[] end;

    private KeyRange(byte[] start, byte[] end) {
        this.start = start;
        this.end = end;
    }

    /** The range that holds every keyspace id ({@code -}, also written {@code 0}). */
    public static KeyRange full() {
        return FULL;
    }

    /**
     * Parses a Vitess shard name: {@code <start>-<end>} where each bound is empty or an even number of hex digits
     * (either case), or {@code 0} for the full range. Surrounding whitespace is ignored.
     *
     * @throws IllegalArgumentException quoting the input and a valid example if it is not a key range
     */
    public static KeyRange parse(String text) {
        if (text == null) {
            throw new IllegalArgumentException("Key range is null; expected " + EXAMPLES);
        }
        String s = text.strip();
        if (s.equals("0") || s.equals("-")) {
            return FULL;
        }
        int dash = s.indexOf('-');
        if (dash < 0 || dash != s.lastIndexOf('-')) {
            throw invalid(text, "it needs exactly one '-' between the start and the end");
        }
        byte[] start = bound(text, "start", s.substring(0, dash));
        byte[] end = bound(text, "end", s.substring(dash + 1));
        if (end.length > 0 && KeyBounds.compare(start, end) >= 0) {
            throw invalid(text, "the start must be below the end, or the range is empty");
        }
        return new KeyRange(start, end);
    }

    /**
     * The range {@code [start, end)}; an empty start is the minimum key and an empty end the maximum key.
     *
     * @throws IllegalArgumentException if the range would be empty (start not below end)
     */
    public static KeyRange of(byte[] start, byte[] end) {
        Objects.requireNonNull(start, "start");
        Objects.requireNonNull(end, "end");
        if (end.length > 0 && KeyBounds.compare(start, end) >= 0) {
            throw new IllegalArgumentException("Key range \"" + KeyBounds.hex(start) + "-" + KeyBounds.hex(end)
                    + "\" is empty: the start must be below the end; expected " + EXAMPLES);
        }
        if (start.length == 0 && end.length == 0) {
            return FULL;
        }
        return new KeyRange(start.clone(), end.clone());
    }

    /** The Vitess name: lowercase hex bounds as written, joined by {@code -}; {@code -} for the full range. */
    public String name() {
        return isFullRange() ? "-" : KeyBounds.hex(start) + "-" + KeyBounds.hex(end);
    }

    /** The inclusive start bound as written; empty for the minimum key. */
    public byte[] start() {
        return start.clone();
    }

    /** The exclusive end bound as written; empty for the maximum key. */
    public byte[] end() {
        return end.clone();
    }

    /** True if this range holds every keyspace id ({@code -}, {@code 0}, {@code 00-}, ...). */
    public boolean isFullRange() {
        return startsAtMin() && endsAtMax();
    }

    /** True if {@code keyspaceId} falls in {@code [start, end)}. An empty keyspace id is the minimum key. */
    public boolean contains(byte[] keyspaceId) {
        Objects.requireNonNull(keyspaceId, "keyspaceId");
        return KeyBounds.compare(start, keyspaceId) <= 0 && (endsAtMax() || KeyBounds.compare(keyspaceId, end) < 0);
    }

    /** True if every keyspace id of {@code other} is also in this range. */
    public boolean includes(KeyRange other) {
        return KeyBounds.compare(start, other.start) <= 0 && KeyBounds.compareEnds(other.end, end) <= 0;
    }

    /** True if some keyspace id is in both ranges. */
    public boolean intersects(KeyRange other) {
        return (endsAtMax() || KeyBounds.compare(other.start, end) < 0)
                && (other.endsAtMax() || KeyBounds.compare(start, other.end) < 0);
    }

    /** The keyspace ids in both ranges, or empty if they do not intersect. */
    public Optional<KeyRange> intersection(KeyRange other) {
        if (!intersects(other)) {
            return Optional.empty();
        }
        byte[] s = KeyBounds.compare(start, other.start) >= 0 ? start : other.start;
        byte[] e = KeyBounds.compareEnds(end, other.end) <= 0 ? end : other.end;
        return Optional.of(of(s, e));
    }

    /**
     * The share of all keyspace ids this range holds, from 0 to 1 (by the first 8 bytes of its bounds, as unsigned
     * numbers): {@code -} is 1, {@code -80} 0.5, {@code 40-80} 0.25. With a hashing vindex, about the share of a
     * table's rows that fall in the range.
     */
    public double share() {
        double from = startsAtMin() ? 0 : fraction(start);
        double to = endsAtMax() ? 1 : fraction(end);
        return Math.max(0, to - from);
    }

    private static double fraction(byte[] bound) {
        double v = 0;
        double scale = 1.0 / 256;
        for (int i = 0; i < Math.min(8, bound.length); i++) {
            v += (bound[i] & 0xff) * scale;
            scale /= 256;
        }
        return v;
    }

    boolean startsAtMin() {
        return KeyBounds.isZero(start);
    }

    boolean endsAtMax() {
        return end.length == 0;
    }

    /** Orders by start, then by end (the maximum end last). Consistent with {@link #equals}. */
    @Override
    public int compareTo(KeyRange other) {
        int byStart = KeyBounds.compare(start, other.start);
        return byStart != 0 ? byStart : KeyBounds.compareEnds(end, other.end);
    }

    /** Equal if both ranges hold the same keyspace ids ({@code -80} equals {@code 0000-8000}). */
    @Override
    public boolean equals(Object o) {
        return o instanceof KeyRange && compareTo((KeyRange) o) == 0;
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(KeyBounds.trimmed(start)) + Arrays.hashCode(KeyBounds.trimmed(end));
    }

    /** The {@link #name()}. */
    @Override
    public String toString() {
        return name();
    }

    private static byte[] bound(String input, String which, String hex) {
        for (int i = 0; i < hex.length(); i++) {
            char c = hex.charAt(i);
            if (!(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F')) {
                throw invalid(input, "the " + which + " \"" + hex + "\" is not hexadecimal");
            }
        }
        if (hex.length() % 2 != 0) {
            throw invalid(input, "the " + which + " \"" + hex + "\" has an odd number of hex digits (bounds are whole "
                    + "bytes: \"8\" is written \"80\")");
        }
        return hex.isEmpty() ? NONE : KeyBounds.unhex(hex);
    }

    private static IllegalArgumentException invalid(String input, String why) {
        return new IllegalArgumentException("Invalid key range \"" + input + "\": " + why + "; expected " + EXAMPLES);
    }
}
