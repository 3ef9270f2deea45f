package io.vstream.connect.sink;

import io.vstream.connect.core.metrics.MBeans;
import javax.management.ObjectName;

/** Registers an applied partition's counters over JMX for as long as the partition is assigned. */
final class ApplierMetrics implements ApplierMetricsMXBean, AutoCloseable {
    private final Applier applier;
    private ObjectName name;
    private final java.util.concurrent.atomic.AtomicLong retries = new java.util.concurrent.atomic.AtomicLong();

    private ApplierMetrics(Applier applier) {
        this.applier = applier;
    }

    static ApplierMetrics register(String connector, Applier applier) {
        ApplierMetrics m = new ApplierMetrics(applier);
        m.name = MBeans.register(m, "sink", "connector=" + MBeans.quote(connector) + ",topic="
                + MBeans.quote(applier.topic()) + ",partition=" + applier.partition());
        return m;
    }

    @Override
    public long getRowsApplied() {
        return applier.rowsApplied();
    }

    @Override
    public long getTransactionsApplied() {
        return applier.transactionsApplied();
    }

    @Override
    public long getLagMs() {
        return applier.lagMs();
    }

    @Override
    public String getAppliedPosition() {
        String p = applier.position();
        return p == null ? "" : p;
    }

    @Override
    public long getAppliedOffset() {
        return applier.appliedOffset();
    }

    @Override
    public long getWriteStatements() {
        return applier.writeStatements();
    }

    @Override
    public long getRowsWritten() {
        return applier.writeRows();
    }

    @Override
    public long getRetries() {
        return retries.get();
    }

    /** A retriable error is retried. */
    void retried() {
        retries.incrementAndGet();
    }

    @Override
    public void close() {
        MBeans.unregister(name);
    }
}
