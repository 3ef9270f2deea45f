package io.vstream.connect.core.keyrange;

import java.util.Arrays;
import java.util.HexFormat;

/**
 * Compares key range bounds and keyspace ids the Vitess way: as unsigned byte strings where the shorter one is
 * padded with zero bytes, so {@code 80}, {@code 8000} and {@code 8000000000000000} are the same point.
 *
 * <p>An empty start is the minimum key; an empty end is the maximum key (past every keyspace id). Callers say which
 * of the two an empty array means; this class only compares non-sentinel bytes.
 */
final class KeyBounds {

    private static final HexFormat HEX = HexFormat.of();

    private KeyBounds() {
    }

    /** Compares {@code a} and {@code b} as unsigned bytes, the shorter one padded with zero bytes. */
    static int compare(byte[] a, byte[] b) {
        int length = Math.max(a.length, b.length);
        for (int i = 0; i < length; i++) {
            int x = i < a.length ? a[i] & 0xff : 0;
            int y = i < b.length ? b[i] & 0xff : 0;
            if (x != y) {
                return Integer.compare(x, y);
            }
        }
        return 0;
    }

    /** Compares two range ends, where an empty end is the maximum key (greater than every other end). */
    static int compareEnds(byte[] a, byte[] b) {
        if (a.length == 0 || b.length == 0) {
            return Boolean.compare(a.length == 0, b.length == 0);
        }
        return compare(a, b);
    }

    /** True if {@code bound} is all zero bytes (or empty): the minimum key. */
    static boolean isZero(byte[] bound) {
        for (byte b : bound) {
            if (b != 0) {
                return false;
            }
        }
        return true;
    }

    /** {@code bound} without its trailing zero bytes: the same point, in the shortest form (for hashing). */
    static byte[] trimmed(byte[] bound) {
        int end = bound.length;
        while (end > 0 && bound[end - 1] == 0) {
            end--;
        }
        return Arrays.copyOf(bound, end);
    }

    static String hex(byte[] bound) {
        return HEX.formatHex(bound);
    }

    /** Decodes an even-length, case-insensitive hex string; callers have checked the characters. */
    static byte[] unhex(String hex) {
        return HEX.parseHex(hex);
    }
}
