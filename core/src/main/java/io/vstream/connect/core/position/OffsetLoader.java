package io.vstream.connect.core.position;

import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Reads the keys of one stored source partition and offset, turning anything missing or of the wrong type into a
 * {@link MalformedOffsetException} that names the partition and the key and tells the operator how to fix it.
 */
final class OffsetLoader {

    static final String FIX = "; fix: stop the connector, then delete its offsets (DELETE /connectors/<name>/offsets)"
            + " to start every shard over, or write a valid offset for this partition (PATCH /connectors/<name>/offsets),"
            + " e.g. {\"v\":1,\"gtid\":\"MariaDB/0-1-42\"}";

    private final Map<String, ?> partition;
    private final Map<String, ?> offset;

    OffsetLoader(Map<String, ?> partition, Map<String, ?> offset) {
        this.partition = partition;
        this.offset = offset;
    }

    /** A required string key of the partition. */
    String partitionString(String key) {
        Object value = partition.get(key);
        if (!(value instanceof String s) || s.isBlank()) {
            String problem = value == null ? "is missing" : "must be a non-blank string, found " + describe(value);
            throw new MalformedOffsetException(key, "Source partition " + render(partition) + " is malformed: key '"
                    + key + "' " + problem + FIX, null);
        }
        return s;
    }

    /** A required string key of the offset. */
    String string(String key) {
        return optionalString(key).orElseThrow(() -> malformed(key, "is missing", null));
    }

    /** An optional string key of the offset; absent or null means empty. */
    Optional<String> optionalString(String key) {
        Object value = offset.get(key);
        if (value == null) {
            return Optional.empty();
        }
        if (!(value instanceof String s)) {
            throw malformed(key, "must be a string, found " + describe(value), null);
        }
        return Optional.of(s);
    }

    /** A required integral key of the offset (Connect reads JSON integers back as Long; Integer is fine too). */
    long integer(String key) {
        Object value = offset.get(key);
        if (value == null) {
            throw malformed(key, "is missing", null);
        }
        if (!(value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte)) {
            throw malformed(key, "must be an integer, found " + describe(value), null);
        }
        return ((Number) value).longValue();
    }

    MalformedOffsetException malformed(String key, String problem, Throwable cause) {
        return new MalformedOffsetException(key, "Source offset for partition " + render(partition)
                + " is malformed: key '" + key + "' " + problem + FIX, cause);
    }

    private static String render(Map<String, ?> map) {
        try {
            return new TreeMap<>(map).toString();
        } catch (RuntimeException e) {
            return String.valueOf(map);
        }
    }

    /** The value's type only: an offset may hold key values, which must not reach logs. */
    private static String describe(Object value) {
        return "a " + value.getClass().getSimpleName();
    }
}
