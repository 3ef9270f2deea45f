package io.vstream.connect.bench;

import io.vstream.connect.local.compare.ComparisonResult;
import io.vstream.connect.local.compare.RowDifference;
import io.vstream.connect.local.load.WriteLoad;
import io.vstream.connect.testsupport.db.MariaDbServer;
import java.util.ArrayList;
import java.util.List;

/**
 * After each migration of the stress command, with the write load stopped and the connectors deleted: every shard's
 * table against the writers' model (every acknowledged write present, nothing else, row by row: local-runtime's
 * {@code WriteLoad.verifyShard}), the ALTER's schema on every shard, then the clean-up for the next migration
 * ({@code DROP TABLE orders_old}; after a migration that did not complete, its ghost table too). Reads and writes the
 * shards' servers.
 */
final class StressCheck {
    /** Differences kept for the report, per shard. */
    private static final int SHOWN = 10;

    /**
     * What the checks found.
     *
     * @param differences    rows that differ from the model, over the shards
     * @param detail         the first of them per shard, or ""
     * @param schemaProblems what of the ALTER's schema is missing, or null
     * @param cleanup        what the clean-up did
     */
    record Result(long differences, String detail, String schemaProblems, String cleanup) {
    }

    private StressCheck() {
    }

    static Result run(WriteLoad load, List<MariaDbServer> servers, List<String> shardNames, String database,
                      String table, String ghost, StressAlters.Alter alter, boolean completed) {
        long differences = 0;
        StringBuilder detail = new StringBuilder();
        for (int i = 0; i < servers.size(); i++) {
            ComparisonResult r;
            try {
                r = load.verifyShard(i, table);
            } catch (RuntimeException e) {
                differences++;
                detail.append(detail.length() == 0 ? "" : "; ").append("shard ").append(shardNames.get(i))
                        .append(": cannot be compared with the model: ").append(e.getMessage());
                continue;
            }
            if (!r.isEqual()) {
                differences += r.differenceCount();
                List<String> rows = new ArrayList<>();
                for (RowDifference d : r.differences().subList(0, Math.min(SHOWN, r.differences().size()))) {
                    rows.add(d.toString());
                }
                detail.append(detail.length() == 0 ? "" : "; ").append("shard ").append(shardNames.get(i))
                        .append(": ").append(r.differenceCount()).append(" row(s) differ from the model ")
                        .append(r.countsByKind()).append(": ").append(String.join(", ", rows))
                        .append(r.differenceCount() > SHOWN ? ", ..." : "");
            }
        }
        String schema = null;
        if (completed) {
            List<String> problems = new ArrayList<>();
            for (int i = 0; i < servers.size(); i++) {
                for (SchemaFact f : alter.post()) {
                    String p = f.check(servers.get(i), database, table);
                    if (p != null) {
                        problems.add("shard " + shardNames.get(i) + ": " + p);
                    }
                }
                if (!exists(servers.get(i), database, table + "_old")) {
                    problems.add("shard " + shardNames.get(i) + ": no " + table + "_old after the cut-over");
                }
            }
            schema = problems.isEmpty() ? null : String.join("; ", problems);
        }
        return new Result(differences, detail.toString(), schema, cleanUp(servers, database, table, ghost));
    }

    /** Whether every shard's table matches {@code facts} (the next ALTER applies to it). */
    static boolean holds(List<MariaDbServer> servers, String database, String table, List<SchemaFact> facts) {
        for (MariaDbServer s : servers) {
            for (SchemaFact f : facts) {
                if (f.check(s, database, table) != null) {
                    return false;
                }
            }
        }
        return true;
    }

    /** Drops {@code <table>_old} (only while the table itself is there) and a ghost left behind, on every shard. */
    private static String cleanUp(List<MariaDbServer> servers, String database, String table, String ghost) {
        int old = 0;
        int ghosts = 0;
        List<String> problems = new ArrayList<>();
        for (MariaDbServer s : servers) {
            try {
                if (exists(s, database, table + "_old")) {
                    if (exists(s, database, table)) {
                        s.execute(database, "DROP /* vstream bench: stress clean-up */ TABLE `" + table + "_old`");
                        old++;
                    } else {
                        problems.add(s.name() + " has " + table + "_old but no " + table + ": left as it is");
                    }
                }
                if (exists(s, database, ghost)) {
                    s.execute(database, "DROP /* vstream bench: stress clean-up */ TABLE `" + ghost + "`");
                    ghosts++;
                }
            } catch (RuntimeException e) {
                problems.add(s.name() + ": " + e.getMessage());
            }
        }
        String done = "dropped " + table + "_old on " + old + " shard(s)" + (ghosts > 0 ? ", the ghost " + ghost
                + " on " + ghosts : "");
        return problems.isEmpty() ? done : done + "; " + String.join("; ", problems);
    }

    private static boolean exists(MariaDbServer s, String database, String table) {
        return s.queryLong(database, "SELECT /* vstream bench: stress */ COUNT(*) FROM information_schema.TABLES"
                + " WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?", database, table) > 0;
    }
}
