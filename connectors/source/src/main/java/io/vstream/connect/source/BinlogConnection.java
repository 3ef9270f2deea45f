package io.vstream.connect.source;

import com.github.shyiko.mysql.binlog.BinaryLogClient;
import com.github.shyiko.mysql.binlog.network.ServerException;
import io.vstream.connect.core.error.ServerErrors;
import io.vstream.connect.core.position.ShardGtid;
import io.vstream.connect.core.topology.ShardAddress;
import java.time.Duration;

/**
 * Sets up one binlog connection to a shard: the replication client configured from the stream's settings (server id,
 * GTID start, the server's heartbeat, TLS, deserializers that decode only the rows the stream reads), and the
 * server's refusals turned into errors that name the fix. Touches the shard's binlog over the replication protocol
 * (the caller connects the client).
 */
final class BinlogConnection {
    private BinlogConnection() {
    }

    /** A blocking client that reads the binlog from {@code from}, asking for a heartbeat after {@code heartbeat}. */
    static BinaryLogClient client(ShardAddress shard, StreamSettings settings, long serverId, ShardGtid from,
                                  Duration heartbeat) {
        BinaryLogClient c = new BinaryLogClient(shard.host(), shard.port(), settings.user(), settings.password());
        c.setServerId(serverId);
        c.setKeepAlive(false);
        c.setBlocking(true);
        c.setConnectTimeout(settings.connectTimeout().toMillis());
        c.setHeartbeatInterval(heartbeat.toMillis());
        c.setGtidSet(from.gtid().serverFormat());
        c.setGtidSetFallbackToPurged(false);
        c.setUseSendAnnotateRowsEvent(false);
        BinlogTls.configure(c, settings.tls());
        c.setEventDeserializer(BinlogDeserializers.create(
                tm -> BinlogEventSequence.streams(settings, tm.getDatabase(), tm.getTable())));
        return c;
    }

    /**
     * A refusal of the server as the stream reports it: fatal with the operator's fix when no retry can help (the
     * binlog needed is purged, the user may not read the binlog), else the refusal itself (retried).
     */
    static Exception classify(ServerException e, ShardAddress shard, ShardGtid committed, String user) {
        if (e.getErrorCode() == ServerErrors.BINLOG_READ_FATAL) {
            return new FatalStreamException("Shard " + shard.name() + " (" + shard.host() + ":"
                    + shard.port() + ") no longer has the binlog needed to resume from " + committed.gtidText()
                    + " (server: " + e.getMessage() + "). The changes since then are lost to this stream: recover by"
                    + " re-copying the shard (delete the connector's offsets and start again; see docs/offsets.md).",
                    e);
        }
        if (e.getErrorCode() == ServerErrors.GLOBAL_PRIVILEGE_DENIED || e.getErrorCode() == ServerErrors.ACCESS_DENIED
                || e.getErrorCode() == ServerErrors.DATABASE_ACCESS_DENIED) {
            return new FatalStreamException("Shard " + shard.name() + ": the user '" + user
                    + "' may not read the binlog (" + e.getMessage() + "). Grant it: GRANT REPLICATION SLAVE,"
                    + " REPLICATION CLIENT ON *.* TO ... (MariaDB 10.5+: also BINLOG MONITOR)", e);
        }
        return e;
    }
}
