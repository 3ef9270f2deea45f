package io.vstream.connect.core.position;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Where the stream of one shard is: keyspace, shard, GTID position and, while a copy is in progress, the lastPK of
 * each table still being copied (in copy order). One entry of a {@link Vgtid}, and what a source offset stores.
 *
 * <p>The position is either a {@link GtidPosition} or the marker {@value #CURRENT} (as in Vitess): "start from the
 * server's position at the time the stream starts". With table lastPKs and {@code current}, the copy takes its own
 * snapshot position, then streams from there. Immutable.
 */
public final class ShardGtid {

    /** The Vitess marker for "start from now" in place of a GTID position. */
    public static final String CURRENT = "current";

    private final String keyspace;
    private final String shard;
    private final GtidPosition gtid;
    private final List<TableLastPk> tablePks;

    private ShardGtid(String keyspace, String shard, GtidPosition gtid, List<TableLastPk> tablePks) {
        this.keyspace = requireName(keyspace, "keyspace");
        this.shard = requireName(shard, "shard");
        this.gtid = gtid;
        this.tablePks = List.copyOf(tablePks);
        Set<String> seen = new HashSet<>();
        for (TableLastPk pk : this.tablePks) {
            if (!seen.add(pk.table())) {
                throw new IllegalArgumentException("Table '" + pk.table() + "' appears twice in the copy state of "
                        + keyspace + "/" + shard);
            }
        }
    }

    /** A shard streaming from {@code gtid}, not copying. */
    public static ShardGtid of(String keyspace, String shard, GtidPosition gtid) {
        return new ShardGtid(keyspace, shard, Objects.requireNonNull(gtid, "gtid"), List.of());
    }

    /** A shard at {@code gtid}, copying {@code tablePks} (in copy order; empty when not copying). */
    public static ShardGtid of(String keyspace, String shard, GtidPosition gtid, List<TableLastPk> tablePks) {
        return new ShardGtid(keyspace, shard, Objects.requireNonNull(gtid, "gtid"), tablePks);
    }

    /** A shard that starts from the server's current position ({@value #CURRENT}), not copying. */
    public static ShardGtid current(String keyspace, String shard) {
        return new ShardGtid(keyspace, shard, null, List.of());
    }

    /** A shard that first copies {@code tablePks} from a snapshot taken when it starts, then streams from there. */
    public static ShardGtid current(String keyspace, String shard, List<TableLastPk> tablePks) {
        return new ShardGtid(keyspace, shard, null, tablePks);
    }

    public String keyspace() {
        return keyspace;
    }

    public String shard() {
        return shard;
    }

    /** True if this shard starts from the server's current position rather than a known GTID position. */
    public boolean isCurrent() {
        return gtid == null;
    }

    /**
     * The GTID position.
     *
     * @throws IllegalStateException if {@link #isCurrent()}: the position is not known until the stream starts
     */
    public GtidPosition gtid() {
        if (gtid == null) {
            throw new IllegalStateException("Shard " + keyspace + "/" + shard + " starts from the current position; "
                    + "it has no GTID position yet (check isCurrent() first)");
        }
        return gtid;
    }

    /** The position as Vitess writes it in a VGTID: {@value #CURRENT} or e.g. {@code MariaDB/0-1-42}. */
    public String gtidText() {
        return gtid == null ? CURRENT : gtid.format();
    }

    /** The tables still being copied, in copy order, each with its lastPK (null: not started). */
    public List<TableLastPk> tablePks() {
        return tablePks;
    }

    /** True while a copy is in progress: at least one table still has to be (fully) copied. */
    public boolean isCopying() {
        return !tablePks.isEmpty();
    }

    /** This shard at {@code gtid}, copy state unchanged. */
    public ShardGtid withGtid(GtidPosition gtid) {
        return new ShardGtid(keyspace, shard, Objects.requireNonNull(gtid, "gtid"), tablePks);
    }

    /** This shard with {@code tablePk} replacing the entry of its table, or appended if the table has none. */
    public ShardGtid withTablePk(TableLastPk tablePk) {
        Objects.requireNonNull(tablePk, "tablePk");
        List<TableLastPk> next = new ArrayList<>(tablePks);
        int index = indexOf(tablePk.table());
        if (index < 0) {
            next.add(tablePk);
        } else {
            next.set(index, tablePk);
        }
        return new ShardGtid(keyspace, shard, gtid, next);
    }

    /** This shard without {@code table} in its copy state (its copy is complete); unchanged if absent. */
    public ShardGtid withoutTablePk(String table) {
        int index = indexOf(table);
        if (index < 0) {
            return this;
        }
        List<TableLastPk> next = new ArrayList<>(tablePks);
        next.remove(index);
        return new ShardGtid(keyspace, shard, gtid, next);
    }

    /** This shard with its whole copy state replaced (empty: not copying). */
    public ShardGtid withTablePks(List<TableLastPk> tablePks) {
        return new ShardGtid(keyspace, shard, gtid, tablePks);
    }

    /** True if this entry is for {@code keyspace}/{@code shard}. */
    public boolean isFor(String keyspace, String shard) {
        return this.keyspace.equals(keyspace) && this.shard.equals(shard);
    }

    private int indexOf(String table) {
        for (int i = 0; i < tablePks.size(); i++) {
            if (tablePks.get(i).table().equals(table)) {
                return i;
            }
        }
        return -1;
    }

    private static String requireName(String value, String what) {
        Objects.requireNonNull(value, what);
        if (value.isBlank()) {
            throw new IllegalArgumentException("A " + what + " name in a VGTID must not be blank");
        }
        return value;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ShardGtid other && keyspace.equals(other.keyspace) && shard.equals(other.shard)
                && Objects.equals(gtid, other.gtid) && tablePks.equals(other.tablePks);
    }

    @Override
    public int hashCode() {
        return Objects.hash(keyspace, shard, gtid, tablePks);
    }

    /** E.g. {@code ShardGtid[ks/-80 @ MariaDB/0-1-42, copying [TableLastPk[table=t, lastPk=LastPk[id=Long]]]]}. */
    @Override
    public String toString() {
        return "ShardGtid[" + keyspace + "/" + shard + " @ " + gtidText()
                + (tablePks.isEmpty() ? "" : ", copying " + tablePks) + "]";
    }
}
