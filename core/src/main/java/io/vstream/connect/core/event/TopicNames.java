package io.vstream.connect.core.event;

import java.util.regex.Pattern;

/**
 * Derives topic names. Each shard of a keyspace has one ordered log: {@code <prefix>.<keyspace>.<shard>}, e.g.
 * {@code vstream.commerce.-80}. Characters Kafka does not allow in topic names are replaced by {@code _}.
 */
public final class TopicNames {
    private static final Pattern ILLEGAL = Pattern.compile("[^a-zA-Z0-9._-]");

    private TopicNames() {
    }

    /** The topic holding the ordered log of one shard. */
    public static String shardTopic(String prefix, String keyspace, String shard) {
        return sanitize(prefix) + "." + sanitize(keyspace) + "." + sanitize(shard);
    }

    /** The topic of keyspace-level events (the shard list, stream-wide copy completion): {@code <prefix>.<keyspace>}. */
    public static String keyspaceTopic(String prefix, String keyspace) {
        return sanitize(prefix) + "." + sanitize(keyspace);
    }

    /** A topic-name-safe form of a name. */
    public static String sanitize(String name) {
        return ILLEGAL.matcher(name).replaceAll("_");
    }
}
