package io.vstream.connect.source;

import io.vstream.connect.core.sql.TlsSettings;
import io.vstream.connect.jdbc.ReplicaLag;
import io.vstream.connect.core.topology.ShardAddress;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Holds the copy back while a configured replica lags: measures each replica's lag ({@code SHOW SLAVE STATUS} /
 * {@code SHOW REPLICA STATUS}) and decides, separately, whether to wait, always with the reason (gh-ost's split of
 * measuring from deciding). An unreachable replica or one whose replication is stopped counts as lagging.
 */
final class ReplicaLagThrottler {
    private static final Logger LOG = LoggerFactory.getLogger(ReplicaLagThrottler.class);

    private final List<ShardAddress> replicas;
    private final Duration maxLag;
    private final String user;
    private final String password;
    private final String shard;
    private final TlsSettings tls;

    ReplicaLagThrottler(String shard, List<ShardAddress> replicas, Duration maxLag, String user, String password,
                        TlsSettings tls) {
        this.shard = shard;
        this.tls = tls;
        this.replicas = replicas;
        this.maxLag = maxLag;
        this.user = user;
        this.password = password;
    }

    /** Why the copy should wait now, or {@code null} to go on. */
    String reason() {
        for (ShardAddress r : replicas) {
            String why = ReplicaLag.reason(r.host() + ":" + r.port(), measure(r), maxLag);
            if (why != null) {
                return why;
            }
        }
        return null;
    }

    /**
     * Waits while {@link #reason()} says so, logging each new reason and calling {@code whileWaiting} (the stream's
     * heartbeat) between checks; returns early when {@code running} ends.
     */
    void await(java.util.function.BooleanSupplier running, Runnable whileWaiting) throws InterruptedException {
        if (replicas.isEmpty()) {
            return;
        }
        String last = null;
        String why;
        while (running.getAsBoolean() && (why = reason()) != null) {
            if (!why.equals(last)) {
                LOG.info("Shard {}: copy throttled: {}", shard, why);
                last = why;
            }
            whileWaiting.run();
            Thread.sleep(500);
        }
    }

    private Long measure(ShardAddress replica) {
        try (Connection c = ShardConnections.open(replica, user, password, 5000, tls)) {
            return ReplicaLag.secondsBehind(c);
        } catch (SQLException e) {
            return null;
        }
    }
}
