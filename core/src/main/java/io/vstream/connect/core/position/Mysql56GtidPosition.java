package io.vstream.connect.core.position;

import java.util.Collections;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SortedMap;
import java.util.StringJoiner;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * A MySQL 5.6+/8 GTID set: per source server uuid, the intervals of its executed transactions, e.g.
 * {@code MySQL56/3e11fa47-71ca-11e1-9e33-c80aa9429562:1-42:50-60}. Canonical form: lowercase uuids in ascending
 * order, each with its intervals merged and sorted, a single transaction written alone ({@code uuid:5}). A uuid
 * listed twice in the input is merged, as MySQL does. Immutable.
 */
public final class Mysql56GtidPosition implements GtidPosition {

    static final String EXAMPLE = "3e11fa47-71ca-11e1-9e33-c80aa9429562:1-42";

    private static final Pattern UUID = Pattern.compile(
            "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");
    private static final Pattern TAG = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,31}");
    private static final Mysql56GtidPosition EMPTY = new Mysql56GtidPosition(new TreeMap<>());

    private final SortedMap<String, GtidIntervals> byUuid;

    private Mysql56GtidPosition(TreeMap<String, GtidIntervals> byUuid) {
        this.byUuid = Collections.unmodifiableSortedMap(byUuid);
    }

    /** The empty set, {@code MySQL56/}. */
    public static Mysql56GtidPosition empty() {
        return EMPTY;
    }

    static Mysql56GtidPosition parse(String body, ParseContext ctx) {
        TreeMap<String, GtidIntervals> byUuid = new TreeMap<>();
        for (String entry : ctx.entries(body)) {
            String[] parts = entry.split(":", -1);
            String uuid = uuid(parts[0].strip(), entry, ctx);
            if (parts.length < 2) {
                throw ctx.fail("entry '" + entry + "' has no transactions; it must be uuid:interval[:interval...]");
            }
            if (parts.length > 2 && TAG.matcher(parts[1].strip()).matches()) {
                throw ctx.fail("entry '" + entry + "' has tag '" + parts[1].strip()
                        + "'; tagged GTIDs (MySQL 8.4) are not supported");
            }
            GtidIntervals intervals = GtidIntervals.EMPTY;
            for (int i = 1; i < parts.length; i++) {
                intervals = intervals.union(interval(parts[i].strip(), entry, ctx));
            }
            byUuid.merge(uuid, intervals, GtidIntervals::union);
        }
        return byUuid.isEmpty() ? EMPTY : new Mysql56GtidPosition(byUuid);
    }

    private static String uuid(String text, String entry, ParseContext ctx) {
        if (!UUID.matcher(text).matches()) {
            throw ctx.fail("entry '" + entry + "' has '" + text + "' where a server uuid "
                    + "(8-4-4-4-12 hexadecimal digits) belongs");
        }
        return text.toLowerCase(Locale.ROOT);
    }

    private static GtidIntervals interval(String text, String entry, ParseContext ctx) {
        if (text.isEmpty()) {
            throw ctx.fail("entry '" + entry + "' has an empty interval");
        }
        if (text.startsWith("-") || text.contains("--")) {
            throw ctx.fail("entry '" + entry + "' has interval '" + text + "' with a negative or empty number; "
                    + "transaction numbers start at 1");
        }
        String[] ends = text.split("-", -1);
        if (ends.length > 2) {
            throw ctx.fail("entry '" + entry + "' has interval '" + text + "', which must be N or N-M");
        }
        long start = transaction(ends[0], "interval start", entry, ctx);
        long end = ends.length == 1 ? start : transaction(ends[1], "interval end", entry, ctx);
        if (end < start) {
            throw ctx.fail("entry '" + entry + "' has interval '" + text + "', which ends before it starts");
        }
        return GtidIntervals.of(start, end);
    }

    private static long transaction(String token, String name, String entry, ParseContext ctx) {
        long n = ctx.unsigned(token, name, entry, ParseContext.INT64_MAX);
        if (n == 0) {
            throw ctx.fail("entry '" + entry + "' has " + name + " 0; transaction numbers start at 1");
        }
        return n;
    }

    /** The source server uuids of this set, lowercase, ascending. */
    public Set<String> uuids() {
        return byUuid.keySet();
    }

    @Override
    public Flavor flavor() {
        return Flavor.MYSQL56;
    }

    @Override
    public String format() {
        return Flavor.MYSQL56.prefix() + serverFormat();
    }

    @Override
    public String serverFormat() {
        StringJoiner joiner = new StringJoiner(",");
        for (Map.Entry<String, GtidIntervals> e : byUuid.entrySet()) {
            joiner.add(e.getKey() + ":" + e.getValue().format());
        }
        return joiner.toString();
    }

    @Override
    public boolean isEmpty() {
        return byUuid.isEmpty();
    }

    @Override
    public boolean contains(GtidPosition other) {
        PositionSupport.requireSameFlavor(this, other);
        for (Map.Entry<String, GtidIntervals> wanted : ((Mysql56GtidPosition) other).byUuid.entrySet()) {
            GtidIntervals mine = byUuid.get(wanted.getKey());
            if (mine == null || !mine.containsAll(wanted.getValue())) {
                return false;
            }
        }
        return true;
    }

    /** This set plus one transaction, {@code <uuid>:<n>} as the binlog client reports a GTID event. */
    @Override
    public Mysql56GtidPosition advance(String gtid) {
        Objects.requireNonNull(gtid, "gtid");
        ParseContext ctx = new ParseContext("MySQL56 GTID", gtid, "3e11fa47-71ca-11e1-9e33-c80aa9429562:43");
        String entry = gtid.strip();
        String[] parts = entry.split(":", -1);
        if (parts.length != 2) {
            throw ctx.fail("a GTID must be uuid:transaction" + (parts.length > 2 && TAG.matcher(parts[1]).matches()
                    ? " (tagged GTIDs of MySQL 8.4 are not supported)" : ""));
        }
        String uuid = uuid(parts[0], entry, ctx);
        long n = transaction(parts[1], "transaction number", entry, ctx);
        TreeMap<String, GtidIntervals> next = new TreeMap<>(byUuid);
        next.merge(uuid, GtidIntervals.of(n, n), GtidIntervals::union);
        return new Mysql56GtidPosition(next);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Mysql56GtidPosition other && byUuid.equals(other.byUuid);
    }

    @Override
    public int hashCode() {
        return byUuid.hashCode();
    }

    @Override
    public String toString() {
        return format();
    }
}
