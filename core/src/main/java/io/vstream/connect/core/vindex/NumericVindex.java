package io.vstream.connect.core.vindex;

import java.nio.ByteBuffer;

/**
 * Vitess's {@code numeric} vindex: the keyspace id is the value as a big-endian 8-byte uint64, so value
 * {@code 0x80 << 56} is the first keyspace id of shard {@code 80-}. Tests use it to place rows on chosen shards.
 * Negative values are refused, as Vitess refuses them.
 */
final class NumericVindex implements Vindex {

    static final String NAME = "numeric";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public byte[] keyspaceId(Object value) {
        return ByteBuffer.allocate(Long.BYTES).putLong(Uint64Values.of(NAME, value, false)).array();
    }

    @Override
    public String toString() {
        return NAME;
    }
}
