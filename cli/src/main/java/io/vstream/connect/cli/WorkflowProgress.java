package io.vstream.connect.cli;

import io.vstream.connect.core.position.GtidPosition;
import io.vstream.connect.core.position.MariadbGtid;
import io.vstream.connect.core.position.MariadbGtidPosition;
import java.util.List;

/**
 * What {@code vsc status} shows for a workflow beyond the latest status record, computed from successive records:
 * the copy's progress (shard tables copied out of all), applied transactions per second (from the applied GTID
 * positions), and an ETA (from the lag's fall while catching up, or the copy's pace while copying). Row counts are
 * When the coordinator publishes row counts (online DDL), the copy's percent, rows, rows/s and ETA are its own. No I/O.
 */
public record WorkflowProgress(StatusRecord latest, Double copyFraction, Integer copyDone, Integer copyTotal,
                               Double appliedPerSecond, Long etaSeconds, String etaBasis, String throttle,
                               String failure, String note) {

    /** Rates compare the latest record with the oldest one of this window... */
    static final long WINDOW_MS = 15_000;
    /** ...or, when the coordinator wrote nothing in it (it writes at least every 30 s), the youngest of this one. */
    static final long LONG_WINDOW_MS = 60_000;

    /**
     * @param shardCount online DDL: the number of shards (one table each), which is the copy's total; 0 when
     *                   unknown (clone: the most tables ever seen copying is the total)
     * @param readyMaxLag the coordinator's ready.max.lag.transactions (where catching up ends)
     */
    public static WorkflowProgress of(WorkflowHistory h, int shardCount, long readyMaxLag) {
        StatusRecord r = h.latest();
        if (r == null) {
            return new WorkflowProgress(null, null, null, null, null, null, null, null, null, null);
        }
        List<StatusRecord> all = h.records();
        int total = shardCount > 0 ? Math.max(shardCount, h.maxTablesCopying()) : h.maxTablesCopying();
        Double fraction = null;
        Integer done = null;
        StatusRecord basis = r;
        if (r.isFinal() && !"COMPLETE".equals(r.state()) && !"REVERTED".equals(r.state())) {
            basis = lastNotFinal(all); // a failed or cancelled workflow keeps the copy progress it reached
        }
        if (basis != null) {
            switch (basis.state()) {
                case "CREATED" -> fraction = 0.0;
                case "COPYING" -> {
                    if (basis.tablesCopying() != null && total > 0) {
                        done = Math.max(0, total - basis.tablesCopying());
                        fraction = done / (double) total;
                    } else {
                        fraction = 0.0;
                    }
                }
                default -> {
                    fraction = 1.0;
                    done = total > 0 ? total : null;
                }
            }
        }
        if (done == null && fraction != null && fraction == 1.0 && total > 0) {
            done = total;
        }

        Double perSecond = null;
        Long now = transactions(r.appliedPosition());
        StatusRecord earlier = now == null ? null : earlier(all, r, c -> transactions(c.appliedPosition()) != null);
        if (earlier != null) {
            long before = transactions(earlier.appliedPosition());
            if (now >= before) {
                perSecond = (now - before) * 1000.0 / (r.tsMs() - earlier.tsMs());
            }
        }

        Long eta = null;
        String etaBasis = null;
        StatusRecord lagBefore = r.lagTransactions() == null ? null
                : earlier(all, r, c -> c.lagTransactions() != null && "CATCHING_UP".equals(c.state()));
        if ("CATCHING_UP".equals(r.state()) && lagBefore != null && r.lagTransactions() < lagBefore.lagTransactions()) {
            double fallPerMs = (lagBefore.lagTransactions() - r.lagTransactions())
                    / (double) (r.tsMs() - lagBefore.tsMs());
            eta = Math.round(Math.max(0, r.lagTransactions() - readyMaxLag) / fallPerMs / 1000.0);
            etaBasis = "until ready, from the lag's fall";
        } else if ("COPYING".equals(r.state()) && fraction != null && fraction > 0 && fraction < 1
                && h.copyStartedMs() != null) {
            // the copy's pace until it reached this fraction, counted down from then
            long reached = reachedAt(all, r);
            long took = reached - h.copyStartedMs();
            if (took > 0) {
                eta = Math.max(0, Math.round((took * (1 - fraction) / fraction - (r.tsMs() - reached)) / 1000.0));
                etaBasis = "until copied, at the pace of the tables copied so far";
            }
        } else if ("COMPLETE".equals(r.state()) || "REVERTIBLE".equals(r.state()) || "REVERTED".equals(r.state())) {
            eta = 0L; // REVERTIBLE: the ALTER is done, the reverse stream runs until its window ends
        }

        StatusRecord.Rows rows = r.rows() == null ? StatusRecord.Rows.NONE : r.rows();
        if ("COPYING".equals(r.state()) && rows.percent() != null) {
            fraction = Math.min(1.0, rows.percent() / 100.0); // the coordinator's count of rows beats tables
            // the coordinator's ETA beats the tables' pace; it has none while the rate is unknown or zero
            eta = rows.etaMs() == null ? null : Math.round(rows.etaMs() / 1000.0);
            etaBasis = rows.etaMs() == null ? null : "until copied, from the rows copied per second";
        }
        String reason = r.reason();
        String throttle = rows.throttleReason() != null ? rows.throttleReason()
                : reason != null && reason.startsWith("copy throttled") ? reason : null;
        if (throttle != null && "COPYING".equals(r.state()) && rows.percent() == null) {
            eta = null; // the tables' pace says nothing of a copy that waits: no "ETA 0:00"
            etaBasis = null;
        }
        String failure = "FAILED".equals(r.state()) ? reason : null;
        String note = reason != null && throttle == null && failure == null ? reason : null;
        return new WorkflowProgress(r, fraction, done, total > 0 ? total : null, perSecond, eta, etaBasis, throttle,
                failure, note);
    }

    private static StatusRecord lastNotFinal(List<StatusRecord> all) {
        for (int i = all.size() - 1; i >= 0; i--) {
            if (!all.get(i).isFinal()) {
                return all.get(i);
            }
        }
        return null;
    }

    /**
     * The record to measure a rate against: the oldest that {@code usable} accepts at least one second before
     * {@code latest} and within {@link #WINDOW_MS}, else the youngest within {@link #LONG_WINDOW_MS}; or null.
     */
    private static StatusRecord earlier(List<StatusRecord> all, StatusRecord latest,
                                        java.util.function.Predicate<StatusRecord> usable) {
        StatusRecord pick = null;
        for (int i = all.size() - 1; i >= 0; i--) {
            StatusRecord c = all.get(i);
            long age = latest.tsMs() - c.tsMs();
            if (age > LONG_WINDOW_MS || (age > WINDOW_MS && pick != null)) {
                break;
            }
            if (age >= 1_000 && usable.test(c) && (pick == null || age <= WINDOW_MS)) {
                pick = c;
            }
        }
        return pick;
    }

    /** When the copy first had as many tables left as {@code latest} says (the start of the latest run of them). */
    private static long reachedAt(List<StatusRecord> all, StatusRecord latest) {
        long at = latest.tsMs();
        for (int i = all.size() - 1; i >= 0; i--) {
            StatusRecord c = all.get(i);
            if (!"COPYING".equals(c.state()) || !java.util.Objects.equals(c.tablesCopying(), latest.tablesCopying())) {
                break;
            }
            at = c.tsMs();
        }
        return at;
    }

    /**
     * The number of transactions a position holds, summed over its shards: {@code MariaDB/0-1-42} holds 42; an
     * online DDL's {@code -80:MariaDB/0-1-42 80-:MariaDB/0-2-17} holds 59. Null for MySQL56 positions (not counted)
     * or anything unparsable.
     */
    static Long transactions(String position) {
        if (position == null || position.isBlank()) {
            return null;
        }
        long sum = 0;
        for (String token : position.strip().split("\\s+")) {
            int at = token.indexOf("MariaDB/");
            if (at < 0) {
                return null;
            }
            try {
                GtidPosition p = GtidPosition.parse(token.substring(at));
                if (!(p instanceof MariadbGtidPosition m)) {
                    return null;
                }
                for (MariadbGtid g : m.gtids()) {
                    sum += g.sequence();
                }
            } catch (IllegalArgumentException e) {
                return null;
            }
        }
        return sum;
    }
}
