package io.vstream.connect.coordinator;

import io.vstream.connect.core.position.Flavor;
import io.vstream.connect.core.position.GtidPosition;
import io.vstream.connect.jdbc.AppliedTable;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * A clone's source and target in memory, for {@link CloneWorkflowTest}: the applier's rows and control row, the
 * snapshot's comparison and native replication as plain fields the test sets and reads. No server.
 */
final class FakeCloneServers implements CloneServers {
    SQLException down; // every round's open fails with it
    List<AppliedTable.Row> applied = List.of();
    String sourcePosition = "0-1-100";
    List<String> problems = List.of();
    final List<String> told = new ArrayList<>();
    String command;
    boolean pauses = true;
    boolean reachesStop = true;
    CloneComparison comparison = new CloneComparison(List.of("shop.orders", "shop.items"), List.of("shop"), null);
    RuntimeException compareFails;
    SQLException configureFails;
    boolean configured;
    List<String> replicated;
    GtidPosition replicatedFrom;
    int starts;
    /** Whether a started replication runs and catches up; else it stops with this error. */
    String replicationError;
    Replica replica;
    String replicaPosition = "";
    boolean retired;
    int snapshotsOpen;

    @Override
    public Round open() throws SQLException {
        if (down != null) {
            throw down;
        }
        return new FakeRound();
    }

    @Override
    public void retireApplier() {
        retired = true;
        command = "HANDED_OFF";
    }

    private final class FakeRound implements Round {
        @Override
        public List<AppliedTable.Row> applied() {
            return applied;
        }

        @Override
        public String sourcePosition() {
            return sourcePosition;
        }

        @Override
        public List<String> preflight(boolean started) {
            return problems;
        }

        @Override
        public void tellApplier(String c, String stopAt) {
            told.add(stopAt == null ? c : c + " " + stopAt);
            command = c;
        }

        @Override
        public ApplierChannel.Ack awaitAck(String c, String position) {
            boolean acked = "PAUSE".equals(c) ? pauses : reachesStop;
            return acked ? new ApplierChannel.Ack(c, position == null ? "MariaDB/0-1-90" : position) : null;
        }

        @Override
        public String applierCommand() {
            return command;
        }

        @Override
        public Snapshot snapshot() {
            snapshotsOpen++;
            GtidPosition at = GtidPosition.parse(Flavor.MARIADB, sourcePosition);
            return new Snapshot() {
                @Override
                public GtidPosition position() {
                    return at;
                }

                @Override
                public CloneComparison compare() {
                    if (compareFails != null) {
                        throw compareFails;
                    }
                    return comparison;
                }

                @Override
                public void close() {
                    snapshotsOpen--;
                }
            };
        }

        @Override
        public boolean replicationConfigured() {
            return configured;
        }

        @Override
        public void configureReplication(GtidPosition s, List<String> databases) throws SQLException {
            if (configureFails != null) {
                throw configureFails;
            }
            configured = true;
            replicatedFrom = s;
            replicated = databases;
            replica = new Replica("No", "No", "", "");
        }

        @Override
        public void startReplication() {
            starts++;
            if (replicationError != null) {
                replica = new Replica("Yes", "No", replicationError, "");
                return;
            }
            replica = new Replica("Yes", "Yes", "", "");
            replicaPosition = sourcePosition;
        }

        @Override
        public Replica replica() {
            return replica;
        }

        @Override
        public String replicaPosition() {
            return replicaPosition;
        }

        @Override
        public void close() {
        }
    }
}
