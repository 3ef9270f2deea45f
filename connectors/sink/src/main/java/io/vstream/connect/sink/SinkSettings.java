package io.vstream.connect.sink;

import io.vstream.connect.core.sql.TlsSettings;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.errors.ConnectException;

/** What the applier needs of the configuration, resolved once per task. */
record SinkSettings(
        VStreamSinkConnectorConfig.Mode mode,
        String ghostMigration,
        Map<String, String> targets,
        String stream,
        String host,
        int port,
        String user,
        String password,
        Duration connectTimeout,
        boolean binlog,
        String stateDatabase,
        String databaseFormat,
        String tableFormat,
        boolean tableCreate,
        String tableEngine,
        boolean ddlApply,
        int batchMaxRows,
        Duration backoffInitial,
        Duration backoffMax,
        Duration retryMaxDuration,
        String vindex,
        Map<String, String> shardingColumns,
        String shardingColumnDefault,
        TlsSettings tls) {

    static SinkSettings of(VStreamSinkConnectorConfig c, String connectorName) {
        Map<String, String> targets = new LinkedHashMap<>();
        for (String e : c.getList(VStreamSinkConnectorConfig.TARGET_TOPOLOGY)) {
            int eq = e.indexOf('=');
            if (eq > 0) {
                targets.put(e.substring(0, eq).strip(), e.substring(eq + 1).strip());
            }
        }
        return new SinkSettings(c.mode(), c.getString(VStreamSinkConnectorConfig.GHOST_MIGRATION), targets,
                c.streamName(connectorName), c.targetHost(), c.targetPort(), c.targetUser(),
                c.targetPassword().value(), c.connectTimeout(),
                // a ghost table's rows, and a new shard's, must reach the shard's replicas: always binlogged
                c.targetBinlog() == VStreamSinkConnectorConfig.TargetBinlog.ON
                        || c.mode() != VStreamSinkConnectorConfig.Mode.CLONE, c.stateDatabase(),
                c.getString(VStreamSinkConnectorConfig.TARGET_DATABASE_FORMAT),
                c.getString(VStreamSinkConnectorConfig.TARGET_TABLE_FORMAT), c.tableCreate(), c.tableEngine(),
                c.ddlApply(), c.batchMaxRows(), c.retryBackoffInitial(), c.retryBackoffMax(), c.retryMaxDuration(),
                c.reshardVindex(), c.reshardColumns(), c.reshardColumnDefault(), c.targetTls());
    }

    /** The server a topic's shard is applied to: its target.topology entry, else target.host:target.port. */
    SinkSettings forTopic(String topic) {
        if (targets.isEmpty()) {
            return this;
        }
        String shard = topic.substring(topic.lastIndexOf('.') + 1);
        String address = targets.get(shard);
        if (address == null) {
            throw new ConnectException("Topic " + topic + " is of shard '" + shard
                    + "', which target.topology does not list (" + targets.keySet() + ")");
        }
        return at(address);
    }

    /** The settings for one new shard of a reshard (its target.topology entry). */
    SinkSettings forTarget(String shard) {
        String address = targets.get(shard);
        if (address == null) {
            throw new IllegalArgumentException("target.topology lists no shard " + shard);
        }
        return at(address);
    }

    private SinkSettings at(String address) {
        int colon = address.lastIndexOf(':');
        return new SinkSettings(mode, ghostMigration, targets, stream, address.substring(0, colon),
                Integer.parseInt(address.substring(colon + 1)), user, password, connectTimeout, binlog, stateDatabase,
                databaseFormat, tableFormat, tableCreate, tableEngine, ddlApply, batchMaxRows, backoffInitial,
                backoffMax, retryMaxDuration, vindex, shardingColumns, shardingColumnDefault, tls);
    }

    /** The target.topology entries, {@code <shard>=<host>:<port>}. */
    List<String> targetEntries() {
        return targets.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).toList();
    }

    boolean ghost() {
        return mode == VStreamSinkConnectorConfig.Mode.GHOST;
    }

    boolean reshard() {
        return mode == VStreamSinkConnectorConfig.Mode.RESHARD;
    }

    String targetDatabase(String sourceDb, String keyspace) {
        return databaseFormat.replace("${db}", sourceDb).replace("${keyspace}", keyspace);
    }

    String targetTable(String sourceTable) {
        return tableFormat.replace("${table}", sourceTable);
    }

    /** Never shows the password (records print their components). */
    @Override
    public String toString() {
        return "SinkSettings[mode=" + mode + ", stream=" + stream + ", target=" + host + ":" + port + "]";
    }
}
