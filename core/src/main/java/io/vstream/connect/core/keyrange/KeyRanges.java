package io.vstream.connect.core.keyrange;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Checks sets of key ranges as a keyspace's shards must form them: covering the whole key space exactly once, and
 * (for a reshard) the target shards covering exactly the space of the source shards. Each check returns the list of
 * problems, each naming the ranges involved; an empty list means the set is sound.
 */
public final class KeyRanges {

    private KeyRanges() {
    }

    /**
     * Parses a comma-separated list of shard names such as {@code "-40,40-80,80-"}; blanks around names are ignored.
     *
     * @throws IllegalArgumentException naming the first malformed entry
     */
    public static List<KeyRange> parseList(String names) {
        if (names == null || names.isBlank()) {
            throw new IllegalArgumentException("Key range list is empty; expected comma-separated shard names such as "
                    + "\"-80,80-\" or \"0\"");
        }
        List<KeyRange> ranges = new ArrayList<>();
        for (String name : names.split(",", -1)) {
            ranges.add(KeyRange.parse(name));
        }
        return List.copyOf(ranges);
    }

    /**
     * The reasons {@code ranges} do not cover the whole key space exactly once: a missing start or end, a gap between
     * two ranges, an overlap between two ranges, a duplicate. Empty if they tile the key space.
     */
    public static List<String> fullCoverageProblems(Collection<KeyRange> ranges) {
        List<String> problems = new ArrayList<>();
        if (ranges.isEmpty()) {
            problems.add("no key ranges: the shards must cover the whole key space, e.g. \"-\" or \"-80\" and \"80-\"");
            return problems;
        }
        List<KeyRange> sorted = ranges.stream().sorted().collect(Collectors.toList());
        KeyRange first = sorted.get(0);
        if (!first.startsAtMin()) {
            problems.add("missing start: no range covers keyspace ids below " + KeyBounds.hex(first.start())
                    + " (the first range is " + first + ")");
        }
        KeyRange reach = first; // the range seen so far whose end reaches furthest
        for (KeyRange next : sorted.subList(1, sorted.size())) {
            if (next.equals(reach)) {
                problems.add("duplicate range " + reach
                        + (reach.name().equals(next.name()) ? "" : " (also listed as " + next + ")"));
            } else if (reach.intersects(next)) {
                problems.add("overlap between " + reach + " and " + next + ": both cover "
                        + reach.intersection(next).orElseThrow());
            } else if (KeyBounds.compare(next.start(), reach.end()) > 0) {
                problems.add("gap between " + reach + " and " + next + ": no range covers "
                        + KeyRange.of(reach.end(), next.start()));
            }
            if (KeyBounds.compareEnds(next.end(), reach.end()) > 0) {
                reach = next;
            }
        }
        if (!reach.endsAtMax()) {
            problems.add("missing end: no range covers keyspace ids from " + KeyBounds.hex(reach.end())
                    + " upward (the last range is " + reach + ")");
        }
        return problems;
    }

    /**
     * The parts of the key space that one set covers and the other does not, for a reshard preflight: the target
     * shards must cover exactly the space of the source shards. Overlaps within one set are not reported here; run
     * {@link #fullCoverageProblems} on each set for those.
     *
     * @param labelA what the first set is, for messages (e.g. {@code "source shards"})
     * @param labelB what the second set is, for messages (e.g. {@code "target shards"})
     */
    public static List<String> sameSpaceProblems(String labelA, Collection<KeyRange> a, String labelB,
                                                 Collection<KeyRange> b) {
        TreeSet<byte[]> points = new TreeSet<>(KeyBounds::compare);
        points.add(new byte[0]);
        for (Collection<KeyRange> set : List.of(a, b)) {
            for (KeyRange range : set) {
                points.add(range.start());
                if (!range.endsAtMax()) {
                    points.add(range.end());
                }
            }
        }
        List<String> problems = new ArrayList<>();
        List<byte[]> sortedPoints = new ArrayList<>(points);
        int i = 0;
        while (i < sortedPoints.size()) {
            byte[] from = sortedPoints.get(i);
            boolean inA = coversPoint(a, from);
            boolean inB = coversPoint(b, from);
            int j = i + 1; // extend over following segments with the same mismatch
            while (inA != inB && j < sortedPoints.size() && coversPoint(a, sortedPoints.get(j)) == inA
                    && coversPoint(b, sortedPoints.get(j)) == inB) {
                j++;
            }
            if (inA != inB) {
                KeyRange missing = KeyRange.of(from, j < sortedPoints.size() ? sortedPoints.get(j) : new byte[0]);
                String coveredBy = inA ? labelA : labelB;
                Collection<KeyRange> covering = inA ? a : b;
                problems.add("key range " + missing + " is covered by the " + coveredBy + " ("
                        + overlapping(covering, missing) + ") but not by the " + (inA ? labelB : labelA));
            }
            i = j;
        }
        return problems;
    }

    private static boolean coversPoint(Collection<KeyRange> ranges, byte[] point) {
        return ranges.stream().anyMatch(r -> r.contains(point));
    }

    private static String overlapping(Collection<KeyRange> ranges, KeyRange part) {
        return ranges.stream().filter(r -> r.intersects(part)).sorted().map(KeyRange::name)
                .collect(Collectors.joining(", "));
    }
}
