package io.vstream.connect.source;

import io.vstream.connect.core.error.ServerErrors;
import io.vstream.connect.core.position.GtidPosition;
import io.vstream.connect.core.sql.SqlIdentifiers;
import io.vstream.connect.jdbc.MigrationPlans;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code start.mode=migration}: a shard with no stored offset starts at the position the online-DDL coordinator of
 * {@code migration} recorded on it with the migration's plan, after creating the ghost table
 * ({@code ddl.copy.start=at-once}): its server copy starts from there at once, and the stream carries every change
 * after it. Waits for the record (the coordinator may not have written it yet), polling the shard, up to a bound.
 * Touches the shard through the connection it is given (SELECT on {@code <database>.migrations}).
 */
record MigrationStart(String migration, String database) {
    private static final Logger LOG = LoggerFactory.getLogger(MigrationStart.class);
    private static final long POLL_MS = 25;

    /**
     * Where the shard's stream starts: the position recorded for the migration, or none when the coordinator ran the
     * ALTER instantly (no ghost, no copy: the stream then starts at the shard's current position).
     */
    record Recorded(GtidPosition position, boolean ranInstantly) {
    }

    /**
     * What the coordinator recorded for the migration on this shard, once it has: null when the source stops first.
     *
     * @throws FatalStreamException when the account may not read the table, or nothing is recorded within
     *                              {@code bound}
     */
    Recorded await(Connection conn, String shard, Duration bound, BooleanSupplier running)
            throws SQLException, InterruptedException, FatalStreamException {
        long deadline = System.nanoTime() + bound.toNanos();
        boolean told = false;
        while (running.getAsBoolean()) {
            String recorded;
            boolean instant;
            try {
                recorded = MigrationPlans.copyStart(conn, database, migration);
                instant = recorded == null && MigrationPlans.appliedInstantly(conn, database, migration);
            } catch (SQLException e) {
                if (e.getErrorCode() == ServerErrors.TABLE_ACCESS_DENIED
                        || e.getErrorCode() == ServerErrors.DATABASE_ACCESS_DENIED) {
                    throw new FatalStreamException("Shard " + shard + ": start.mode=migration reads the position"
                            + " the coordinator records, but the account may not: GRANT SELECT ON "
                            + SqlIdentifiers.qualify(database, "migrations") + " TO the source's account"
                            + " (docs/grants.md) (" + e.getMessage() + ")", e);
                }
                throw e;
            }
            if (recorded != null) {
                return new Recorded(GtidPosition.parse(recorded), false);
            }
            if (instant) {
                return new Recorded(null, true);
            }
            if (System.nanoTime() > deadline) {
                throw new FatalStreamException("Shard " + shard + ": no start position recorded for migration '"
                        + migration + "' in " + SqlIdentifiers.qualify(database, "migrations") + " after "
                        + bound.toMillis() + " ms (retry.max.duration.ms): deploy its coordinator with"
                        + " ddl.migration=" + migration + " and ddl.copy.start=at-once (it records the position when"
                        + " it creates the ghost table), or this source with start.mode=current");
            }
            if (!told) {
                LOG.info("Shard {}: waiting for the coordinator of migration '{}' to record where its copy"
                        + " starts", shard, migration);
                told = true;
            }
            Thread.sleep(POLL_MS);
        }
        return null;
    }
}
