package io.vstream.connect.core.position;

import java.util.Objects;

/**
 * A shard's replication position as a flavored GTID set, exactly as Vitess writes it: {@code MariaDB/0-1-42,1-2-7}
 * or {@code MySQL56/3e11fa47-71ca-11e1-9e33-c80aa9429562:1-42:50-60}. Values are immutable and canonical: two
 * positions that denote the same set are equal and {@link #format() format} the same way.
 *
 * <p>{@link #format()} is the Vitess form kept in offsets and VGTIDs; {@link #serverFormat()} is the same set
 * without the prefix, as the server reads and writes it ({@code @@gtid_binlog_pos}, {@code gtid_slave_pos},
 * {@code @@gtid_executed}, {@code gtid_purged}, the binlog client's {@code setGtidSet}).
 */
public sealed interface GtidPosition permits MariadbGtidPosition, Mysql56GtidPosition {

    /**
     * Parses a position in Vitess form, flavor prefix required, e.g. {@code MariaDB/0-1-42} or
     * {@code MySQL56/3e11fa47-71ca-11e1-9e33-c80aa9429562:1-42}. {@code MariaDB/} alone is the empty position.
     *
     * @throws MalformedPositionException naming what is wrong, with a valid example
     */
    static GtidPosition parse(String position) {
        Objects.requireNonNull(position, "position");
        ParseContext ctx = new ParseContext("GTID position", position,
                "MariaDB/0-1-42 or MySQL56/" + Mysql56GtidPosition.EXAMPLE);
        String text = position.strip();
        int slash = text.indexOf('/');
        if (slash < 0) {
            throw ctx.fail(text.equals("current")
                    ? "'current' means start-from-now in a VGTID; it is not a GTID position"
                    : "the flavor prefix (MariaDB/ or MySQL56/) is missing");
        }
        String name = text.substring(0, slash);
        Flavor flavor = Flavor.fromVitessName(name).orElseThrow(() -> ctx.fail(unknownFlavor(name)));
        String body = text.substring(slash + 1);
        return switch (flavor) {
            case MARIADB -> MariadbGtidPosition.parse(body,
                    new ParseContext("MariaDB GTID position", position, "MariaDB/0-1-42"));
            case MYSQL56 -> Mysql56GtidPosition.parse(body,
                    new ParseContext("MySQL56 GTID position", position, "MySQL56/" + Mysql56GtidPosition.EXAMPLE));
        };
    }

    /**
     * Parses a GTID set in the server's own format, without prefix: MariaDB's {@code 0-1-42,1-2-7} as read from
     * {@code @@gtid_binlog_pos} or {@code BINLOG_GTID_POS()}, or MySQL's {@code @@gtid_executed} (whitespace and
     * newlines after commas are fine). An empty or blank string is the empty position.
     *
     * @throws MalformedPositionException naming what is wrong, with a valid example
     */
    static GtidPosition parse(Flavor flavor, String serverFormat) {
        Objects.requireNonNull(flavor, "flavor");
        Objects.requireNonNull(serverFormat, "serverFormat");
        if (serverFormat.strip().startsWith(flavor.prefix())) {
            throw new ParseContext(flavor.vitessName() + " GTID position", serverFormat, flavor == Flavor.MARIADB
                    ? "0-1-42,1-2-7" : Mysql56GtidPosition.EXAMPLE).fail("it starts with the Vitess prefix '"
                    + flavor.prefix() + "' but the server format has none (use GtidPosition.parse(String) for the Vitess form)");
        }
        return switch (flavor) {
            case MARIADB -> MariadbGtidPosition.parse(serverFormat,
                    new ParseContext("MariaDB GTID position", serverFormat, "0-1-42,1-2-7"));
            case MYSQL56 -> Mysql56GtidPosition.parse(serverFormat,
                    new ParseContext("MySQL56 GTID position", serverFormat, Mysql56GtidPosition.EXAMPLE));
        };
    }

    /** The empty position of {@code flavor}: {@code MariaDB/} or {@code MySQL56/}. */
    static GtidPosition empty(Flavor flavor) {
        return switch (Objects.requireNonNull(flavor, "flavor")) {
            case MARIADB -> MariadbGtidPosition.empty();
            case MYSQL56 -> Mysql56GtidPosition.empty();
        };
    }

    /** The flavor of this position. */
    Flavor flavor();

    /** The canonical Vitess form, prefix included, e.g. {@code MariaDB/0-1-42,1-2-7}. */
    String format();

    /** The canonical server form, without prefix, e.g. {@code 0-1-42,1-2-7}; empty for the empty position. */
    String serverFormat();

    /** True if this position holds no GTID at all. */
    boolean isEmpty();

    /**
     * True if this position is at or past {@code other}: every transaction in {@code other} is in this one.
     * MariaDB: every domain of {@code other} is present here with a sequence at least as high (server ids do not
     * order). MySQL: this set is a superset of {@code other}.
     *
     * @throws IllegalArgumentException if the flavors differ
     */
    boolean contains(GtidPosition other);

    /**
     * This position after one more transaction: MariaDB {@code 0-1-43} replaces domain 0's GTID; MySQL
     * {@code <uuid>:43} adds transaction 43 to that uuid's intervals.
     *
     * @throws MalformedPositionException if {@code gtid} is not a single GTID of this flavor
     */
    GtidPosition advance(String gtid);

    /** The position's {@link #format() Vitess form}. */
    @Override
    String toString();

    private static String unknownFlavor(String name) {
        if (name.equals("FilePos")) {
            return "FilePos (file:offset) positions are not supported; enable GTIDs on the server "
                    + "(MySQL: gtid_mode=ON) and use a GTID position";
        }
        for (Flavor flavor : Flavor.values()) {
            if (flavor.vitessName().equalsIgnoreCase(name)) {
                return "unknown flavor '" + name + "' (flavor names are case-sensitive: " + flavor.vitessName() + ")";
            }
        }
        return "unknown flavor '" + name + "'; supported flavors are MariaDB and MySQL56";
    }
}
