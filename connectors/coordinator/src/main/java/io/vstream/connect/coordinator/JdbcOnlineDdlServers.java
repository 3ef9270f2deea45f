package io.vstream.connect.coordinator;

import io.vstream.connect.coordinator.ddl.AlterAnalyzer;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@link OnlineDdlServers} on the real shards: a connection of its own per use ({@link Servers#open}) or the one a
 * round keeps ({@link RoundConnections}), the checksum ({@link CutOverChecksum}), the sentry cut-over
 * ({@link CutOverRunner}) and the server copies ({@link ServerCopies}). Touches every shard of the table (and the
 * replicas the copy watches).
 */
final class JdbcOnlineDdlServers implements OnlineDdlServers {
    private final VStreamCoordinatorConnectorConfig config;
    private final String workflow;
    private final String migration;
    private final Map<String, VStreamCoordinatorConnectorConfig.Endpoint> shards;
    private final ApplierChannel applier;
    private final AlterAnalyzer analyzer;
    private final RoundConnections roundConnections = new RoundConnections(); // the watch round's, per shard
    private final ServerCopies copies;

    JdbcOnlineDdlServers(VStreamCoordinatorConnectorConfig config, String workflow) {
        this.config = config;
        this.workflow = workflow;
        this.migration = config.ddlMigration(workflow);
        this.shards = config.shards();
        this.applier = new ApplierChannel(config.stateDatabase(), config.applierStream());
        this.analyzer = AlterAnalyzer.builder(workflow).ghostNamePattern(config.getString(
                        VStreamCoordinatorConnectorConfig.DDL_GHOST_FORMAT)).stateDatabase(config.stateDatabase())
                .allowNewUniqueKey(config.allowNewUniqueKey()).build();
        this.copies = new ServerCopies(config, migration, applier);
    }

    @Override
    public OnlineDdlShard open(String shard) throws SQLException {
        return shard(shard, Servers.open(endpoint(shard)), false);
    }

    @Override
    public OnlineDdlShard round(String shard) throws SQLException {
        return shard(shard, roundConnections.get(shard, endpoint(shard)), true);
    }

    private OnlineDdlShard shard(String shard, Connection c, boolean kept) {
        return new JdbcOnlineDdlShard(config, workflow, migration, shard, applier, analyzer, c, kept);
    }

    private VStreamCoordinatorConnectorConfig.Endpoint endpoint(String shard) {
        VStreamCoordinatorConnectorConfig.Endpoint e = shards.get(shard);
        if (e == null) {
            throw new IllegalArgumentException("no shard " + shard + " in shards");
        }
        return e;
    }

    @Override
    public void discardRound(String shard) {
        roundConnections.discard(shard);
    }

    @Override
    public ChecksumSlices checksum(String key) {
        return new CutOverChecksum(config, workflow, key, applier);
    }

    @Override
    public String attemptCutOver(OnlineDdlCutOver cutOver, List<String> names)
            throws SQLException, InterruptedException {
        Map<String, VStreamCoordinatorConnectorConfig.Endpoint> pending = new LinkedHashMap<>();
        for (String name : names) {
            pending.put(name, endpoint(name));
        }
        return CutOverRunner.run(cutOver, config, pending, workflow);
    }

    @Override
    public ShardCopies copies() {
        return copies;
    }

    @Override
    public void close() {
        roundConnections.close();
    }
}
