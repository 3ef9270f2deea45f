package io.vstream.connect.bench;

import io.vstream.connect.testsupport.connect.ConnectCluster;
import io.vstream.connect.testsupport.db.MariaDbServer;
import io.vstream.connect.testsupport.db.MariaDbShards;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The CDC scenario: a load of row changes is written to one shard's binlog first; then, alternately, (us) the source
 * connector deployed with {@code start.mode=position} at the GTID before the load, timed from deploy until the shard
 * topic holds the COMMIT of the load's last transaction, and (peer) the bare binlog client reading the same binlog from
 * the same GTID until that transaction commits. Both must count exactly the load's row changes.
 */
final class CdcScenario {
    static final double TARGET = 0.7;

    private final MariaDbShards shards;
    private final BenchOptions options;
    private final String runId;

    CdcScenario(MariaDbShards shards, BenchOptions options, String runId) {
        this.shards = shards;
        this.options = options;
        this.runId = runId;
    }

    ScenarioResult run() throws Exception {
        Scale scale = options.scale();
        MariaDbServer server = shards.server(0);
        BenchTable table = new BenchTable(server, shards.freshDatabase("cdc"), "orders");
        table.create();
        Bench.say(String.format("cdc: loading %,d inserts and %,d updates in transactions of %d rows into %s.%s",
                scale.cdcInsertRows(), scale.cdcUpdateRows(), Scale.TXN_ROWS, table.database(), table.table()));
        BenchTable.Load load = table.cdcLoad(scale.cdcInsertRows(), scale.cdcUpdateRows(), Scale.TXN_ROWS);
        if (load.rowChanges() != scale.cdcRowChanges()) {
            throw new IllegalStateException("the load wrote " + load.rowChanges() + " row changes, not "
                    + scale.cdcRowChanges());
        }
        Bench.say(String.format("cdc: %,d row changes in %,d transactions (GTIDs after %s up to %s) in %.1f s",
                load.rowChanges(), load.transactions(), load.startGtid(), load.lastGtid(), load.seconds()));

        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("load", String.format("%,d INSERT transactions of %d rows, %,d UPDATE transactions of %d rows;"
                        + " %,d row changes in %,d transactions", scale.cdcInsertRows() / Scale.TXN_ROWS, Scale.TXN_ROWS,
                scale.cdcUpdateRows() / Scale.TXN_ROWS, Scale.TXN_ROWS, load.rowChanges(), load.transactions()));
        settings.put("table", "7 columns: BIGINT key, VARCHAR(64), DECIMAL(12,2), INT, DATETIME(6), VARCHAR(200)"
                + " (1 in 7 NULL), VARCHAR(16)");
        settings.put("us", "start.mode=position at MariaDB/" + load.startGtid() + ", tasks.max=1, other settings"
                + " default; timed from the deploy (PUT /connectors/{name}/config) to the broker append time of the"
                + " COMMIT of " + load.lastGtid() + "; ROW records counted up to it");
        settings.put("peer", "BinaryLogClient (mysql-binlog-connector-java), default deserializers with"
                + " DATE_AND_TIME_AS_LONG_MICRO and CHAR_AND_BINARY_AS_BYTE_ARRAY, from GTID " + load.startGtid()
                + "; timed from connect() to the XID of " + load.lastGtid() + "; row changes of the table counted");

        try (ConnectCluster connect = Bench.connectCluster("bench-cdc")) {
            SourceRun ours = new SourceRun(connect, server, "bench-" + runId + "-cdc", options.converter());
            BareBinlogReader peer = new BareBinlogReader(server);
            Map<String, String> config = ours.baseConfig(table.database(), table.table());
            config.put("start.mode", "position");
            config.put("start.position", "{\"shard_gtids\":[{\"keyspace\":\"" + SourceRun.KEYSPACE + "\",\"shard\":\""
                    + SourceRun.SHARD + "\",\"gtid\":\"MariaDB/" + load.startGtid() + "\"}]}");
            long expected = load.rowChanges();
            Alternation runs = Alternation.run("cdc", "row changes", options.warmups(), options.pairs(),
                    () -> ours.run(config, ShardLogWatcher.End.commitOf(load.lastGtid()), false,
                            ShardLogWatcher.Result::rows, expected, options.runTimeout()),
                    () -> peer.read(table.database(), table.table(), load.startGtid(), load.lastGtid(), expected,
                            options.runTimeout()));
            settings.put("ROW record size", ours.bytesPerRow() + " bytes (key and value as serialized, average)");
            return new ScenarioResult("cdc", String.format("%,d row changes read from one shard's binlog",
                    load.rowChanges()), "row changes", "vstream-source (Connect worker, Kafka)",
                    "bare binlog client", TARGET, ScenarioResult.Goal.RATE, settings, runs.warmups, runs.pairs);
        }
    }
}
