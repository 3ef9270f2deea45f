package io.vstream.connect.jdbc;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

/**
 * How far a replica lags and whether that should hold a copy back, for every component that throttles a copy on a
 * replica's lag (the source's copy phase, the coordinator's server copy): measuring ({@code SHOW SLAVE STATUS},
 * {@code Seconds_Behind_Master}) kept apart from deciding, and the decision always with its reason. A replica that
 * cannot be reached, or whose replication is stopped, counts as lagging.
 */
public final class ReplicaLag {
    private ReplicaLag() {
    }

    /** The replica's lag in seconds, or null when it does not replicate (no status, or SQL thread stopped). */
    public static Long secondsBehind(Connection replica) throws SQLException {
        try (Statement st = replica.createStatement(); ResultSet rs = st.executeQuery("SHOW SLAVE STATUS")) {
            if (!rs.next()) {
                return null;
            }
            long lag = rs.getLong("Seconds_Behind_Master");
            return rs.wasNull() ? null : lag;
        }
    }

    /**
     * Why a copy should wait for the replica at {@code address} that lags {@code lagSeconds} (null: unreachable or
     * not replicating), or null when it lags no more than {@code max}.
     */
    public static String reason(String address, Long lagSeconds, Duration max) {
        if (lagSeconds == null) {
            return "replica " + address + " is unreachable or not replicating";
        }
        if (lagSeconds * 1000 > max.toMillis()) {
            return "replica " + address + " lags " + lagSeconds + " s (max " + max.toMillis() + " ms)";
        }
        return null;
    }
}
