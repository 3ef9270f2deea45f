package io.vstream.connect.sink;

import io.vstream.connect.jdbc.MigrationPlans;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Set;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.ConnectException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a DDL statement of the stream does on one applier's target. In clone and reshard mode it is replayed in the
 * target database ({@code ddl.apply}); a statement the target already holds (the task died between the DDL and its
 * state row) fails with an "already exists"-like error, taken as applied. In ghost mode it is checked against the
 * migration: one that changes the migrated table stops the applier (the coordinator is told why), and a swap of the
 * tables is followed into the table swapped out ({@link GhostTarget#follow}). Touches the target: the DDL through
 * {@link TargetTables}, a swap's direction in the applier's transaction.
 */
final class StreamDdl {
    private static final Logger LOG = LoggerFactory.getLogger(StreamDdl.class);
    /** The errors of a DDL the target holds already: table or column exists, key exists, no such key or table. */
    private static final Set<Integer> DDL_ALREADY_DONE = Set.of(1050, 1060, 1061, 1091, 1146, 1051);

    private final String source; // topic-partition, for messages
    private final SinkSettings settings;
    private final TargetTables tables;
    private final GhostTarget ghost; // null outside ghost mode
    private final ControlChannel control;

    StreamDdl(String topic, int partition, SinkSettings settings, TargetTables tables, GhostTarget ghost,
              ControlChannel control) {
        this.source = topic + "-" + partition;
        this.settings = settings;
        this.tables = tables;
        this.ghost = ghost;
        this.control = control;
    }

    /** Replays the DDL record {@code value} on the target. */
    void replay(Struct value) throws SQLException {
        try {
            tables.applyDdl(value.getString("db"), value.getString("keyspace"), value.getString("statement"));
        } catch (SQLException e) {
            if (!DDL_ALREADY_DONE.contains(e.getErrorCode())) {
                throw e;
            }
            LOG.warn("{}: DDL at {} seems applied already ({}); going on", source, value.getString("gtid"),
                    e.getMessage());
        }
    }

    /**
     * Ghost mode: stops the applier (a {@link ConnectException}, the coordinator told why) when the DDL record
     * {@code value} changes the migrated table; follows it, recorded in {@code txn}'s open transaction, when it swaps
     * the tables.
     */
    void check(Struct value, Connection txn) throws SQLException {
        String gtid = value.getString("gtid");
        String statement = value.getString("statement");
        String why = ghost.refusal(statement, value.getString("db"), gtid);
        if (why != null) {
            control.fail(why);
            throw new ConnectException(why);
        }
        String away = ghost.swappedAway(statement, value.getString("db"));
        if (away != null) {
            followSwap(txn, away, gtid);
        }
    }

    /**
     * The stream reached a swap (the table renamed to {@code away}, the table that followed it to the table's name):
     * from here on the table's changes are those of the table that serves now, and they go into {@code away}, which
     * follows it ({@link GhostTarget#follow}), the switch recorded in this record's transaction so a restarted applier
     * follows the same direction. Without a direction plan the applier has nothing it may write (the coordinator
     * retires it at the swap, so it never gets here) and stops.
     */
    private void followSwap(Connection txn, String away, String gtid) throws SQLException {
        String migration = settings.ghostMigration();
        String table = ghost.plan().table();
        MigrationPlans.Direction direction = ghost.follow(txn, away);
        if (direction == null) {
            String why = "the stream passed a swap of migration " + migration + " (" + gtid + ": " + table + " is the"
                    + " new table, the one it replaced is `" + away + "`), and the migration keeps no reverse stream"
                    + " (ddl.revert.window.ms=0): this applier's work ended at the cut-over; delete the sink connector";
            control.fail(why);
            throw new ConnectException(why);
        }
        tables.forget();
        tables.ghost(direction.plan());
        LOG.info("{}: migration {} swapped its tables at {}: from here on the changes of {} go into `{}`, which"
                + " follows it through the {} mapping {}", source, migration, gtid, table, away,
                direction.reverse() ? "reverse" : "forward", direction.plan().mapping().toJson());
    }
}
