package io.vstream.connect.sink;

import java.time.Duration;

/** What the applier needs of the configuration, resolved once per task. */
record SinkSettings(
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
        Duration retryMaxDuration) {

    static SinkSettings of(VStreamSinkConnectorConfig c, String connectorName) {
        return new SinkSettings(c.streamName(connectorName), c.targetHost(), c.targetPort(), c.targetUser(),
                c.targetPassword().value(), c.connectTimeout(),
                c.targetBinlog() == VStreamSinkConnectorConfig.TargetBinlog.ON, c.stateDatabase(),
                c.getString(VStreamSinkConnectorConfig.TARGET_DATABASE_FORMAT),
                c.getString(VStreamSinkConnectorConfig.TARGET_TABLE_FORMAT), c.tableCreate(), c.tableEngine(),
                c.ddlApply(), c.batchMaxRows(), c.retryBackoffInitial(), c.retryBackoffMax(), c.retryMaxDuration());
    }

    String targetDatabase(String sourceDb, String keyspace) {
        return databaseFormat.replace("${db}", sourceDb).replace("${keyspace}", keyspace);
    }

    String targetTable(String sourceTable) {
        return tableFormat.replace("${table}", sourceTable);
    }
}
