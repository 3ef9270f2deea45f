package io.vstream.connect.coordinator;

import io.vstream.connect.core.metrics.MBeans;
import javax.management.ObjectName;

/**
 * Publishes a workflow's state and progress over JMX as the coordinator task emits them (the same values as its
 * status record), registered while the task runs.
 */
final class CoordinatorMetrics implements CoordinatorMetricsMXBean, AutoCloseable {
    private volatile WorkflowStatus status = WorkflowStatus.START;
    private volatile StatusRecords.Progress progress = StatusRecords.Progress.NONE;
    private volatile DiffStatus diff;
    private volatile long writeBlockMs = -1;
    private ObjectName name;

    static CoordinatorMetrics register(String workflow) {
        CoordinatorMetrics m = new CoordinatorMetrics();
        m.name = MBeans.register(m, "coordinator", "workflow=" + MBeans.quote(workflow));
        return m;
    }

    void update(WorkflowStatus s, StatusRecords.Progress p, DiffStatus d, long lastWriteBlockMs) {
        status = s;
        progress = p;
        diff = d;
        writeBlockMs = lastWriteBlockMs;
    }

    @Override
    public String getState() {
        return status.state().name();
    }

    @Override
    public int getStateCode() {
        return status.state().ordinal();
    }

    @Override
    public long getRowsCopied() {
        return orMinusOne(progress.rowsCopied());
    }

    @Override
    public long getRowsTotalEstimate() {
        return orMinusOne(progress.rowsTotal());
    }

    @Override
    public double getProgressPercent() {
        Double p = progress.progressPct();
        return p == null ? -1 : p;
    }

    @Override
    public double getRowsPerSecond() {
        Double r = progress.rowsPerSecond();
        return r == null ? -1 : r;
    }

    @Override
    public long getEtaMs() {
        return orMinusOne(progress.etaMs());
    }

    @Override
    public long getLagMs() {
        return orMinusOne(progress.lagMs());
    }

    @Override
    public long getLagTransactions() {
        return orMinusOne(progress.lagTransactions());
    }

    @Override
    public int getTablesCopying() {
        Integer t = progress.tablesCopying();
        return t == null ? -1 : t;
    }

    @Override
    public boolean getThrottled() {
        return progress.throttleReason() != null;
    }

    @Override
    public String getThrottleKind() {
        return throttleKind(progress.throttleReason());
    }

    /** The throttle's reason as a label value (the reasons' texts hold numbers that change every round). */
    static String throttleKind(String reason) {
        if (reason == null || reason.isBlank()) {
            return "none";
        }
        if (reason.contains("paused by the operator")) {
            return "paused";
        }
        if (reason.contains("replica")) {
            return "replica_lag";
        }
        if (reason.contains("applier")) {
            return "applier_lag";
        }
        return "other";
    }

    @Override
    public int getCutOverAttempts() {
        return status.attempts();
    }

    @Override
    public long getLastCutOverWriteBlockMs() {
        return writeBlockMs;
    }

    @Override
    public long getDiffDifferences() {
        DiffStatus d = diff;
        return d == null ? -1 : d.differences();
    }

    @Override
    public String getDiffState() {
        DiffStatus d = diff;
        return d == null ? "none" : d.state();
    }

    private static long orMinusOne(Long v) {
        return v == null ? -1 : v;
    }

    @Override
    public void close() {
        MBeans.unregister(name);
    }
}
