package io.vstream.connect.core.position;

import java.util.Objects;

/**
 * One MariaDB GTID, {@code domain-server-sequence} (e.g. {@code 0-1-42}): the {@code sequence}-th transaction of
 * replication domain {@code domain}, written by server {@code server}. Domain and server are unsigned 32-bit, the
 * sequence unsigned 64-bit (held in a long; compare with {@link Long#compareUnsigned}). Only the sequence orders
 * GTIDs of one domain; the server id does not.
 */
public record MariadbGtid(long domain, long server, long sequence) {

    private static final long UINT32_MASK = 0xFFFF_FFFFL;

    public MariadbGtid {
        if ((domain & ~UINT32_MASK) != 0 || (server & ~UINT32_MASK) != 0) {
            throw new IllegalArgumentException(
                    "MariaDB GTID domain and server id are unsigned 32-bit numbers, got " + domain + "-" + server);
        }
    }

    /** Parses {@code domain-server-sequence}, e.g. {@code 0-1-43}, as the binlog client reports a GTID event. */
    public static MariadbGtid parse(String gtid) {
        Objects.requireNonNull(gtid, "gtid");
        return parse(gtid.strip(), new ParseContext("MariaDB GTID", gtid, "0-1-43"));
    }

    static MariadbGtid parse(String entry, ParseContext ctx) {
        String[] parts = entry.split("-", -1);
        if (entry.startsWith("-") || entry.contains("--")) {
            throw ctx.fail("entry '" + entry + "' has an empty or negative number; domain, server and sequence are unsigned");
        }
        if (parts.length != 3) {
            throw ctx.fail("entry '" + entry + "' must be domain-server-sequence");
        }
        long domain = ctx.unsigned(parts[0], "domain", entry, ParseContext.UINT32_MAX);
        long server = ctx.unsigned(parts[1], "server id", entry, ParseContext.UINT32_MAX);
        long sequence = ctx.unsigned(parts[2], "sequence", entry, ParseContext.UINT64_MAX);
        return new MariadbGtid(domain, server, sequence);
    }

    /** True if this GTID is at or past {@code other} in the same domain (server ids are ignored). */
    boolean atOrPast(MariadbGtid other) {
        return domain == other.domain && Long.compareUnsigned(sequence, other.sequence) >= 0;
    }

    /** {@code domain-server-sequence}, e.g. {@code 0-1-42}. */
    @Override
    public String toString() {
        return domain + "-" + server + "-" + Long.toUnsignedString(sequence);
    }
}
