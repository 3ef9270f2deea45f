package io.vstream.connect.coordinator;

import io.vstream.connect.core.mapping.StreamTables;
import io.vstream.connect.core.position.Flavor;
import io.vstream.connect.core.sql.ConsistentSnapshot;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One on-demand diff of a workflow's target against its source, run in bounded slices by the coordinator task. Each
 * slice holds the target ({@link TargetHold}), opens a consistent snapshot of the source at S, lets the target run to
 * exactly S, and compares table after table chunk by chunk ({@link MappedChecksum}) for at most the slice's time;
 * then the target runs again until the next slice. A chunk that differs is compared row by row and its keys are
 * named; the diff goes on past it. Reads only, besides holding the target.
 */
final class DiffRun {
    private static final Logger LOG = LoggerFactory.getLogger(DiffRun.class);
    static final int MAX_STALLS = 5;

    private final String workflow;
    private final DiffPlan plan;
    private final VStreamCoordinatorConnectorConfig.Endpoint source;
    private final VStreamCoordinatorConnectorConfig.Endpoint target;
    private final Duration slice;
    private final int chunkRows;
    private final List<MappedChecksum> sums = new ArrayList<>();
    private Long estimate;
    private int index;
    private int stalls;
    private final List<String> found = new ArrayList<>(); // differences not yet in a published status
    private long foundCount;

    DiffRun(String workflow, DiffPlan plan, VStreamCoordinatorConnectorConfig.Endpoint source,
            VStreamCoordinatorConnectorConfig.Endpoint target, Duration slice, int chunkRows) {
        this.workflow = workflow;
        this.plan = plan;
        this.source = source;
        this.target = target;
        this.slice = slice;
        this.chunkRows = chunkRows;
    }

    String kind() {
        return plan.kind();
    }

    /** Runs one slice and returns the diff's status after it. */
    DiffStatus slice(DiffStatus status) throws SQLException, InterruptedException {
        try (Connection src = Servers.open(source); Connection tgt = Servers.open(target)) {
            if (sums.isEmpty()) {
                if (plan.tables().isEmpty()) {
                    return status.failed("the workflow's target holds no table yet (its sink records each table it"
                            + " takes): nothing to compare");
                }
                for (StreamTables.Entry e : plan.tables()) {
                    MappedChecksum sum;
                    try {
                        sum = MappedChecksum.prepareSame(src, e.sourceDatabase(), e.sourceTable(), tgt,
                                e.targetDatabase(), e.targetTable(), chunkRows);
                    } catch (IllegalArgumentException missing) {
                        return status.failed(missing.getMessage());
                    }
                    if (!sum.uncovered().isEmpty()) {
                        found.add(e.target() + ": columns not on both sides with comparable types: "
                                + sum.uncovered());
                        foundCount++;
                    }
                    sums.add(sum);
                }
                estimate = estimate(src);
                LOG.info("Workflow {}: diff {} of {} tables through {} (about {} rows)", workflow, status.id(),
                        sums.size(), plan.hold().describe(), estimate);
            }
            String problem = plan.hold().hold(tgt);
            if (problem != null) {
                return stalled(status, problem);
            }
            try (Connection snapConn = Servers.open(source);
                 ConsistentSnapshot snap = ConsistentSnapshot.open(snapConn, Flavor.MARIADB, null)) {
                problem = plan.hold().reach(tgt, snap.position());
                if (problem != null) {
                    return stalled(status, problem);
                }
                stalls = 0;
                long deadline = System.nanoTime() + slice.toNanos();
                while (index < sums.size() && System.nanoTime() < deadline) {
                    MappedChecksum sum = sums.get(index);
                    MappedChecksum.Mismatch m = sum.compareUntil(snap.connection(), tgt, deadline);
                    if (m != null) {
                        String difference = plan.tables().get(index).target() + ": " + m.describe();
                        LOG.warn("Workflow {}: diff {} at {}: {}", workflow, status.id(), snap.position(), difference);
                        found.add(difference);
                        foundCount += Math.max(1, m.keys().size());
                        sum.skipMismatch(m);
                    }
                    if (sum.done()) {
                        index++;
                    }
                }
                long rows = sums.stream().mapToLong(MappedChecksum::rowsCompared).sum();
                DiffStatus next = status.progressed(snap.position().format(), index, sums.size(), rows, estimate,
                        found, foundCount, System.currentTimeMillis());
                found.clear();
                foundCount = 0;
                if (!next.running()) {
                    LOG.info("Workflow {}: diff {} {}: {} tables, {} rows, {} differences (last slice at {})",
                            workflow, status.id(), next.state(), sums.size(), rows, next.differences(),
                            snap.position());
                }
                return next;
            } finally {
                plan.hold().release(tgt);
            }
        }
    }

    private DiffStatus stalled(DiffStatus status, String why) {
        if (++stalls >= MAX_STALLS) {
            return status.failed("could not hold " + plan.hold().describe() + " at a position " + MAX_STALLS
                    + " times in a row: " + why);
        }
        LOG.info("Workflow {}: diff {}: slice skipped ({}); trying again on the next round", workflow, status.id(),
                why);
        return status.waiting(why + "; trying again");
    }

    /** The source's row estimate of the compared tables (information_schema), or null. */
    private Long estimate(Connection src) throws SQLException {
        long total = 0;
        for (StreamTables.Entry e : plan.tables()) {
            try (PreparedStatement ps = src.prepareStatement("SELECT TABLE_ROWS FROM information_schema.TABLES"
                    + " WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?")) {
                ps.setString(1, e.sourceDatabase());
                ps.setString(2, e.sourceTable());
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next()) {
                        return null;
                    }
                    total += rs.getLong(1);
                }
            }
        }
        return total;
    }
}
