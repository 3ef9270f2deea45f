package io.vstream.connect.coordinator;

import io.vstream.connect.coordinator.copy.GhostCopyState;
import io.vstream.connect.coordinator.ddl.AlterPlan;
import io.vstream.connect.coordinator.ddl.AlterRefusedException;
import io.vstream.connect.coordinator.ddl.InstantAlter;
import io.vstream.connect.core.mapping.ColumnMapping;
import io.vstream.connect.jdbc.AppliedTable;
import io.vstream.connect.jdbc.MigrationPlans;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The servers of an online DDL in memory, for {@link OnlineDdlWorkflowTest}: each shard's tables, plans, applier and
 * copy as plain fields the test sets and reads; the checksum's slices, the cut-over's attempts and the server copies
 * scripted. No server.
 */
final class FakeOnlineDdlServers implements OnlineDdlServers {
    static final String DB = "shop";
    static final String TABLE = "orders";
    static final String GHOST = "_orders_gho";
    static final String OLD = "_orders_del";

    final Map<String, Shard> shards = new LinkedHashMap<>();
    /** Per checksum key and shard: the slices before the last (which compares to the end and finds no difference). */
    final Map<String, Map<String, Deque<CutOverChecksum.Slice>>> slices = new HashMap<>();
    /** The outcome of each cut-over attempt in turn: null swaps every shard, else why not; empty: they swap. */
    final Deque<String> attempts = new ArrayDeque<>();
    /** The checksum key and shards of each attempt made. */
    final List<String> attempted = new ArrayList<>();
    final Copies copies = new Copies();
    final List<String> discarded = new ArrayList<>();
    boolean closed;

    FakeOnlineDdlServers(String... names) {
        for (String n : names) {
            shards.put(n, new Shard());
        }
    }

    Shard shard(String name) {
        return shards.get(name);
    }

    @Override
    public OnlineDdlShard open(String shard) throws SQLException {
        Shard s = shards.get(shard);
        if (s.down != null) {
            throw s.down;
        }
        return s;
    }

    @Override
    public OnlineDdlShard round(String shard) throws SQLException {
        return open(shard);
    }

    @Override
    public void discardRound(String shard) {
        discarded.add(shard);
    }

    @Override
    public ChecksumSlices checksum(String key) {
        Map<String, Deque<CutOverChecksum.Slice>> byShard = slices.computeIfAbsent(key, k -> new HashMap<>());
        Set<String> done = new HashSet<>();
        return new ChecksumSlices() {
            @Override
            public boolean done(String shard) {
                return done.contains(shard);
            }

            @Override
            public CutOverChecksum.Slice slice(String shard) {
                Deque<CutOverChecksum.Slice> left = byShard.getOrDefault(shard, new ArrayDeque<>());
                if (!left.isEmpty()) {
                    return left.poll(); // a slice before the last
                }
                done.add(shard);
                return new CutOverChecksum.Slice(null, null);
            }
        };
    }

    /** Puts {@code slices} before the end of the checksum of {@code key} on {@code shard}. */
    void slices(String key, String shard, CutOverChecksum.Slice... s) {
        slices.computeIfAbsent(key, k -> new HashMap<>()).computeIfAbsent(shard, k -> new ArrayDeque<>())
                .addAll(List.of(s));
    }

    @Override
    public String attemptCutOver(OnlineDdlCutOver cutOver, List<String> names) {
        attempted.add(cutOver.migration() + " " + names);
        String failure = attempts.isEmpty() ? null : attempts.poll();
        if (failure == null) {
            for (String n : names) {
                Shard s = shards.get(n);
                MigrationPlans.Plan plan = s.plans.get(cutOver.migration());
                s.tables.remove(plan.ghostTable()); // the swap: the ghost (or the follower) takes the table's name
            }
        }
        return failure;
    }

    @Override
    public ShardCopies copies() {
        return copies;
    }

    @Override
    public void close() {
        closed = true;
    }

    /** An ALTER's plan on the test table (adds a column). */
    static AlterPlan alterPlan(String alter) {
        return new AlterPlan(DB, TABLE, GHOST, alter, ColumnMapping.identity(List.of("id", "total")), List.of("id"),
                List.of(), List.of(), "CREATE TABLE orders (id INT PRIMARY KEY, total INT)",
                "CREATE TABLE _orders_gho (id INT PRIMARY KEY, total INT, note TEXT)");
    }

    /** A direction plan whose table {@code table} is followed by {@code follower}. */
    static MigrationPlans.Plan direction(String key, String follower) {
        return new MigrationPlans.Plan(key, DB, TABLE, follower, ColumnMapping.identity(List.of("id", "total")),
                List.of("id"), false);
    }

    /** An applied row at {@code position}, {@code lagMs} behind. */
    static AppliedTable.Row applied(String position, String copyState, long lagMs, Long rowsCopied) {
        return new AppliedTable.Row("stream.shop." + "x", 0, position, copyState,
                System.currentTimeMillis() - lagMs, rowsCopied);
    }

    /** One shard in memory. */
    static final class Shard implements OnlineDdlShard {
        SQLException down; // every open fails with it
        List<String> problems = List.of();
        /** Why the server cannot run the ALTER instantly (null: it can); each question counted in probes. */
        String instantRefusal = "ALGORITHM=INSTANT is not supported for this operation";
        SQLException probeFails; // the question fails with it (a lost connection: still open)
        int probes;
        String longTransaction; // an open transaction the instant ALTER waits for, or null
        final Deque<SQLException> instantFails = new ArrayDeque<>(); // each instant ALTER in turn fails with the next
        boolean appliedBeforeFailing; // a failing instant ALTER was applied all the same (its outcome lost)
        boolean appliedInstantly; // recorded in the state database
        String instantStarted; // the definition recorded before a try ran the ALTER
        String definition = "before"; // the table's definition: "after" once the instant ALTER is applied
        int instantAlters;
        Exception analyzeFails; // an SQLException or AlterRefusedException
        AlterPlan analyzed = alterPlan("ADD COLUMN note TEXT");
        boolean revertible = true;
        boolean directionPlans;
        final Map<String, MigrationPlans.Plan> plans = new HashMap<>();
        final Set<String> tables = new HashSet<>(Set.of(TABLE));
        final List<String> deferred = new ArrayList<>();
        final List<String> told = new ArrayList<>();
        final List<String> dropped = new ArrayList<>();
        final List<String> throttled = new ArrayList<>();
        boolean migrationForgotten;
        boolean copyForgotten;
        String failure;
        List<AppliedTable.Row> applied = List.of();
        GhostCopyState.Summary copy = new GhostCopyState.Summary(true, 0, true, true); // copied, keys built
        MigrationPlans.Direction direction;
        Instant now = Instant.parse("2026-01-01T00:00:10Z");
        boolean caughtUp = true;
        boolean reachesStop = true;

        @Override
        public List<String> preflight() {
            return problems;
        }

        @Override
        public boolean appliedInstantly() {
            return appliedInstantly;
        }

        @Override
        public InstantAlter.Probe instantProbe(String body) throws SQLException {
            probes++;
            if (probeFails != null) {
                throw probeFails;
            }
            return new InstantAlter.Probe(instantRefusal, instantRefusal == null ? "after" : null);
        }

        @Override
        public String tableDefinition() {
            return definition;
        }

        @Override
        public String instantStarted() {
            return appliedInstantly ? null : instantStarted;
        }

        @Override
        public void saveInstantStarted(String definition) {
            instantStarted = definition;
        }

        @Override
        public void forgetInstantStarted() {
            instantStarted = null;
        }

        @Override
        public String longTransaction(Duration age) {
            return longTransaction;
        }

        @Override
        public void alterInstantly(String body, Duration lockWait) throws SQLException {
            instantAlters++;
            if (!instantFails.isEmpty()) {
                if (appliedBeforeFailing) {
                    definition = "after";
                }
                throw instantFails.poll();
            }
            definition = "after";
        }

        @Override
        public void saveInstant() {
            appliedInstantly = true;
        }

        @Override
        public AlterPlan analyze() throws SQLException, AlterRefusedException {
            if (analyzeFails instanceof SQLException e) {
                throw e;
            }
            if (analyzeFails instanceof AlterRefusedException e) {
                throw e;
            }
            tables.add(analyzed.ghost());
            return analyzed;
        }

        @Override
        public void saveRevertPlan(AlterPlan plan) {
            directionPlans = revertible;
        }

        @Override
        public List<String> deferIndexes(AlterPlan plan) {
            deferred.add("note_idx");
            return List.of("note_idx");
        }

        @Override
        public String savePlan(AlterPlan plan) {
            plans.put(WorkflowFixtures.MIGRATION, new MigrationPlans.Plan(WorkflowFixtures.MIGRATION, plan.database(),
                    plan.table(), plan.ghost(), plan.mapping(), plan.sharedKey(), plan.writesByDelete()));
            return null;
        }

        @Override
        public void dropGhost(AlterPlan plan) {
            tables.remove(plan.ghost());
            dropped.add(plan.ghost());
            plans.remove(WorkflowFixtures.MIGRATION);
        }

        @Override
        public MigrationPlans.Plan plan(String key) {
            return plans.get(key);
        }

        @Override
        public boolean hasDirectionPlans() {
            return directionPlans;
        }

        @Override
        public MigrationPlans.Direction activeDirection() {
            return direction;
        }

        @Override
        public boolean hasTable(String database, String table) {
            return DB.equals(database) && tables.contains(table);
        }

        @Override
        public void dropGhostTable(String database, String ghost) {
            tables.remove(ghost);
            dropped.add(ghost);
        }

        @Override
        public void dropTable(String database, String table) {
            tables.remove(table);
            dropped.add(table);
        }

        @Override
        public void forgetCopy() {
            copyForgotten = true;
        }

        @Override
        public void forgetMigration() {
            migrationForgotten = true;
            plans.remove(WorkflowFixtures.MIGRATION);
        }

        @Override
        public void tellApplier(String command) {
            told.add(command);
        }

        @Override
        public String applierFailure() {
            return failure;
        }

        @Override
        public List<AppliedTable.Row> applied() {
            return applied;
        }

        @Override
        public void throttle(String why) {
            throttled.add(String.valueOf(why));
        }

        @Override
        public boolean awaitCaughtUp(Duration timeout) {
            return caughtUp;
        }

        @Override
        public boolean awaitApplied(String position, Duration timeout) {
            told.add("STOP_AT " + position);
            return reachesStop;
        }

        @Override
        public long estimateRows() {
            return 1000;
        }

        @Override
        public String binlogPosition() {
            return "0-1-100";
        }

        @Override
        public GhostCopyState.Summary copySummary() {
            return copy;
        }

        @Override
        public Instant serverNow() {
            return now;
        }

        @Override
        public void close() {
        }

        String lastTold() {
            return told.isEmpty() ? null : told.get(told.size() - 1);
        }
    }

    /** The server copies as the workflow follows them: each shard's reason to wait, or a copy that failed. */
    static final class Copies implements ShardCopies {
        final Map<String, String> followed = new LinkedHashMap<>();
        String hold;
        String fails;
        boolean closed;
        boolean awaiting;

        @Override
        public void roundStarts() {
        }

        @Override
        public void awaitingApplier(boolean awaiting) {
            this.awaiting = awaiting;
        }

        @Override
        public String follow(String shard, GhostCopyState.Summary copy, String why) {
            followed.put(shard, String.valueOf(why));
            return fails;
        }

        @Override
        public String hold() {
            return hold;
        }

        @Override
        public void close() {
            closed = true;
        }

        @Override
        public boolean wantsRound() {
            return false;
        }
    }
}
