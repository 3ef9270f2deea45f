package io.vstream.connect.sink;

import java.lang.management.ManagementFactory;
import javax.management.ObjectName;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Registers an applied partition's counters over JMX for as long as the partition is assigned. */
final class ApplierMetrics implements ApplierMetricsMXBean, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ApplierMetrics.class);

    private final PartitionApplier applier;
    private ObjectName name;

    private ApplierMetrics(PartitionApplier applier) {
        this.applier = applier;
    }

    static ApplierMetrics register(String connector, PartitionApplier applier) {
        ApplierMetrics m = new ApplierMetrics(applier);
        try {
            ObjectName n = new ObjectName("io.vstream.connect:type=sink,connector=" + ObjectName.quote(connector)
                    + ",topic=" + ObjectName.quote(applier.topic()) + ",partition=" + applier.partition());
            var server = ManagementFactory.getPlatformMBeanServer();
            if (server.isRegistered(n)) {
                server.unregisterMBean(n);
            }
            server.registerMBean(m, n);
            m.name = n;
        } catch (Exception e) {
            LOG.warn("Could not register JMX metrics for {}-{}: {}", applier.topic(), applier.partition(),
                    e.toString());
        }
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
    public void close() {
        if (name != null) {
            try {
                ManagementFactory.getPlatformMBeanServer().unregisterMBean(name);
            } catch (Exception e) {
                LOG.debug("unregister {} failed", name, e);
            }
        }
    }
}
