package io.vstream.connect.coordinator;

import io.vstream.connect.core.position.Flavor;
import io.vstream.connect.core.position.GtidPosition;
import io.vstream.connect.jdbc.AppliedTable;
import io.vstream.connect.jdbc.ConsistentSnapshot;
import io.vstream.connect.jdbc.StreamTables;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link CloneServers} on the real servers: a round's connection to the source and to the target, a snapshot's own
 * connection to the source ({@link ConsistentSnapshot}), the applier's control row ({@link ApplierChannel}) and native
 * replication on the target. Touches the source (reads) and the target (control row, replication).
 */
final class JdbcCloneServers implements CloneServers {
    private static final Logger LOG = LoggerFactory.getLogger(JdbcCloneServers.class);

    private final VStreamCoordinatorConnectorConfig config;
    private final String workflow;
    private final ApplierChannel applier;

    JdbcCloneServers(VStreamCoordinatorConnectorConfig config, String workflow) {
        this.config = config;
        this.workflow = workflow;
        this.applier = new ApplierChannel(config.stateDatabase(), config.applierStream());
    }

    @Override
    public Round open() throws SQLException {
        Connection source = Servers.open(config.source());
        try {
            return new JdbcRound(source, Servers.open(config.target()));
        } catch (SQLException | RuntimeException e) {
            source.close();
            throw e;
        }
    }

    @Override
    public void retireApplier() throws SQLException {
        try (Connection target = Servers.open(config.target())) {
            applier.command(target, "HANDED_OFF", null);
        }
    }

    private final class JdbcRound implements Round {
        private final Connection source;
        private final Connection target;

        JdbcRound(Connection source, Connection target) {
            this.source = source;
            this.target = target;
        }

        @Override
        public List<AppliedTable.Row> applied() throws SQLException {
            return applier.applied(target);
        }

        @Override
        public String sourcePosition() throws SQLException {
            return Servers.string(source, "SELECT @@GLOBAL.gtid_binlog_pos");
        }

        @Override
        public List<String> preflight(boolean started) throws SQLException {
            return ClonePreflight.check(source, target, config, started);
        }

        @Override
        public void tellApplier(String command, String stopAt) throws SQLException {
            applier.command(target, command, stopAt);
        }

        @Override
        public ApplierChannel.Ack awaitAck(String command, String position)
                throws SQLException, InterruptedException {
            return applier.awaitAck(target, command, position, config.stopTimeout());
        }

        @Override
        public String applierCommand() throws SQLException {
            return applier.currentCommand(target);
        }

        @Override
        public Snapshot snapshot() throws SQLException {
            Connection snapConn = Servers.open(config.source());
            ConsistentSnapshot snap;
            try {
                snap = ConsistentSnapshot.open(snapConn, Flavor.MARIADB, null);
            } catch (SQLException | RuntimeException e) {
                snapConn.close();
                throw e;
            }
            return new Snapshot() {
                @Override
                public GtidPosition position() {
                    return snap.position();
                }

                @Override
                public CloneComparison compare() throws SQLException {
                    return CloneComparison.at(snap.connection(), target, StreamTables.read(target,
                            config.stateDatabase(), config.applierStream()), config.applierStream());
                }

                @Override
                public void close() throws SQLException {
                    try {
                        snap.close();
                    } finally {
                        snapConn.close();
                    }
                }
            };
        }

        @Override
        public boolean replicationConfigured() throws SQLException {
            try (Statement st = target.createStatement(); ResultSet rs = st.executeQuery("SHOW SLAVE STATUS")) {
                return rs.next() && rs.getString("Master_Host") != null && !rs.getString("Master_Host").isEmpty();
            }
        }

        /** MariaDB: gtid_slave_pos + slave_pos; only the stream's databases replicate. */
        @Override
        public void configureReplication(GtidPosition s, List<String> databases) throws SQLException {
            VStreamCoordinatorConnectorConfig.Endpoint repl = config.replication();
            try (Statement st = target.createStatement()) {
                st.execute("STOP SLAVE");
                String own = Servers.string(target, "SELECT @@GLOBAL.gtid_binlog_pos");
                if (own != null && !own.isEmpty()) {
                    // the target's own binlog would conflict with the source's GTIDs (ERROR 1947); it is a fresh clone
                    LOG.info("Workflow {}: RESET MASTER on the target (its own binlog held {})", workflow, own);
                    st.execute("RESET MASTER");
                }
                st.execute("SET GLOBAL gtid_slave_pos = '" + s.serverFormat().replace("'", "") + "'");
                // replicate only what the clone holds: the stream's databases (other databases of the source would
                // fail on a target that does not have them)
                try (PreparedStatement ps = target.prepareStatement("SET GLOBAL replicate_wild_do_table = ?")) {
                    ps.setString(1, CloneWorkflow.wildDoTable(databases));
                    ps.execute();
                }
                // with TLS to the source, the replication channel is encrypted too; its check of the source's
                // certificate is the target's own (MASTER_SSL_CA on the target's host: docs/clone.md)
                try (PreparedStatement ps = target.prepareStatement("CHANGE MASTER TO MASTER_HOST = ?, MASTER_PORT"
                        + " = ?, MASTER_USER = ?, MASTER_PASSWORD = ?, MASTER_USE_GTID = slave_pos"
                        + (repl.tls().enabled() ? ", MASTER_SSL = 1" : ""))) {
                    ps.setString(1, repl.host());
                    ps.setInt(2, repl.port());
                    ps.setString(3, repl.user());
                    ps.setString(4, repl.password() == null ? "" : repl.password().value());
                    ps.execute();
                }
            }
        }

        @Override
        public void startReplication() throws SQLException {
            try (Statement st = target.createStatement()) {
                st.execute("START SLAVE");
            }
        }

        @Override
        public Replica replica() throws SQLException {
            try (Statement st = target.createStatement(); ResultSet rs = st.executeQuery("SHOW SLAVE STATUS")) {
                return rs.next() ? new Replica(rs.getString("Slave_IO_Running"), rs.getString("Slave_SQL_Running"),
                        rs.getString("Last_Error"), rs.getString("Last_IO_Error")) : null;
            }
        }

        @Override
        public String replicaPosition() throws SQLException {
            return Servers.string(target, "SELECT @@GLOBAL.gtid_slave_pos");
        }

        @Override
        public void close() throws SQLException {
            try {
                target.close();
            } finally {
                source.close();
            }
        }
    }
}
