package io.vstream.connect.coordinator;

import io.vstream.connect.jdbc.MigrationPlans;
import io.vstream.connect.core.position.Flavor;
import io.vstream.connect.jdbc.ConsistentSnapshot;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The online-DDL checksum before the cut-over, per shard, in bounded slices: each slice pauses the shard's applier,
 * takes a consistent snapshot of the shard (position S), stops the applier at exactly S, compares the original (read
 * in the snapshot, i.e. at S) with the ghost (which then holds exactly S) through the mapping ({@link MappedChecksum}),
 * chunk after chunk from where the previous slice ended, for about {@code cutover.lock.timeout.ms}; then lets the
 * applier run again. The pause is bounded by the same time, the applier's way to S by {@link #reachBudget}: an
 * applier that does not stop in time runs again at once and the slice is tried again on a later round; after {@link #MAX_STALLS} such stalls in a row it gives up (the
 * workflow counts a failed attempt). The progress is kept in memory: a restarted coordinator compares from the start.
 * Touches every shard (reads both tables; writes the applier's control row).
 */
final class CutOverChecksum implements ChecksumSlices {
    private static final Logger LOG = LoggerFactory.getLogger(CutOverChecksum.class);
    static final int MAX_STALLS = 5;
    static final Duration MIN_REACH = Duration.ofSeconds(30);

    /** A slice's outcome: a mismatch (the workflow fails), giving up after stalls (a failed attempt), or neither. */
    record Slice(String mismatch, String gaveUp) {
        static final Slice GO_ON = new Slice(null, null);
    }

    private final VStreamCoordinatorConnectorConfig config;
    private final String workflow;
    private final String migration;
    private final Map<String, VStreamCoordinatorConnectorConfig.Endpoint> shards;
    private final ApplierChannel applier;
    private final Map<String, MappedChecksum> checksums = new HashMap<>();
    private int stalls;
    private boolean probeBinlogEnd = true; // false once the account was refused SHOW MASTER STATUS

    CutOverChecksum(VStreamCoordinatorConnectorConfig config, String workflow, String migration,
                    ApplierChannel applier) {
        this.config = config;
        this.workflow = workflow;
        this.migration = migration;
        this.shards = config.shards();
        this.applier = applier;
    }

    /** Whether the shard's tables have been compared (and are equal) to the end. */
    @Override
    public boolean done(String shard) {
        MappedChecksum sum = checksums.get(shard);
        return sum != null && sum.done();
    }

    /** Runs one slice on {@code shard}. */
    @Override
    public Slice slice(String shard) throws SQLException, InterruptedException {
        VStreamCoordinatorConnectorConfig.Endpoint e = shards.get(shard);
        Duration budget = config.cutOverLockTimeout();
        try (Connection c = Servers.open(e)) {
            long t0 = System.nanoTime();
            applier.command(c, "PAUSE", null); // the applier comes to a stop while the comparison gets ready
            try {
                MappedChecksum sum = checksums.get(shard);
                if (sum == null) {
                    MigrationPlans.Plan plan = MigrationPlans.load(c, config.stateDatabase(), migration);
                    if (plan == null) {
                        return new Slice("shard " + shard + " has no plan of migration " + migration, null);
                    }
                    sum = MappedChecksum.prepare(c, plan, MappedChecksum.DEFAULT_CHUNK_ROWS);
                    checksums.put(shard, sum);
                    if (!sum.uncovered().isEmpty()) {
                        LOG.info("Workflow {}: shard {}: the checksum leaves out {} (no conversion to the new type)",
                                workflow, shard, sum.uncovered());
                    }
                }
                try (Connection snapConn = Servers.open(e)) {
                    return slice(shard, c, snapConn, sum, budget, t0);
                }
            } finally {
                applier.command(c, "RUN", null);
            }
        }
    }

    /** One slice on a shard whose applier was told to PAUSE at {@code t0} (the caller lets it RUN again). */
    private Slice slice(String shard, Connection c, Connection snapConn, MappedChecksum sum, Duration budget, long t0)
            throws SQLException, InterruptedException {
        if (applier.awaitAck(c, "PAUSE", null, budget) == null) {
            return stalled("the applier on shard " + shard + " did not pause within " + budget.toMillis()
                    + " ms");
        }
        try (ConsistentSnapshot snap = ConsistentSnapshot.open(snapConn, Flavor.MARIADB, null,
                probeBinlogEnd ? c : null)) {
            if (snap.probeDenied()) {
                probeBinlogEnd = false;
                LOG.info("Workflow {}: the account may not read the binlog's end (SHOW MASTER STATUS); each checksum"
                        + " slice reads the binlog file for its position instead, which takes longer in a large file:"
                        + " GRANT BINLOG MONITOR ON *.* to it (docs/grants.md)", workflow);
            }
            String s = snap.position().format();
            applier.command(c, "STOP_AT", s);
            Duration reach = reachBudget(budget);
            if (applier.awaitAck(c, "STOP_AT", s, reach) == null) {
                return stalled("the applier on shard " + shard + " did not reach " + s + " within "
                        + reach.toMillis() + " ms");
            }
            long before = sum.rowsCompared();
            MappedChecksum.Mismatch m = sum.compareUntil(snap.connection(), c,
                    System.nanoTime() + budget.toNanos());
            if (m != null) {
                LOG.error("Workflow {}: shard {}: checksum at {}: the ghost differs from the original: {}",
                        workflow, shard, s, m.describe());
                return new Slice("checksum at " + s + " on shard " + shard + ": the ghost table differs from"
                        + " the original through the mapping (" + m.describe() + "); the original is"
                        + " untouched; cancel and run the migration again", null);
            }
            LOG.info("Workflow {}: shard {}: original and ghost match at {}: {} rows in this slice, {} rows"
                    + " ({} chunks) so far{}; the applier was stopped {} ms", workflow, shard, s,
                    sum.rowsCompared() - before, sum.rowsCompared(), sum.chunksCompared(),
                    sum.done() ? ", complete" : "", (System.nanoTime() - t0) / 1_000_000);
            stalls = 0;
            return Slice.GO_ON;
        }
    }

    /**
     * How long the applier may take to reach the snapshot's position: at least {@link #MIN_REACH}. It runs meanwhile
     * (only the ghost waits; the application's writes are never held by a slice), so under a heavy write load,
     * where the transactions committed while it was paused take it seconds to apply, waiting costs only time, and
     * giving up after the cut-over's lock timeout made every slice fail.
     */
    static Duration reachBudget(Duration lockTimeout) {
        return lockTimeout.compareTo(MIN_REACH) > 0 ? lockTimeout : MIN_REACH;
    }

    private Slice stalled(String why) {
        if (++stalls < MAX_STALLS) {
            LOG.info("Workflow {}: checksum slice skipped ({}); trying again on the next round", workflow, why);
            return Slice.GO_ON;
        }
        stalls = 0;
        LOG.warn("Workflow {}: the checksum could not run {} times in a row ({})", workflow, MAX_STALLS, why);
        return new Slice(null, why);
    }
}
