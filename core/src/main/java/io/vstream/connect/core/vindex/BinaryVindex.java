package io.vstream.connect.core.vindex;

/**
 * Vitess's {@code binary} vindex: the keyspace id is the value's own bytes (a {@code byte[]} as is, a String as
 * UTF-8, an integer as its decimal text, NULL as no bytes, which falls in the first shard), as Vitess uses
 * {@code sqltypes.Value.ToBytes()}.
 */
final class BinaryVindex implements Vindex {

    static final String NAME = "binary";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public byte[] keyspaceId(Object value) {
        return SqlValueBytes.of(NAME, value);
    }

    @Override
    public String toString() {
        return NAME;
    }
}
