package io.vstream.connect.core.vindex;

/**
 * Maps a sharding column's value to its keyspace id, the bytes a {@link io.vstream.connect.core.keyrange.KeyRange}
 * places on a shard. Implementations are stateless and thread-safe, and compute what the Vitess vindex of the same
 * name computes, so key ranges mean the same here as in a Vitess keyspace.
 */
public interface Vindex {

    /** The vindex type name as Vitess spells it, e.g. {@code hash}. */
    String name();

    /**
     * The keyspace id of {@code value}, a Connect-side Java value of the sharding column.
     *
     * @throws IllegalArgumentException if this vindex cannot map the value (its type or range), naming why
     */
    byte[] keyspaceId(Object value);
}
