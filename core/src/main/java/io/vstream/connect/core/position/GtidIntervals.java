package io.vstream.connect.core.position;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.StringJoiner;

/**
 * The transaction numbers of one MySQL source uuid as sorted, disjoint, non-adjacent closed intervals
 * (e.g. {@code 1-42:50-60}). Every constructor normalizes, so equal sets are equal values. Immutable.
 */
final class GtidIntervals {

    static final GtidIntervals EMPTY = new GtidIntervals(new long[0]);

    /** start0, end0, start1, end1, ... */
    private final long[] bounds;

    private GtidIntervals(long[] bounds) {
        this.bounds = bounds;
    }

    /** The interval {@code start-end}; callers have checked {@code 1 <= start <= end}. */
    static GtidIntervals of(long start, long end) {
        return new GtidIntervals(new long[] {start, end});
    }

    boolean isEmpty() {
        return bounds.length == 0;
    }

    /** This set plus transaction {@code n}. */
    GtidIntervals add(long n) {
        return union(of(n, n));
    }

    /** The union of both sets, overlapping and adjacent intervals merged. */
    GtidIntervals union(GtidIntervals other) {
        List<long[]> all = new ArrayList<>();
        for (GtidIntervals set : List.of(this, other)) {
            for (int i = 0; i < set.bounds.length; i += 2) {
                all.add(new long[] {set.bounds[i], set.bounds[i + 1]});
            }
        }
        all.sort(Comparator.comparingLong(interval -> interval[0]));
        long[] merged = new long[all.size() * 2];
        int n = 0;
        for (long[] interval : all) {
            // start - 1 cannot overflow: transaction numbers start at 1
            if (n > 0 && interval[0] - 1 <= merged[n - 1]) {
                merged[n - 1] = Math.max(merged[n - 1], interval[1]);
            } else {
                merged[n++] = interval[0];
                merged[n++] = interval[1];
            }
        }
        return new GtidIntervals(Arrays.copyOf(merged, n));
    }

    /** True if every transaction of {@code other} is in this set. */
    boolean containsAll(GtidIntervals other) {
        int mine = 0;
        for (int i = 0; i < other.bounds.length; i += 2) {
            long start = other.bounds[i];
            long end = other.bounds[i + 1];
            while (mine < bounds.length && bounds[mine + 1] < start) {
                mine += 2;
            }
            // intervals are maximal, so a contained interval lies inside a single one of ours
            if (mine >= bounds.length || bounds[mine] > start || bounds[mine + 1] < end) {
                return false;
            }
        }
        return true;
    }

    /** {@code 1-42:50-60}; a single transaction as {@code 5}. */
    String format() {
        StringJoiner joiner = new StringJoiner(":");
        for (int i = 0; i < bounds.length; i += 2) {
            joiner.add(bounds[i] == bounds[i + 1] ? Long.toString(bounds[i]) : bounds[i] + "-" + bounds[i + 1]);
        }
        return joiner.toString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof GtidIntervals other && Arrays.equals(bounds, other.bounds);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(bounds);
    }

    @Override
    public String toString() {
        return format();
    }
}
