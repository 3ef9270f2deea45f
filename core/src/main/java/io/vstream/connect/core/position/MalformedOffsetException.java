package io.vstream.connect.core.position;

import org.apache.kafka.connect.errors.ConnectException;

/**
 * A stored source offset (or its partition) that cannot be read back as a {@link ShardGtid}. The message names the
 * partition, the offending key, what is wrong with it and how the operator can fix it; {@link #key()} names the key
 * for callers such as {@code alterOffsets()} validation.
 */
public final class MalformedOffsetException extends ConnectException {

    private final String key;

    public MalformedOffsetException(String key, String message, Throwable cause) {
        super(message, cause);
        this.key = key;
    }

    /** The offset or partition key that is missing or malformed, e.g. {@code gtid}. */
    public String key() {
        return key;
    }
}
