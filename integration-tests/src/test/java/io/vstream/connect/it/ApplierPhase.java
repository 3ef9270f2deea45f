package io.vstream.connect.it;

import io.vstream.connect.testsupport.db.MariaDbServer;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;

/**
 * Where a sink stream's applier stands on one target, read from its applied state there: copying (the rows of the
 * copy it has written so far, the copy not completed) or streaming (the copy completed on every partition). Fault
 * tests wait for the phase they name with these before they inject the fault, instead of sleeping and hoping.
 */
final class ApplierPhase {
    /** One read of the applied state: rows copied (summed over partitions), and whether every copy completed. */
    record State(long rowsCopied, boolean copyCompleted, int partitions) {
        boolean copying() {
            return partitions > 0 && !copyCompleted;
        }
    }

    private ApplierPhase() {
    }

    /** The applied state of {@code stream} on {@code target} (state database {@code _vstream}). */
    static State read(MariaDbServer target, String stream) {
        try (Connection c = target.connect(null); PreparedStatement ps = c.prepareStatement("SELECT"
                + " COALESCE(rows_copied, 0), copy_state FROM _vstream.applied WHERE stream = ?")) {
            ps.setString(1, stream);
            long rows = 0;
            boolean completed = true;
            int partitions = 0;
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    rows += rs.getLong(1);
                    String copy = rs.getString(2);
                    completed &= copy != null && copy.strip().equals("[]");
                    partitions++;
                }
            }
            return new State(rows, partitions > 0 && completed, partitions);
        } catch (SQLException e) {
            return new State(0, false, 0); // the state is not there yet (or the target is restarting)
        }
    }

    /**
     * Waits until the applier has copied at least {@code rows} rows while its copy is still running; fails, naming the
     * phase, when the copy completes first or the bound passes (the fault would not hit the copy).
     */
    static State awaitCopying(MariaDbServer target, String stream, long rows, Duration timeout)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        State s = read(target, stream);
        while (System.nanoTime() < deadline) {
            s = read(target, stream);
            if (s.copyCompleted()) {
                throw new AssertionError("the copy of stream " + stream + " completed (" + s.rowsCopied() + " rows)"
                        + " before " + rows + " rows were copied: the fault meant for the copy would miss it");
            }
            if (s.copying() && s.rowsCopied() >= rows) {
                return s;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("stream " + stream + " did not copy " + rows + " rows within " + timeout
                + "; last state " + s);
    }

    /** Waits until the applier's copy has completed on every partition (it streams from then on). */
    static State awaitStreaming(MariaDbServer target, String stream, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        State s = read(target, stream);
        while (System.nanoTime() < deadline) {
            s = read(target, stream);
            if (s.copyCompleted()) {
                return s;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("the copy of stream " + stream + " did not complete within " + timeout
                + "; last state " + s);
    }
}
