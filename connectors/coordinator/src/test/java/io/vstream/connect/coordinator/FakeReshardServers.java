package io.vstream.connect.coordinator;

import io.vstream.connect.core.reshard.Journal;
import io.vstream.connect.jdbc.AppliedTable;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A reshard's old and new shards in memory, for {@link ReshardWorkflowTest}: positions, read_only, the journal, the
 * appliers' applied rows and lanes as plain fields the test sets and reads. No server.
 */
final class FakeReshardServers implements ReshardServers {
    SQLException down; // every round's open fails with it
    final Map<String, List<AppliedTable.Row>> applied = new HashMap<>(); // per new shard
    final Map<String, String> oldPositions = new HashMap<>();
    final Map<String, String> newPositions = new HashMap<>();
    List<String> problems = List.of();
    Boolean preflightSawStarted;
    boolean readOnly;
    final List<Boolean> readOnlySet = new ArrayList<>();
    Journal journal; // held by the shards once written
    int journalWrites;
    final Set<String> retired = new LinkedHashSet<>();
    final Map<String, String> lanes = new HashMap<>(); // "new<old" -> command
    long estimate = 1000;

    @Override
    public Round open() throws SQLException {
        if (down != null) {
            throw down;
        }
        return new Round() {
            @Override
            public List<AppliedTable.Row> applied(String newShard) {
                return applied.getOrDefault(newShard, List.of());
            }

            @Override
            public String oldPosition(String oldShard) {
                return oldPositions.getOrDefault(oldShard, "MariaDB/");
            }

            @Override
            public String newPosition(String newShard) {
                return newPositions.getOrDefault(newShard, "MariaDB/");
            }

            @Override
            public List<String> preflight(boolean applierStarted) {
                preflightSawStarted = applierStarted;
                return problems;
            }

            @Override
            public void readOnly(boolean on) {
                readOnly = on;
                readOnlySet.add(on);
            }

            @Override
            public Optional<Journal> journal(long id) {
                return journal != null && journal.id() == id ? Optional.of(journal) : Optional.empty();
            }

            @Override
            public void journal(Journal j) {
                journal = j;
                journalWrites++;
                retired.addAll(applied.keySet());
            }

            @Override
            public void retireApplier(String newShard) {
                retired.add(newShard);
            }

            @Override
            public long estimateRows() {
                return estimate;
            }

            @Override
            public String laneCommand(String newShard, String oldShard) {
                return lanes.get(newShard + "<" + oldShard);
            }

            @Override
            public void runLane(String newShard, String oldShard) {
                lanes.put(newShard + "<" + oldShard, "RUN");
            }

            @Override
            public void close() {
            }
        };
    }
}
