package io.vstream.connect.coordinator;

import io.vstream.connect.coordinator.AccountGrants.Need;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The privileges each workflow's coordinator needs on a server, as docs/grants.md lists them, and the preflight check
 * that names each missing one as the {@code GRANT} to run before anything starts (a grant missing at the cut-over or
 * the hand-off would otherwise fail the workflow half-way, or, for PROCESS, quietly weaken a safety check). Privileges
 * held through roles are not visible in {@code SHOW GRANTS}: then a missing one is only logged. Reads only.
 */
final class WorkflowGrants {
    private static final Logger LOG = LoggerFactory.getLogger(WorkflowGrants.class);

    private WorkflowGrants() {
    }

    /** The clone coordinator's account on the target ({@code checksEmpty}: the preflight's empty-target check runs). */
    static List<Need> cloneTarget(String stateDb, boolean checksEmpty) {
        List<Need> needed = new ArrayList<>(List.of(
                Need.global("REPLICATION SLAVE ADMIN", "CHANGE MASTER, START SLAVE and gtid_slave_pos at the hand-off",
                        "SUPER"),
                Need.global("SLAVE MONITOR", "SHOW SLAVE STATUS, to verify replication", "SUPER", "REPLICA MONITOR"),
                Need.global("RELOAD", "RESET MASTER, which clears the target's own binlog before it replicates"),
                Need.on(stateDb, "SELECT", "the applier's state and its tables"),
                Need.on(stateDb, "INSERT", "the applier's control row"),
                Need.on(stateDb, "UPDATE", "the applier's control row"),
                Need.on(stateDb, "CREATE", "the control table, when the coordinator comes first")));
        if (checksEmpty) {
            needed.add(Need.global("SHOW DATABASES", "the check that the target is empty sees every database only"
                    + " with it"));
        }
        return needed;
    }

    /** The online-DDL coordinator's account on every shard (the ghost sink may use the same). */
    static List<Need> onlineDdlShard(String db, String stateDb) {
        List<Need> needed = new ArrayList<>();
        for (String p : List.of("SELECT", "INSERT", "UPDATE", "DELETE", "CREATE", "DROP", "ALTER", "INDEX",
                "LOCK TABLES")) {
            needed.add(Need.on(db, p, "the ghost table: created, filled, keyed, locked and renamed at the cut-over"));
        }
        for (String p : List.of("SELECT", "INSERT", "UPDATE", "DELETE", "CREATE", "ALTER")) {
            needed.add(Need.on(stateDb, p, "the migration's state: plans, copy ranges, deferred keys, throttle"));
        }
        needed.add(Need.global("PROCESS", "sees other sessions' transactions and lock waits (an instant ALTER waits for"
                + " long transactions; the cut-over watches its RENAME)"));
        return needed;
    }

    /** The reshard coordinator's account on every old and new shard. */
    static List<Need> reshardShard(String db, String stateDb) {
        return List.of(
                Need.global("READ_ONLY ADMIN", "SET GLOBAL read_only on the old shards, and writing the journal into"
                        + " them while it is on", "SUPER"),
                Need.on(db, "SELECT", "the preflight reads every table's sharding column and whether it has rows"),
                Need.on(stateDb, "SELECT", "the journal and the applier's state"),
                Need.on(stateDb, "INSERT", "the journal and the applier's control row"),
                Need.on(stateDb, "UPDATE", "the applier's control row"),
                Need.on(stateDb, "CREATE", "the journal and control tables"));
    }

    /** One problem per missing privilege of the account {@code c} is logged in as, on the server named {@code where}. */
    static List<String> problems(Connection c, String where, List<Need> needed) throws SQLException {
        AccountGrants grants = AccountGrants.of(c);
        List<String> missing = grants.missing(needed);
        if (missing.isEmpty()) {
            return List.of();
        }
        if (grants.viaRoles()) {
            LOG.warn("The coordinator's account {} on {} holds roles; SHOW GRANTS does not show every privilege they"
                    + " give, so these may be missing: {}", grants.account(), where, missing);
            return List.of();
        }
        List<String> out = new ArrayList<>();
        for (String m : missing) {
            out.add(where + ": the account " + grants.account() + " lacks a privilege the workflow needs: " + m);
        }
        return out;
    }
}
