package io.vstream.connect.core.metrics;

import java.lang.management.ManagementFactory;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Registers and unregisters our MBeans in the platform MBean server ({@code io.vstream.connect:type=...}), replacing a
 * stale registration of the same name (a task restarted in the same worker) and never failing the caller: metrics are
 * worth a warning, not a failed task.
 */
public final class MBeans {
    private static final Logger LOG = LoggerFactory.getLogger(MBeans.class);

    private MBeans() {
    }

    /**
     * Registers {@code mbean} as {@code io.vstream.connect:type=<type>,<keyProperties>}; returns the name, or
     * {@code null} when it could not be registered. Values in {@code keyProperties} must already be quoted.
     */
    public static ObjectName register(Object mbean, String type, String keyProperties) {
        try {
            ObjectName name = new ObjectName("io.vstream.connect:type=" + type + "," + keyProperties);
            MBeanServer server = ManagementFactory.getPlatformMBeanServer();
            if (server.isRegistered(name)) {
                server.unregisterMBean(name);
            }
            server.registerMBean(mbean, name);
            return name;
        } catch (Exception e) {
            LOG.warn("Could not register JMX metrics {} ({})", keyProperties, e.toString());
            return null;
        }
    }

    public static void unregister(ObjectName name) {
        if (name == null) {
            return;
        }
        try {
            ManagementFactory.getPlatformMBeanServer().unregisterMBean(name);
        } catch (Exception e) {
            LOG.debug("unregister {} failed", name, e);
        }
    }

    /** A quoted key property value. */
    public static String quote(String value) {
        return ObjectName.quote(value);
    }
}
