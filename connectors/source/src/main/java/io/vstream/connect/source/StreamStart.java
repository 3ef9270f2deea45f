package io.vstream.connect.source;

import io.vstream.connect.core.error.ServerErrors;
import io.vstream.connect.core.position.Flavor;
import io.vstream.connect.core.position.GtidPosition;
import io.vstream.connect.core.position.ShardGtid;
import io.vstream.connect.core.position.TableLastPk;
import io.vstream.connect.core.sql.TlsHandshakeException;
import io.vstream.connect.core.topology.ShardAddress;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import org.apache.kafka.connect.errors.ConnectException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where a shard's stream (re)starts, checked before every connection: the server preflight, the server's flavor and
 * charsets, and the position: the stored one (refused when it is of another flavor than the server), or, when none is
 * known yet, the server's current position with the tables to copy first. Touches the shard over one short JDBC
 * connection. Refusals no retry can fix (access denied, a failed TLS handshake, a failed check) are fatal.
 */
final class StreamStart {
    private static final Logger LOG = LoggerFactory.getLogger(StreamStart.class);

    /** The server's flavor and charsets, and the position to stream from. */
    record Resolved(Flavor flavor, Charsets charsets, ShardGtid position) {
    }

    private StreamStart() {
    }

    /**
     * start.mode=migration: the position the migration's coordinator recorded on the shard, once it has; null when
     * the ALTER ran instantly (no copy: the stream starts at the current position).
     */
    private static ShardGtid recordedStart(Connection conn, ShardAddress shard, StreamSettings settings,
                                           ServerPreflight.ServerInfo info, Flavor flavor,
                                           java.util.function.BooleanSupplier running) throws Exception {
        MigrationStart m = settings.migrationStart();
        MigrationStart.Recorded recorded = m.await(conn, shard.name(), settings.retryMaxDuration(), running);
        if (recorded == null) {
            throw new InterruptedException("stopped while waiting for the migration's start position");
        }
        if (recorded.ranInstantly()) {
            LOG.info("Shard {}: migration '{}' ran instantly (no ghost, no copy): starting from the current position",
                    shard.name(), m.migration());
            return null;
        }
        if (recorded.position().flavor() != flavor) {
            throw new FatalStreamException("Shard " + shard.name() + " runs " + info.version() + " but migration "
                    + m.migration() + " recorded a position of another flavor (" + recorded.position() + "): the"
                    + " topology points at the wrong server");
        }
        ShardGtid position = ShardGtid.of(settings.keyspace(), shard.name(), recorded.position());
        LOG.info("Shard {}: starting from {}, where the copy of migration '{}' starts", shard.name(),
                position.gtidText(), m.migration());
        return position;
    }

    /** Checks the shard and resolves where its stream starts, {@code committed} being its position so far (or null). */
    static Resolved resolve(ShardAddress shard, StreamSettings settings, CopySettings copy, ShardGtid committed,
                            TableDefinitions.Connections connections, java.util.function.BooleanSupplier running)
            throws Exception {
        try (Connection conn = connections.open()) {
            ServerPreflight.ServerInfo info = ServerPreflight.check(conn, shard);
            Flavor flavor = info.flavor();
            Charsets charsets = Charsets.load(conn, flavor);
            ShardGtid position = committed;
            ShardGtid recorded = committed == null && settings.migrationStart() != null
                    ? recordedStart(conn, shard, settings, info, flavor, running) : null;
            if (recorded != null) {
                position = recorded;
            } else if (committed == null || committed.isCurrent()) {
                List<TableLastPk> tables = committed != null ? committed.tablePks()
                        : copy.copyOnStart() ? CopyPhase.plan(conn, shard, settings, copy, flavor) : List.of();
                GtidPosition now = GtidPosition.parse(flavor, ServerPreflight.currentPosition(conn, flavor));
                position = ShardGtid.of(settings.keyspace(), shard.name(), now, tables);
                LOG.info("Shard {}: starting from the current position {}{}", shard.name(), position.gtidText(),
                        tables.isEmpty() ? "" : ", copying " + tables.size() + " table(s) first");
            } else if (committed.gtid().flavor() != flavor) {
                throw new FatalStreamException("Shard " + shard.name() + " runs " + info.version()
                        + " but its stored position " + committed.gtidText() + " is of another flavor; the topology"
                        + " points at the wrong server, or the offsets belong to another keyspace");
            }
            return new Resolved(flavor, charsets, position);
        } catch (SQLException e) {
            if (e.getErrorCode() == ServerErrors.ACCESS_DENIED || e instanceof TlsHandshakeException) {
                // no retry gets another password or certificate
                throw new FatalStreamException(e.getMessage(), e);
            }
            throw e;
        } catch (TableInspector.UncopyableTableException e) {
            throw e;
        } catch (ConnectException e) {
            throw new FatalStreamException(e.getMessage(), e);
        }
    }
}
