package io.vstream.connect.it;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * A workflow's coordinator metrics as the in-process Connect cluster registers them
 * ({@code io.vstream.connect:type=coordinator,workflow=<name>}, docs/monitoring.md): here, the write block of its last
 * cut-over as the coordinator measured it (LOCK TABLES acquired to UNLOCK TABLES returned, the longest shard), which a
 * test asserts instead of the time a client's write took (that time also counts a loaded machine's scheduling).
 */
final class CoordinatorJmx {
    private CoordinatorJmx() {
    }

    /**
     * The write block of the workflow's last cut-over, in milliseconds, once its coordinator reports one (it publishes
     * the status that follows the swap, then updates the metric); fails after {@code timeout}.
     */
    static long awaitLastWriteBlockMs(String workflow, Duration timeout) throws Exception {
        ObjectName name = new ObjectName("io.vstream.connect:type=coordinator,workflow=" + ObjectName.quote(workflow));
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            if (server.isRegistered(name)) {
                long ms = (Long) server.getAttribute(name, "LastCutOverWriteBlockMs");
                if (ms >= 0) {
                    return ms;
                }
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the coordinator of workflow " + workflow + " reported no cut-over write"
                        + " block within " + timeout + " (" + name + ")");
            }
            Thread.sleep(100);
        }
    }
}
