package io.vstream.connect.testsupport.connect;

import org.apache.kafka.connect.runtime.rest.entities.ConnectorStateInfo;

/**
 * The stack trace of a connector that FAILED, or of its first FAILED task, from its status as the REST API reports it:
 * one reading for the tests (an in-process cluster) and the benchmark (separate worker processes). A connector fails
 * itself in {@code start()} (e.g. a refused configuration), a task in its work.
 */
public final class ConnectorFailures {
    private ConnectorFailures() {
    }

    /** The trace of the connector if it FAILED, else of its first FAILED task; null when nothing failed. */
    public static String trace(ConnectorStateInfo status) {
        if (status == null) {
            return null;
        }
        if ("FAILED".equals(status.connector().state())) {
            return status.connector().trace();
        }
        for (ConnectorStateInfo.TaskState task : status.tasks()) {
            if ("FAILED".equals(task.state())) {
                return task.trace();
            }
        }
        return null;
    }
}
