package io.vstream.connect.source;

import io.vstream.connect.core.position.Flavor;
import io.vstream.connect.core.sql.SqlIdentifiers;
import io.vstream.connect.core.topology.ShardAddress;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads what a shard's records say about a table beyond its rows: its {@code SHOW CREATE TABLE} for FIELD records and
 * its NOT NULL columns' constant defaults for row schemas. Touches the shard over one JDBC connection of its own, kept
 * open between reads and reopened when lost; used by the shard's streaming thread only. A read that fails is logged at
 * DEBUG and answers nothing: the records then go without it.
 */
final class TableDefinitions implements BinlogEventSequence.Definitions, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(TableDefinitions.class);

    /** Opens a connection to the shard. */
    interface Connections {
        Connection open() throws SQLException;
    }

    private final ShardAddress shard;
    private final Connections connections;
    private final Supplier<Flavor> flavor;
    private Connection metadata;

    TableDefinitions(ShardAddress shard, Connections connections, Supplier<Flavor> flavor) {
        this.shard = shard;
        this.connections = connections;
        this.flavor = flavor;
    }

    /**
     * The table's current {@code SHOW CREATE TABLE}, for consumers that create it elsewhere, with the ENUM and SET
     * members the decoder knows exactly where the text shows them as {@code '?'} ({@link EnumSetMembers}); null if
     * unavailable.
     */
    @Override
    public String createTable(TableDecoder decoder) {
        String database = decoder.table().database();
        String table = decoder.table().table();
        try {
            try (Statement st = connection().createStatement();
                 ResultSet rs = st.executeQuery("/* vstream-connect:source */ SHOW CREATE TABLE "
                         + SqlIdentifiers.qualify(database, table))) {
                return rs.next() ? EnumSetMembers.repair(rs.getString(2), decoder.enumAndSetMembers()) : null;
            }
        } catch (SQLException e) {
            LOG.debug("Shard {}: SHOW CREATE TABLE {} failed: {}", shard.name(), table, e.toString());
            return null;
        }
    }

    /**
     * The table's NOT NULL columns' constant defaults as its definition has them now ({@link ColumnDefaults}); none
     * when they cannot be read (the row schema then has no defaults, as the binlog has none).
     */
    @Override
    public Map<String, String> columnDefaults(String database, String table) {
        try {
            return ColumnDefaults.read(connection(), database, table, flavor.get());
        } catch (SQLException e) {
            LOG.debug("Shard {}: the column defaults of {} are not readable: {}", shard.name(), table, e.toString());
            return Map.of();
        }
    }

    private Connection connection() throws SQLException {
        if (metadata == null || !metadata.isValid(2)) {
            close();
            metadata = connections.open();
        }
        return metadata;
    }

    @Override
    public void close() {
        if (metadata != null) {
            try {
                metadata.close();
            } catch (SQLException e) {
                // gone already
            }
            metadata = null;
        }
    }
}
