package io.vstream.connect.testsupport.db;

import java.security.SecureRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Hands out {@code server_id} values that are distinct within this JVM and, through a random base, almost
 * surely distinct from those of other test JVMs running at the same time. Use it for every {@code mariadbd}
 * and for every binlog client (a streamer with a duplicate id kicks the other one off). Touches no server.
 */
public final class ServerIds {

    private static final long BASE = 10_000L + new SecureRandom().nextInt(2_000_000_000);
    private static final AtomicLong NEXT = new AtomicLong();

    private ServerIds() {
    }

    /** A fresh id in {@code [10_001, 2_010_000_000]} never returned before by this JVM. */
    public static long next() {
        return BASE + NEXT.incrementAndGet();
    }
}
