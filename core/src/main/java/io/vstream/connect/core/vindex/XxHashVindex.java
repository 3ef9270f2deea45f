package io.vstream.connect.core.vindex;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import net.openhft.hashing.LongHashFunction;

/**
 * Vitess's {@code xxhash} vindex: XXH64 (seed 0) of the value's MySQL text-protocol bytes (see
 * {@link SqlValueBytes}: decimal text for integers, so {@code 1L} hashes the byte {@code '1'}), the 64-bit hash
 * written <em>little-endian</em> as the 8-byte keyspace id, as Vitess's {@code vXXHash} does
 * ({@code binary.LittleEndian.PutUint64}). NULL hashes the empty input, as in Vitess.
 */
final class XxHashVindex implements Vindex {

    static final String NAME = "xxhash";

    private static final LongHashFunction XXH64 = LongHashFunction.xx(0);

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public byte[] keyspaceId(Object value) {
        long hash = XXH64.hashBytes(SqlValueBytes.of(NAME, value));
        return ByteBuffer.allocate(Long.BYTES).order(ByteOrder.LITTLE_ENDIAN).putLong(hash).array();
    }

    @Override
    public String toString() {
        return NAME;
    }
}
