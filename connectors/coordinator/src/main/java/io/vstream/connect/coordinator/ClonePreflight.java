package io.vstream.connect.coordinator;

import io.vstream.connect.jdbc.BinlogSettings;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The clone's checks before anything is handed over, each failure naming its fix: the target holds no user data of
 * its own (unless forced, or the applier has already started writing it), the two servers have different
 * {@code server_id}s and the same GTID flavor, the replication user exists and may replicate from the source, and the
 * coordinator's target account holds every privilege the hand-off needs ({@link AccountGrants}).
 */
final class ClonePreflight {
    private static final Set<String> SYSTEM_DBS = Set.of("mysql", "information_schema", "performance_schema", "sys");

    private ClonePreflight() {
    }

    /** The problems found; empty when the clone may go on. */
    static List<String> check(Connection source, Connection target, VStreamCoordinatorConnectorConfig config,
                              boolean applierStarted) throws SQLException {
        List<String> problems = new ArrayList<>();
        for (String p : BinlogSettings.problems(source)) {
            problems.add("the source: " + p);
        }
        String sourceId = Servers.string(source, "SELECT @@GLOBAL.server_id");
        String targetId = Servers.string(target, "SELECT @@GLOBAL.server_id");
        if (sourceId != null && sourceId.equals(targetId)) {
            problems.add("the source and the target both have server_id " + sourceId + ": give the target another"
                    + " server_id (SET GLOBAL server_id=...; and in its config file) or replication cannot work");
        }
        boolean sourceMaria = Servers.string(source, "SELECT VERSION()").toLowerCase().contains("mariadb");
        boolean targetMaria = Servers.string(target, "SELECT VERSION()").toLowerCase().contains("mariadb");
        if (!sourceMaria) {
            problems.add("the source is MySQL: this version hands a clone over to native replication on MariaDB only"
                    + " (gtid_slave_pos + MASTER_USE_GTID); the MySQL path (gtid_purged + MASTER_AUTO_POSITION) is not"
                    + " implemented yet. Run the clone without the coordinator and set up replication by hand from the"
                    + " applier's position (target `_vstream.applied`)");
        }
        if (sourceMaria != targetMaria) {
            problems.add("the source is " + (sourceMaria ? "MariaDB" : "MySQL") + " but the target is "
                    + (targetMaria ? "MariaDB" : "MySQL") + ": GTID replication needs the same flavor on both");
        }
        String sourceRoom = ConnectionHeadroom.problem("the source", ConnectionHeadroom.read(source), 5, 2,
                "3 for the source connector while it copies, 2 for the coordinator's rounds and checksum");
        if (sourceRoom != null) {
            problems.add(sourceRoom);
        }
        String targetRoom = ConnectionHeadroom.problem("the target", ConnectionHeadroom.read(target), 4, 2,
                "2 for the sink, 2 for the coordinator's rounds and checksum");
        if (targetRoom != null) {
            problems.add(targetRoom);
        }
        problems.addAll(WorkflowGrants.problems(target, "the target", WorkflowGrants.cloneTarget(
                config.stateDatabase(), !applierStarted && !config.force())));
        if (!applierStarted && !config.force()) {
            List<String> dbs = new ArrayList<>();
            try (Statement st = target.createStatement(); ResultSet rs = st.executeQuery("SHOW DATABASES")) {
                while (rs.next()) {
                    String db = rs.getString(1);
                    if (!SYSTEM_DBS.contains(db) && !db.equals(config.stateDatabase())) {
                        dbs.add(db);
                    }
                }
            }
            if (!dbs.isEmpty()) {
                problems.add("the target is not empty (databases " + dbs + "): clone into an empty server, or set"
                        + " preflight.force=true if these may be overwritten");
            }
        }
        VStreamCoordinatorConnectorConfig.Endpoint repl = config.replication();
        try (Connection r = Servers.open(repl)) {
            boolean mayReplicate = false;
            try (Statement st = r.createStatement(); ResultSet rs = st.executeQuery("SHOW GRANTS")) {
                while (rs.next()) {
                    String g = rs.getString(1).toUpperCase();
                    mayReplicate |= g.contains("REPLICATION SLAVE") || g.contains("REPLICATION REPLICA")
                            || g.contains("ALL PRIVILEGES ON *.*");
                }
            }
            if (!mayReplicate) {
                problems.add("the replication user '" + repl.user() + "' may not replicate: GRANT REPLICATION SLAVE ON"
                        + " *.* TO '" + repl.user() + "'@'%' on the source");
            }
        } catch (SQLException e) {
            problems.add("the replication user '" + repl.user() + "' cannot connect to the source " + repl + " ("
                    + e.getMessage() + "): create it there with GRANT REPLICATION SLAVE, and check"
                    + " replication.source.host/port");
        }
        return problems;
    }
}
