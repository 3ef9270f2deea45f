package io.vstream.connect.source;

import java.time.Duration;

/** What a shard's binlog reader needs of the configuration, resolved once for the task. */
record StreamSettings(
        String connectorName,
        String keyspace,
        String database,
        String topicPrefix,
        boolean avroFieldNames,
        String user,
        String password,
        Duration connectTimeout,
        Duration backoffInitial,
        Duration backoffMax,
        Duration retryMaxDuration,
        Duration heartbeatInterval,
        int maxQueueSize,
        TableFilter filter,
        String journalDatabase,
        boolean reshardFallbackCopy,
        RecordSizeLimit recordSizeLimit,
        io.vstream.connect.core.sql.TlsSettings tls,
        MigrationStart migrationStart) { // null unless start.mode=migration
}
