package io.vstream.connect.coordinator;

import io.vstream.connect.core.position.Flavor;
import io.vstream.connect.jdbc.ConsistentSnapshot;
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
 * slice works on one {@link DiffPlan.Part}: it holds the part's target ({@link TargetHold}), opens a consistent
 * snapshot of the part's source at S, lets the target run to exactly S, and compares table after table chunk by
 * chunk ({@link MappedChecksum}) for at most the slice's time; then the target runs again until the next slice. A
 * chunk that differs is compared row by row and its keys are named; the diff goes on past it. Reads only, besides
 * holding the target.
 */
final class DiffRun {
    private static final Logger LOG = LoggerFactory.getLogger(DiffRun.class);
    static final int MAX_STALLS = 5;

    private final String workflow;
    private final DiffPlan plan;
    private final Duration slice;
    private final List<List<MappedChecksum>> sums = new ArrayList<>(); // per part, per table; empty until prepared
    private Long estimate;
    private int part;
    private int table; // within the part
    private int tablesDone;
    private long rowsBefore; // rows compared in the parts done
    private int stalls;
    private final List<String> found = new ArrayList<>(); // differences not yet in a published status
    private long foundCount;

    DiffRun(String workflow, DiffPlan plan, Duration slice) {
        this.workflow = workflow;
        this.plan = plan;
        this.slice = slice;
    }

    String kind() {
        return plan.kind();
    }

    /** Runs one slice and returns the diff's status after it. */
    DiffStatus slice(DiffStatus status) throws SQLException, InterruptedException {
        if (plan.tableCount() == 0) {
            return status.failed("the workflow's target holds no table yet (its sink records each table it takes):"
                    + " nothing to compare");
        }
        if (sums.isEmpty()) {
            DiffStatus failed = prepare(status);
            if (failed != null) {
                return failed;
            }
        }
        DiffPlan.Part p = plan.parts().get(part);
        List<MappedChecksum> partSums = sums.get(part);
        try (Connection tgt = Servers.open(p.target())) {
            String problem = p.hold().hold(tgt);
            if (problem != null) {
                return stalled(status, p, problem);
            }
            try (Connection snapConn = Servers.open(p.source());
                 ConsistentSnapshot snap = ConsistentSnapshot.open(snapConn, Flavor.MARIADB, null)) {
                problem = p.hold().reach(tgt, snap.position());
                if (problem != null) {
                    return stalled(status, p, problem);
                }
                stalls = 0;
                long deadline = System.nanoTime() + slice.toNanos();
                while (table < partSums.size() && System.nanoTime() < deadline) {
                    MappedChecksum sum = partSums.get(table);
                    MappedChecksum.Mismatch m = sum.compareUntil(snap.connection(), tgt, deadline);
                    if (m != null) {
                        String difference = where(p, p.tables().get(table)) + ": " + m.describe();
                        LOG.warn("Workflow {}: diff {} at {}: {}", workflow, status.id(), snap.position(), difference);
                        found.add(difference);
                        foundCount += Math.max(1, m.keys().size());
                        sum.skipMismatch(m);
                    }
                    if (sum.done()) {
                        table++;
                        tablesDone++;
                    }
                }
                long rows = rowsBefore + partSums.stream().mapToLong(MappedChecksum::rowsCompared).sum();
                if (table >= partSums.size() && part + 1 < plan.parts().size()) {
                    part++;
                    table = 0;
                    rowsBefore = rows;
                }
                DiffStatus next = status.progressed(snap.position().format(), tablesDone, plan.tableCount(), rows,
                        estimate, found, foundCount, System.currentTimeMillis());
                found.clear();
                foundCount = 0;
                if (!next.running()) {
                    LOG.info("Workflow {}: diff {} {}: {} tables, {} rows, {} differences (last slice at {})",
                            workflow, status.id(), next.state(), plan.tableCount(), rows, next.differences(),
                            snap.position());
                }
                return next;
            } finally {
                p.hold().release(tgt);
            }
        }
    }

    /** Reads every table pair's definitions and the source's row estimate; a missing table fails the diff. */
    private DiffStatus prepare(DiffStatus status) throws SQLException {
        long total = 0;
        boolean known = true;
        for (DiffPlan.Part p : plan.parts()) {
            List<MappedChecksum> partSums = new ArrayList<>();
            try (Connection src = Servers.open(p.source()); Connection tgt = Servers.open(p.target())) {
                for (DiffPlan.Table t : p.tables()) {
                    MappedChecksum sum;
                    try {
                        sum = t.preparer().prepare(src, tgt);
                    } catch (IllegalArgumentException missing) {
                        sums.clear();
                        return status.failed(where(p, t) + ": " + missing.getMessage());
                    }
                    if (!sum.uncovered().isEmpty()) {
                        found.add(where(p, t) + ": columns not on both sides with comparable types: "
                                + sum.uncovered());
                        foundCount++;
                    }
                    partSums.add(sum);
                    Long rows = estimate(src, t);
                    known &= rows != null;
                    total += rows == null ? 0 : Math.round(rows * t.share());
                }
            }
            sums.add(partSums);
        }
        estimate = known ? total : null;
        LOG.info("Workflow {}: diff {} of {} tables in {} part(s) (about {} rows)", workflow, status.id(),
                plan.tableCount(), plan.parts().size(), estimate);
        return null;
    }

    private static String where(DiffPlan.Part p, DiffPlan.Table t) {
        return p.name() == null ? t.label() : "shard " + p.name() + ": " + t.label();
    }

    private DiffStatus stalled(DiffStatus status, DiffPlan.Part p, String why) {
        if (++stalls >= MAX_STALLS) {
            return status.failed("could not hold " + p.hold().describe() + (p.name() == null ? "" : " on shard "
                    + p.name()) + " at a position " + MAX_STALLS + " times in a row: " + why);
        }
        LOG.info("Workflow {}: diff {}: slice skipped ({}); trying again on the next round", workflow, status.id(),
                why);
        return status.waiting(why + "; trying again");
    }

    /** The source's row estimate of a table (information_schema), or null. */
    private static Long estimate(Connection src, DiffPlan.Table t) throws SQLException {
        try (PreparedStatement ps = src.prepareStatement("SELECT TABLE_ROWS FROM information_schema.TABLES"
                + " WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?")) {
            ps.setString(1, t.sourceDatabase());
            ps.setString(2, t.sourceTable());
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getLong(1) : null;
            }
        }
    }
}
