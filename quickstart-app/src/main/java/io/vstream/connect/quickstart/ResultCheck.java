package io.vstream.connect.quickstart;

import io.vstream.connect.local.compare.ComparisonResult;
import io.vstream.connect.local.compare.RowDifference;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Checks the online ALTER after its cut-over, on every shard: the new table has the new schema (and the original is
 * kept as {@code orders_old}); the new table equals the original through the column mapping for every row the load
 * did not write after the cut-over began (row count and CRC32 per row, {@code amount} converted to the new type on the
 * original side); the new table holds every write the load saw acknowledged, on the right shard, and nothing else
 * (the load's model); and no write failed.
 * Reads the shards only.
 */
final class ResultCheck {
    /** One verdict: what was checked, whether it held, and the numbers. */
    record Verdict(String what, boolean ok, String detail) {
    }

    private static final String ROW_CRC = "CRC32(CONCAT_WS('#', id, k, %s, customer_id, IFNULL(note, '\\0')))";

    private final Keyspace keyspace;
    private final List<Verdict> verdicts = new ArrayList<>();

    ResultCheck(Keyspace keyspace) {
        this.keyspace = keyspace;
    }

    List<Verdict> verdicts() {
        return List.copyOf(verdicts);
    }

    boolean allOk() {
        return verdicts.stream().allMatch(Verdict::ok);
    }

    void alterTookEffect() throws SQLException {
        for (MariaDbShard s : keyspace.shards()) {
            try (Connection c = s.connect(SampleData.DB)) {
                String type = string(c, "SELECT COLUMN_TYPE FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ?"
                        + " AND TABLE_NAME = 'orders' AND COLUMN_NAME = 'amount'");
                long index = number(c, "SELECT COUNT(*) FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = ?"
                        + " AND TABLE_NAME = 'orders' AND INDEX_NAME = 'k_amount'");
                long old = number(c, "SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = ?"
                        + " AND TABLE_NAME = 'orders_old'");
                long ghost = number(c, "SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = ?"
                        + " AND TABLE_NAME = '_orders_gho'");
                verdicts.add(new Verdict("shard " + s.shard() + ": the ALTER took effect",
                        "decimal(14,2)".equals(type) && index > 0 && old == 1 && ghost == 0,
                        "orders.amount is " + type + ", index k_amount " + (index > 0 ? "present" : "MISSING")
                                + ", orders_old " + (old == 1 ? "kept" : "MISSING") + ", ghost table "
                                + (ghost == 0 ? "gone" : "STILL THERE")));
            }
        }
    }

    /** Original ({@code orders_old}) against new ({@code orders}), leaving out the ids in {@code writtenAfter}. */
    void originalMatchesNew(Set<Long> writtenAfter) throws SQLException {
        for (MariaDbShard s : keyspace.shards()) {
            try (Connection c = s.connect(SampleData.DB)) {
                Map<Long, Long> original = crcs(c, "orders_old", "CAST(amount AS DECIMAL(14,2))");
                Map<Long, Long> migrated = crcs(c, "orders", "amount");
                long compared = 0;
                long different = 0;
                long xor = 0;
                for (Map.Entry<Long, Long> e : original.entrySet()) {
                    if (writtenAfter.contains(e.getKey())) {
                        continue;
                    }
                    compared++;
                    xor ^= e.getValue();
                    if (!e.getValue().equals(migrated.get(e.getKey()))) {
                        different++;
                    }
                }
                long onlyNew = migrated.keySet().stream()
                        .filter(id -> !original.containsKey(id) && !writtenAfter.contains(id)).count();
                verdicts.add(new Verdict("shard " + s.shard() + ": original = new through the mapping",
                        different == 0 && onlyNew == 0 && compared > 0,
                        String.format("%,d rows compared (CRC32 xor %08x), %d different, %d only in the new table;"
                                + " %,d rows the load wrote after the cut-over began left out", compared, xor,
                                different, onlyNew, original.size() - compared)));
                long misplaced = migrated.keySet().stream().filter(id -> keyspace.shardOf(id)
                        != keyspace.shards().indexOf(s)).count();
                if (misplaced > 0) {
                    verdicts.add(new Verdict("shard " + s.shard() + ": rows on their shard", false,
                            misplaced + " rows belong to another shard by the hash vindex"));
                }
            }
        }
    }

    /**
     * Every acknowledged write of the load is in the new table (or absent, for a delete), and nothing else is: each
     * shard's {@code orders} against the load's model, which holds the sample rows and every write acknowledged since.
     */
    void acknowledgedWritesArePresent(LiveLoad load) {
        long checked = 0;
        long different = 0;
        List<String> wrong = new ArrayList<>();
        for (int i = 0; i < keyspace.shards().size(); i++) {
            ComparisonResult r = load.verifyOrders(i);
            checked += r.rowsCompared();
            different += r.differenceCount();
            for (RowDifference d : r.differences()) {
                if (wrong.size() < 5) {
                    wrong.add("shard " + keyspace.shards().get(i).shard() + ": " + d);
                }
            }
        }
        verdicts.add(new Verdict("every acknowledged write is in the new table", different == 0 && checked > 0,
                String.format("%,d rows written by the load checked (%,d rows in all against its model)",
                        load.ordersWritten(), checked) + (different == 0 ? ""
                        : String.format("; %,d differ, e.g. %s", different, String.join("; ", wrong)))));
    }

    void noFailedWrites(LiveLoad load) {
        verdicts.add(new Verdict("the write load saw no failed write", load.failures() == 0,
                String.format("%,d transactions committed, %d failed%s; longest %d ms", load.commits(),
                        load.failures(), load.failureSummary(), load.maxLatencyMillis())));
    }

    void add(Verdict v) {
        verdicts.add(v);
    }

    private static Map<Long, Long> crcs(Connection c, String table, String amount) throws SQLException {
        Map<Long, Long> out = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT id, " + String.format(ROW_CRC, amount) + " FROM "
                + table); ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                out.put(rs.getLong(1), rs.getLong(2));
            }
        }
        return out;
    }

    private static String string(Connection c, String sql) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, SampleData.DB);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }

    private static long number(Connection c, String sql) throws SQLException {
        String s = string(c, sql);
        return s == null ? 0 : Long.parseLong(s);
    }
}
