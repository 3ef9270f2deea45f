package io.vstream.connect.core.vindex;

import java.util.List;
import java.util.Locale;

/** Looks up a {@link Vindex} by its Vitess type name: {@code hash}, {@code xxhash}, {@code binary}, {@code numeric}. */
public final class Vindexes {

    private static final List<Vindex> ALL =
            List.of(new HashVindex(), new XxHashVindex(), new BinaryVindex(), new NumericVindex());

    private Vindexes() {
    }

    /**
     * The vindex named {@code name} (case-insensitive, surrounding blanks ignored).
     *
     * @throws IllegalArgumentException listing the valid names if there is no such vindex
     */
    public static Vindex named(String name) {
        String wanted = name == null ? "" : name.strip().toLowerCase(Locale.ROOT);
        for (Vindex vindex : ALL) {
            if (vindex.name().equals(wanted)) {
                return vindex;
            }
        }
        throw new IllegalArgumentException("Unknown vindex \"" + name + "\"; valid vindexes are " + names());
    }

    /** The names {@link #named} accepts, in a stable order. */
    /**
     * The keyspace id of a sharding column's value as a driver or Connect reads it: a boolean ({@code TINYINT(1)}) is
     * the number it stores. Throws {@link IllegalArgumentException} as {@link Vindex#keyspaceId} does.
     */
    public static byte[] keyspaceIdOfColumn(Vindex vindex, Object value) {
        return vindex.keyspaceId(value instanceof Boolean b ? (b ? 1 : 0) : value);
    }

    public static List<String> names() {
        return ALL.stream().map(Vindex::name).toList();
    }
}
