package io.vstream.connect.core.event;

import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;

/**
 * The {@code source} block of a row event, shaped like Debezium's MySQL {@code source} so that the Debezium
 * ecosystem reads it, plus where the row came from in our terms: keyspace, shard, the transaction's GTID and the
 * shard generation (epoch).
 *
 * @param snapshot {@code "true"} for copy rows, {@code "false"} for
 *                 binlog rows
 */
public record SourceInfo(
        String connectorName,
        String keyspace,
        String shard,
        String database,
        String table,
        String gtid,
        long serverId,
        long tsMs,
        String snapshot,
        int row,
        long epoch) {

    public static final Schema SCHEMA = SchemaBuilder.struct()
            .name("io.vstream.connect.Source")
            .field("version", Schema.STRING_SCHEMA)
            .field("connector", Schema.STRING_SCHEMA)
            .field("name", Schema.STRING_SCHEMA)
            .field("ts_ms", Schema.INT64_SCHEMA)
            .field("snapshot", SchemaBuilder.string().optional().defaultValue("false").build())
            .field("db", Schema.STRING_SCHEMA)
            .field("table", Schema.OPTIONAL_STRING_SCHEMA)
            .field("keyspace", Schema.STRING_SCHEMA)
            .field("shard", Schema.STRING_SCHEMA)
            .field("server_id", Schema.INT64_SCHEMA)
            .field("gtid", Schema.OPTIONAL_STRING_SCHEMA)
            .field("row", Schema.INT32_SCHEMA)
            .field("epoch", Schema.INT64_SCHEMA)
            .build();

    /** The connector name written in {@code source.connector}. */
    public static final String CONNECTOR = "vstream";

    public Struct toStruct() {
        return new Struct(SCHEMA)
                .put("version", io.vstream.connect.core.Version.get())
                .put("connector", CONNECTOR)
                .put("name", connectorName)
                .put("ts_ms", tsMs)
                .put("snapshot", snapshot)
                .put("db", database)
                .put("table", table)
                .put("keyspace", keyspace)
                .put("shard", shard)
                .put("server_id", serverId)
                .put("gtid", gtid)
                .put("row", row)
                .put("epoch", epoch);
    }
}
