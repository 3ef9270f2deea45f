package io.vstream.connect.coordinator;

import io.vstream.connect.core.protocol.ControlTable;
import io.vstream.connect.core.reshard.Journal;
import io.vstream.connect.jdbc.AppliedTable;
import io.vstream.connect.jdbc.JournalTable;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@link ReshardServers} on the real shards: one connection per old and new shard for a round, the journal table
 * ({@link JournalTable}), the applier's control rows ({@link ApplierChannel}, one per lane). Touches the old shards
 * (positions, read_only, journal) and the new shards (journal, the applier's control rows).
 */
final class JdbcReshardServers implements ReshardServers {
    private final VStreamCoordinatorConnectorConfig config;
    private final ApplierChannel applier;
    private final Map<String, VStreamCoordinatorConnectorConfig.Endpoint> oldShards;
    private final Map<String, VStreamCoordinatorConnectorConfig.Endpoint> newShards;

    JdbcReshardServers(VStreamCoordinatorConnectorConfig config) {
        this.config = config;
        this.applier = new ApplierChannel(config.stateDatabase(), config.applierStream());
        this.oldShards = config.shards();
        this.newShards = config.reshardTargets();
    }

    @Override
    public Round open() throws SQLException {
        JdbcRound s = new JdbcRound();
        try {
            for (Map.Entry<String, VStreamCoordinatorConnectorConfig.Endpoint> e : oldShards.entrySet()) {
                s.old.put(e.getKey(), Servers.open(e.getValue()));
            }
            for (Map.Entry<String, VStreamCoordinatorConnectorConfig.Endpoint> e : newShards.entrySet()) {
                s.next.put(e.getKey(), Servers.open(e.getValue()));
            }
        } catch (SQLException e) {
            s.close();
            throw e;
        }
        return s;
    }

    private static String position(Connection c) throws SQLException {
        String p = Servers.string(c, "SELECT @@GLOBAL.gtid_binlog_pos");
        return "MariaDB/" + (p == null ? "" : p);
    }

    /** One round's connections to the old and the new shards. */
    private final class JdbcRound implements Round {
        final Map<String, Connection> old = new LinkedHashMap<>();
        final Map<String, Connection> next = new LinkedHashMap<>();

        @Override
        public List<AppliedTable.Row> applied(String newShard) throws SQLException {
            return applier.applied(next.get(newShard));
        }

        @Override
        public String oldPosition(String oldShard) throws SQLException {
            return position(old.get(oldShard));
        }

        @Override
        public String newPosition(String newShard) throws SQLException {
            return position(next.get(newShard));
        }

        @Override
        public List<String> preflight(boolean applierStarted) throws SQLException {
            return ReshardPreflight.check(config, old, next, applierStarted);
        }

        @Override
        public void readOnly(boolean on) throws SQLException {
            for (Connection c : old.values()) {
                try (Statement st = c.createStatement()) {
                    st.execute("SET GLOBAL read_only = " + (on ? "ON" : "OFF"));
                }
            }
        }

        @Override
        public Optional<Journal> journal(long id) throws SQLException {
            for (Map<String, Connection> group : List.of(old, next)) {
                for (Connection c : group.values()) {
                    for (Journal j : JournalTable.read(c, config.stateDatabase(), config.reshardKeyspace())) {
                        if (j.id() == id) {
                            return Optional.of(j);
                        }
                    }
                }
            }
            return Optional.empty();
        }

        @Override
        public void journal(Journal j) throws SQLException {
            for (Connection c : old.values()) {
                JournalTable.write(c, config.stateDatabase(), j);
            }
            for (Connection c : next.values()) {
                JournalTable.write(c, config.stateDatabase(), j);
                applier.command(c, "HANDED_OFF", null);
            }
        }

        @Override
        public void retireApplier(String newShard) throws SQLException {
            applier.command(next.get(newShard), "HANDED_OFF", null);
        }

        @Override
        public long estimateRows() throws SQLException {
            long estimate = 0;
            for (Connection c : old.values()) {
                try (PreparedStatement ps = c.prepareStatement("SELECT COALESCE(SUM(table_rows), 0) FROM"
                        + " information_schema.tables WHERE table_schema = ? AND table_type = 'BASE TABLE'")) {
                    ps.setString(1, config.reshardDatabase());
                    try (ResultSet rs = ps.executeQuery()) {
                        estimate += rs.next() ? rs.getLong(1) : 0;
                    }
                }
            }
            return estimate;
        }

        @Override
        public String laneCommand(String newShard, String oldShard) throws SQLException {
            return lane(oldShard).currentCommand(next.get(newShard));
        }

        @Override
        public void runLane(String newShard, String oldShard) throws SQLException {
            lane(oldShard).command(next.get(newShard), "RUN", null);
        }

        private ApplierChannel lane(String oldShard) {
            return new ApplierChannel(config.stateDatabase(), ControlTable.laneKey(config.applierStream(), oldShard));
        }

        @Override
        public void close() {
            for (Map<String, Connection> group : List.of(old, next)) {
                for (Connection c : group.values()) {
                    try {
                        c.close();
                    } catch (SQLException e) {
                        // closing anyway
                    }
                }
            }
        }
    }
}
