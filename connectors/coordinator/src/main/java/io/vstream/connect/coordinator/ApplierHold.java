package io.vstream.connect.coordinator;

import io.vstream.connect.core.position.GtidPosition;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;

/**
 * Holds a target fed by the workflow's applier (the sink) through its control row, as the hand-off's checksum does:
 * {@code PAUSE}, then {@code STOP_AT S}, then {@code RUN}. The application's writes on the source are never held;
 * only the target waits (its lag grows by the slice's time).
 */
final class ApplierHold implements TargetHold {
    private final ApplierChannel applier;
    private final String stream;
    private final Duration timeout;

    ApplierHold(ApplierChannel applier, String stream, Duration timeout) {
        this.applier = applier;
        this.stream = stream;
        this.timeout = timeout;
    }

    @Override
    public String describe() {
        return "the applier stream '" + stream + "'";
    }

    @Override
    public String hold(Connection target) throws SQLException, InterruptedException {
        applier.command(target, "PAUSE", null);
        if (applier.awaitAck(target, "PAUSE", null, timeout) == null) {
            release(target);
            return "the applier did not pause within " + timeout.toMillis() + " ms";
        }
        return null;
    }

    @Override
    public String reach(Connection target, GtidPosition s) throws SQLException, InterruptedException {
        String at = s.format();
        applier.command(target, "STOP_AT", at);
        return applier.awaitAck(target, "STOP_AT", at, timeout) == null
                ? "the applier did not stop at " + at + " within " + timeout.toMillis() + " ms" : null;
    }

    @Override
    public void release(Connection target) throws SQLException {
        applier.command(target, "RUN", null);
    }
}
