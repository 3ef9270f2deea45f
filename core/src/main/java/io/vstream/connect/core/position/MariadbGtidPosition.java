package io.vstream.connect.core.position;

import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import java.util.StringJoiner;
import java.util.TreeMap;

/**
 * A MariaDB GTID position: at most one {@link MariadbGtid} per replication domain, e.g. {@code MariaDB/0-1-42,1-2-7}.
 * Canonical form lists domains in ascending order. Immutable.
 */
public final class MariadbGtidPosition implements GtidPosition {

    private static final MariadbGtidPosition EMPTY = new MariadbGtidPosition(new TreeMap<>());

    private final SortedMap<Long, MariadbGtid> byDomain;

    private MariadbGtidPosition(TreeMap<Long, MariadbGtid> byDomain) {
        this.byDomain = Collections.unmodifiableSortedMap(byDomain);
    }

    /** The empty position, {@code MariaDB/}. */
    public static MariadbGtidPosition empty() {
        return EMPTY;
    }

    /**
     * The position holding {@code gtids}, one per domain.
     *
     * @throws IllegalArgumentException if two GTIDs share a domain
     */
    public static MariadbGtidPosition of(Collection<MariadbGtid> gtids) {
        TreeMap<Long, MariadbGtid> byDomain = new TreeMap<>();
        for (MariadbGtid gtid : gtids) {
            Objects.requireNonNull(gtid, "gtid");
            MariadbGtid previous = byDomain.put(gtid.domain(), gtid);
            if (previous != null) {
                throw new IllegalArgumentException("MariaDB GTID position has two GTIDs for domain " + gtid.domain()
                        + " (" + previous + " and " + gtid + "); a position holds one GTID per domain");
            }
        }
        return new MariadbGtidPosition(byDomain);
    }

    static MariadbGtidPosition parse(String body, ParseContext ctx) {
        TreeMap<Long, MariadbGtid> byDomain = new TreeMap<>();
        for (String entry : ctx.entries(body)) {
            MariadbGtid gtid = MariadbGtid.parse(entry, ctx);
            MariadbGtid previous = byDomain.put(gtid.domain(), gtid);
            if (previous != null) {
                throw ctx.fail("domain " + gtid.domain() + " appears twice ('" + previous + "' and '" + entry
                        + "'); a position holds one GTID per domain");
            }
        }
        return byDomain.isEmpty() ? EMPTY : new MariadbGtidPosition(byDomain);
    }

    /** The GTIDs of this position, one per domain, in ascending domain order. */
    public List<MariadbGtid> gtids() {
        return List.copyOf(byDomain.values());
    }

    /** The GTID of {@code domain}, if this position has one. */
    public Optional<MariadbGtid> gtid(long domain) {
        return Optional.ofNullable(byDomain.get(domain));
    }

    @Override
    public Flavor flavor() {
        return Flavor.MARIADB;
    }

    @Override
    public String format() {
        return Flavor.MARIADB.prefix() + serverFormat();
    }

    @Override
    public String serverFormat() {
        StringJoiner joiner = new StringJoiner(",");
        byDomain.values().forEach(gtid -> joiner.add(gtid.toString()));
        return joiner.toString();
    }

    @Override
    public boolean isEmpty() {
        return byDomain.isEmpty();
    }

    @Override
    public boolean contains(GtidPosition other) {
        PositionSupport.requireSameFlavor(this, other);
        for (MariadbGtid wanted : ((MariadbGtidPosition) other).byDomain.values()) {
            MariadbGtid mine = byDomain.get(wanted.domain());
            if (mine == null || !mine.atOrPast(wanted)) {
                return false;
            }
        }
        return true;
    }

    /** This position with {@code gtid} (e.g. {@code 0-1-43}) replacing its domain's GTID, or added for a new domain. */
    @Override
    public MariadbGtidPosition advance(String gtid) {
        return advance(MariadbGtid.parse(gtid));
    }

    /** This position with {@code gtid} replacing its domain's GTID, or added for a new domain. */
    public MariadbGtidPosition advance(MariadbGtid gtid) {
        TreeMap<Long, MariadbGtid> next = new TreeMap<>(byDomain);
        next.put(gtid.domain(), gtid);
        return new MariadbGtidPosition(next);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof MariadbGtidPosition other && byDomain.equals(other.byDomain);
    }

    @Override
    public int hashCode() {
        return byDomain.hashCode();
    }

    @Override
    public String toString() {
        return format();
    }
}
