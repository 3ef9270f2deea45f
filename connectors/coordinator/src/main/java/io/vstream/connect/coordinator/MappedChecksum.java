package io.vstream.connect.coordinator;

import io.vstream.connect.jdbc.MigrationPlans;
import io.vstream.connect.core.sql.KeyPredicates;
import io.vstream.connect.core.sql.SqlIdentifiers;
import io.vstream.connect.core.sql.SqlTag;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * Compares an original table with its ghost through the migration's column mapping, chunk by chunk in the order of
 * the shared key: per chunk, row count and {@code BIT_XOR(CRC32(...))} over the shared columns, where a column whose
 * type the ALTER changed is converted on the original side to the ghost's type ({@code CONVERT(c, DECIMAL(14,2))},
 * {@code DATETIME(6)}, ...) so equal values compare equal. Columns whose new type has no such conversion are left out
 * and named. A chunk that differs is compared row by row (a CRC per key) to name the keys that differ. It keeps a
 * cursor (the last key compared), so the comparison can run in bounded slices, each at its own exact position (the
 * caller's snapshot of the original, and a ghost whose applier is stopped at that snapshot's position). Reads only;
 * the original side runs in the caller's snapshot.
 *
 * <p>With a {@link RowFilter} (a reshard's new shard against one old shard: only the rows whose keyspace id both key
 * ranges hold), which rows count is decided in Java, so each chunk is compared row by row: both sides' keys with a
 * CRC per row and the filter's column, the rows the filter keeps compared as sets.
 */
final class MappedChecksum {
    static final int DEFAULT_CHUNK_ROWS = 5_000;
    private static final int MAX_KEYS_REPORTED = 10;

    /** A chunk that differs: its key range, both row counts, and (some of) the keys that differ, with how. */
    record Mismatch(String range, long originalRows, long ghostRows, List<String> keys, String originalLabel,
                    String ghostLabel) {
        String describe() {
            return "rows " + range + ": " + originalLabel + " " + originalRows + " rows, " + ghostLabel + " "
                    + ghostRows + " rows; "
                    + (keys.isEmpty() ? "same keys, different values" : String.join(", ", keys));
        }
    }

    /** Which rows a comparison covers, decided per row by the value of one column (read on both sides). */
    interface RowFilter {
        /** The column whose value decides (the same name on both sides). */
        String column();

        /** Whether the row with this value of {@link #column()} (as the driver reads it) is compared. */
        boolean keeps(Object value);
    }

    private final String db;
    private final String table;
    private final String ghostDb;
    private final String ghost;
    private final String originalLabel;
    private final String ghostLabel;
    private final List<String> originalKey;
    private final List<String> ghostKey;
    private final List<String> originalExpr = new ArrayList<>();
    private final List<String> ghostExpr = new ArrayList<>();
    private final List<String> uncovered = new ArrayList<>();
    private final java.util.Set<String> compared = new java.util.HashSet<>(); // columns on both sides, lower case
    private final boolean chunked;
    private final int chunkRows;
    private List<Object> cursor; // the last key compared; null: from the start
    private List<Object> mismatchUpper; // the upper bound of the chunk the last Mismatch covers
    private RowFilter filter; // null: every row
    private boolean done;
    private long rowsCompared;
    private long chunksCompared;

    private MappedChecksum(String db, String table, String ghostDb, String ghost, List<String> originalKey,
                           List<String> ghostKey, boolean chunked, int chunkRows, String originalLabel,
                           String ghostLabel) {
        this.db = db;
        this.table = table;
        this.ghostDb = ghostDb;
        this.ghost = ghost;
        this.originalLabel = originalLabel;
        this.ghostLabel = ghostLabel;
        this.originalKey = originalKey;
        this.ghostKey = ghostKey;
        this.chunked = chunked;
        this.chunkRows = chunkRows;
    }

    /**
     * Prepares the comparison of a plan's table and ghost, reading both tables' column types on {@code info}. The
     * comparison is chunked when the shared key's columns have the same type and collation on both sides (else one
     * chunk: the two sides might order the key differently).
     */
    static MappedChecksum prepare(Connection info, MigrationPlans.Plan plan, int chunkRows) throws SQLException {
        Map<String, String[]> origTypes = types(info, plan.database(), plan.table());
        Map<String, String[]> ghostTypes = types(info, plan.database(), plan.ghostTable());
        List<String> ghostKey = plan.keyColumns();
        List<String> originalKey = plan.originalKeyColumns();
        boolean sameKeyTypes = true;
        for (int i = 0; i < ghostKey.size(); i++) {
            String g = ghostKey.get(i);
            String o = originalKey.get(i);
            String[] ot = origTypes.get(o.toLowerCase(Locale.ROOT));
            String[] gt = ghostTypes.get(g.toLowerCase(Locale.ROOT));
            sameKeyTypes &= ot != null && gt != null && ot[0].equals(gt[0]) && Objects.equals(ot[1], gt[1]);
        }
        MappedChecksum m = new MappedChecksum(plan.database(), plan.table(), plan.database(), plan.ghostTable(),
                originalKey, ghostKey, sameKeyTypes, chunkRows, "original", "ghost");
        for (Map.Entry<String, String> e : plan.mapping().shared().entrySet()) {
            String o = e.getKey();
            String g = e.getValue();
            String[] ot = origTypes.get(o.toLowerCase(Locale.ROOT));
            String[] gt = ghostTypes.get(g.toLowerCase(Locale.ROOT));
            if (ot == null || gt == null) {
                m.uncovered.add(o);
                continue;
            }
            String qo = SqlIdentifiers.quote(o);
            String qg = SqlIdentifiers.quote(g);
            String converted = ot[0].equals(gt[0]) ? qo : convert(qo, gt[0]);
            if (converted == null) {
                m.uncovered.add(o);
                continue;
            }
            m.originalExpr.add(converted);
            m.originalExpr.add("ISNULL(" + qo + ")");
            m.ghostExpr.add(qg);
            m.ghostExpr.add("ISNULL(" + qg + ")");
        }
        return m;
    }

    /**
     * Prepares the comparison of a table with its copy on another server (a clone target, a replica), column for
     * column by name. The rows are ordered and named by the source table's primary key (else its first unique key
     * over NOT NULL columns without prefixes); the comparison is chunked when the key's columns have the same type and
     * collation on both sides. Columns present on one side only are left out and named ({@link #uncovered()}).
     * Throws {@link IllegalArgumentException} naming the table when either side has no such table.
     */
    static MappedChecksum prepareSame(Connection sourceInfo, String sourceDb, String sourceTable, Connection targetInfo,
                                      String targetDb, String targetTable, int chunkRows) throws SQLException {
        io.vstream.connect.coordinator.ddl.TableShape shape = io.vstream.connect.coordinator.ddl.SchemaReader
                .shape(sourceInfo, sourceDb, sourceTable);
        Map<String, String[]> sourceTypes = types(sourceInfo, sourceDb, sourceTable);
        Map<String, String[]> targetTypes = types(targetInfo, targetDb, targetTable);
        if (sourceTypes.isEmpty()) {
            throw new IllegalArgumentException("the source table " + sourceDb + "." + sourceTable + " does not exist"
                    + " or the coordinator's source account cannot see it (GRANT SELECT ON "
                    + SqlIdentifiers.quote(sourceDb) + ".*)");
        }
        if (targetTypes.isEmpty()) {
            throw new IllegalArgumentException("the target table " + targetDb + "." + targetTable + " does not exist"
                    + " or the coordinator's target account cannot see it (GRANT SELECT ON "
                    + SqlIdentifiers.quote(targetDb) + ".*)");
        }
        List<String> key = new ArrayList<>();
        for (io.vstream.connect.coordinator.ddl.TableShape.UniqueKey k : shape.uniqueKeys()) {
            boolean usable = k.parts().stream().allMatch(p -> p.prefix() == null
                    && shape.column(p.column()).map(c -> !c.nullable()).orElse(false));
            if (usable) {
                k.parts().forEach(p -> key.add(p.column()));
                break;
            }
        }
        boolean sameKeyTypes = !key.isEmpty();
        for (String k : key) {
            String[] st = sourceTypes.get(k.toLowerCase(Locale.ROOT));
            String[] tt = targetTypes.get(k.toLowerCase(Locale.ROOT));
            sameKeyTypes &= tt != null && st[0].equals(tt[0]) && Objects.equals(st[1], tt[1]);
        }
        MappedChecksum m = new MappedChecksum(sourceDb, sourceTable, targetDb, targetTable, key, key, sameKeyTypes,
                chunkRows, "source", "target");
        for (io.vstream.connect.coordinator.ddl.TableShape.Column c : shape.columns()) {
            String name = c.name();
            String[] st = sourceTypes.get(name.toLowerCase(Locale.ROOT));
            String[] tt = targetTypes.get(name.toLowerCase(Locale.ROOT));
            if (st == null || tt == null) {
                m.uncovered.add(name);
                continue;
            }
            String q = SqlIdentifiers.quote(name);
            String converted = st[0].equals(tt[0]) ? q : convert(q, tt[0]);
            if (converted == null) {
                m.uncovered.add(name);
                continue;
            }
            m.compared.add(name.toLowerCase(Locale.ROOT));
            m.originalExpr.add(converted);
            m.originalExpr.add("ISNULL(" + q + ")");
            m.ghostExpr.add(q);
            m.ghostExpr.add("ISNULL(" + q + ")");
        }
        for (String t : targetTypes.keySet()) {
            if (!sourceTypes.containsKey(t)) {
                m.uncovered.add(t + " (target only)");
            }
        }
        return m;
    }

    /** This comparison limited to the rows {@code rows} keeps (on both sides). */
    MappedChecksum filtered(RowFilter rows) {
        this.filter = rows;
        return this;
    }

    /**
     * Compares chunks from the cursor on, until the table's end or {@code deadlineNanos} (at least one chunk); returns
     * the first chunk that differs (the cursor stays before it), or null.
     */
    Mismatch compareUntil(Connection originalSnapshot, Connection ghostSide, long deadlineNanos)
            throws SQLException, InterruptedException {
        // the two sides of a chunk are summed at once, each on its own connection (the server has the cores)
        java.util.concurrent.ExecutorService side = originalSnapshot == ghostSide ? null
                : java.util.concurrent.Executors.newSingleThreadExecutor(r -> {
                    Thread t = new Thread(r, "checksum-ghost-side");
                    t.setDaemon(true);
                    return t;
                });
        try {
            do {
                List<Object> upper = chunked ? upperBound(originalSnapshot) : null;
                List<Object> from = cursor;
                if (filter != null) {
                    java.util.concurrent.Future<Map<String, Long>> ghostRows = side == null ? null
                            : side.submit(() -> rowCrcs(ghostSide, ghostDb, ghost, ghostKey, ghostExpr, from, upper));
                    Map<String, Long> a = rowCrcs(originalSnapshot, db, table, originalKey, originalExpr, from, upper);
                    Map<String, Long> b = ghostRows == null
                            ? rowCrcs(ghostSide, ghostDb, ghost, ghostKey, ghostExpr, from, upper) : resultOf(ghostRows);
                    if (!a.equals(b)) {
                        mismatchUpper = upper;
                        return new Mismatch(range(cursor, upper), a.size(), b.size(), differingKeys(a, b),
                                originalLabel, ghostLabel);
                    }
                    rowsCompared += a.size();
                    chunksCompared++;
                    cursor = upper;
                    done = upper == null;
                    continue;
                }
                java.util.concurrent.Future<long[]> ghostSum = side == null ? null
                        : side.submit(() -> sum(ghostSide, ghostDb, ghost, ghostKey, ghostExpr, from, upper));
                long[] a = sum(originalSnapshot, db, table, originalKey, originalExpr, from, upper);
                long[] b = ghostSum == null ? sum(ghostSide, ghostDb, ghost, ghostKey, ghostExpr, from, upper)
                        : resultOf(ghostSum);
                if (a[0] != b[0] || a[1] != b[1]) {
                    mismatchUpper = upper;
                    return new Mismatch(range(cursor, upper), a[0], b[0], differingKeys(originalSnapshot, ghostSide,
                            upper), originalLabel, ghostLabel);
                }
                rowsCompared += a[0];
                chunksCompared++;
                cursor = upper;
                done = upper == null;
            } while (!done && System.nanoTime() < deadlineNanos);
            return null;
        } finally {
            if (side != null) {
                side.shutdownNow();
            }
        }
    }

    private static <T> T resultOf(java.util.concurrent.Future<T> sum) throws SQLException, InterruptedException {
        try {
            return sum.get();
        } catch (java.util.concurrent.ExecutionException e) {
            if (e.getCause() instanceof SQLException se) {
                throw se;
            }
            throw new IllegalStateException("the ghost side of the checksum failed: " + e.getCause(), e.getCause());
        }
    }

    boolean done() {
        return done;
    }

    /** Whether rows are named by a key (a table without a usable unique key is compared by aggregates only). */
    boolean keyed() {
        return !originalKey.isEmpty();
    }

    /** Whether {@code column} is on both sides and compared ({@link #prepareSame} only). */
    boolean compares(String column) {
        return compared.contains(column.toLowerCase(Locale.ROOT));
    }

    /**
     * Moves the cursor past the chunk the last {@link Mismatch} covers (an on-demand diff goes on after a difference;
     * the cut-over's checksum does not), counting its rows as compared.
     */
    void skipMismatch(Mismatch m) {
        rowsCompared += Math.max(m.originalRows(), m.ghostRows());
        chunksCompared++;
        cursor = mismatchUpper;
        done = mismatchUpper == null;
    }

    long rowsCompared() {
        return rowsCompared;
    }

    long chunksCompared() {
        return chunksCompared;
    }

    /** The shared columns the checksum cannot cover (no conversion to the new type), by original name. */
    List<String> uncovered() {
        return List.copyOf(uncovered);
    }

    /** The key of the last row of the chunk after the cursor, or null when the rest of the table is one chunk. */
    private List<Object> upperBound(Connection original) throws SQLException {
        List<Object> args = cursor == null ? List.of() : KeyPredicates.afterArgs(cursor);
        String sql = "SELECT " + columns(originalKey) + " FROM " + SqlIdentifiers.qualify(db, table)
                + (cursor == null ? "" : " WHERE " + KeyPredicates.after(originalKey)) + " ORDER BY "
                + columns(originalKey) + " LIMIT 1 OFFSET " + (chunkRows - 1);
        try (PreparedStatement ps = original.prepareStatement(SqlTag.tag("checksum", sql))) {
            bind(ps, args);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return null;
                }
                List<Object> key = new ArrayList<>();
                for (int i = 1; i <= originalKey.size(); i++) {
                    key.add(rs.getObject(i));
                }
                return key;
            }
        }
    }

    private static long[] sum(Connection conn, String d, String t, List<String> key, List<String> exprs,
                              List<Object> from, List<Object> to) throws SQLException {
        List<Object> args = new ArrayList<>();
        String sql = "SELECT COUNT(*), " + crc(exprs, true) + " FROM " + SqlIdentifiers.qualify(d, t)
                + where(key, from, to, args);
        try (PreparedStatement ps = conn.prepareStatement(SqlTag.tag("checksum", sql))) {
            bind(ps, args);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return new long[] {rs.getLong(1), rs.getLong(2)};
            }
        }
    }

    /** The keys of the chunk (cursor, upper] that are missing, extra or different on the ghost side (at most 10). */
    private List<String> differingKeys(Connection original, Connection ghostSide, List<Object> upper)
            throws SQLException {
        if (originalKey.isEmpty()) {
            return List.of(); // a table without a usable key: its rows have no name
        }
        return differingKeys(rowCrcs(original, db, table, originalKey, originalExpr, cursor, upper),
                rowCrcs(ghostSide, ghostDb, ghost, ghostKey, ghostExpr, cursor, upper));
    }

    /** The keys missing, extra or different on the ghost side (at most 10), of two sides' rows (key -> CRC). */
    private List<String> differingKeys(Map<String, Long> a, Map<String, Long> b) {
        List<String> out = new ArrayList<>();
        for (Map.Entry<String, Long> e : a.entrySet()) {
            Long g = b.get(e.getKey());
            if (g == null) {
                out.add(e.getKey() + " missing in the " + ghostLabel);
            } else if (!g.equals(e.getValue())) {
                out.add(e.getKey() + " differs");
            }
        }
        for (String k : b.keySet()) {
            if (!a.containsKey(k)) {
                out.add(k + " only in the " + ghostLabel);
            }
        }
        return out.size() <= MAX_KEYS_REPORTED ? out : List.copyOf(out.subList(0, MAX_KEYS_REPORTED));
    }

    /** Key -> row CRC of the rows in (from, upper] (those the filter keeps, when there is one). */
    private Map<String, Long> rowCrcs(Connection conn, String d, String t, List<String> key, List<String> exprs,
                                      List<Object> from, List<Object> upper) throws SQLException {
        List<Object> args = new ArrayList<>();
        String sql = "SELECT " + columns(key) + ", " + crc(exprs, false)
                + (filter == null ? "" : ", " + SqlIdentifiers.quote(filter.column())) + " FROM "
                + SqlIdentifiers.qualify(d, t) + where(key, from, upper, args) + " ORDER BY " + columns(key);
        Map<String, Long> out = new LinkedHashMap<>();
        try (PreparedStatement ps = conn.prepareStatement(SqlTag.tag("checksum", sql))) {
            bind(ps, args);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    if (filter != null && !filter.keeps(rs.getObject(key.size() + 2))) {
                        continue;
                    }
                    List<String> parts = new ArrayList<>();
                    for (int i = 0; i < key.size(); i++) {
                        parts.add(originalKey.get(i) + "=" + rs.getString(i + 1));
                    }
                    out.put(String.join(",", parts), rs.getLong(key.size() + 1));
                }
            }
        }
        return out;
    }

    private static String crc(List<String> exprs, boolean aggregate) {
        if (exprs.isEmpty()) {
            return "0";
        }
        String row = "CRC32(CONCAT_WS('#', " + String.join(", ", exprs) + "))";
        return aggregate ? "COALESCE(BIT_XOR(" + row + "), 0)" : row;
    }

    private static String where(List<String> key, List<Object> from, List<Object> to, List<Object> args) {
        args.addAll(KeyPredicates.rangeArgs(from, to));
        return KeyPredicates.range(key, from != null, to != null);
    }

    private String range(List<Object> from, List<Object> to) {
        return "(" + (from == null ? "start" : originalKey + "=" + from) + ", "
                + (to == null ? "end" : originalKey + "=" + to) + "]";
    }

    private static String columns(List<String> key) {
        List<String> q = new ArrayList<>();
        key.forEach(k -> q.add(SqlIdentifiers.quote(k)));
        return String.join(", ", q);
    }

    private static void bind(PreparedStatement ps, List<Object> args) throws SQLException {
        for (int i = 0; i < args.size(); i++) {
            ps.setObject(i + 1, args.get(i));
        }
    }

    /** The conversion of an original column to a ghost column type, or null when there is none. */
    static String convert(String column, String ghostColumnType) {
        String t = ghostColumnType.toLowerCase(Locale.ROOT);
        boolean unsigned = t.contains("unsigned");
        String base = t.replace(" unsigned", "").replace(" zerofill", "").trim();
        if (base.startsWith("decimal")) {
            return "CONVERT(" + column + ", " + base.toUpperCase(Locale.ROOT) + ")";
        }
        if (base.startsWith("datetime") || base.startsWith("time") && !base.startsWith("timestamp")
                || base.equals("date")) {
            return "CONVERT(" + column + ", " + base.toUpperCase(Locale.ROOT) + ")";
        }
        if (base.startsWith("timestamp")) {
            return "CONVERT(" + column + ", " + base.replace("timestamp", "DATETIME").toUpperCase(Locale.ROOT) + ")";
        }
        if (base.matches("(tiny|small|medium|big)?int(\\(\\d+\\))?|integer")) {
            return "CONVERT(" + column + ", " + (unsigned ? "UNSIGNED" : "SIGNED") + ")";
        }
        if (base.startsWith("varchar") || base.startsWith("char") || base.endsWith("text")) {
            return "CONVERT(" + column + ", CHAR)";
        }
        if (base.startsWith("double") || base.startsWith("float") || base.startsWith("real")) {
            return "CONVERT(" + column + ", DOUBLE)";
        }
        return null;
    }

    /** Column name (lower case) to {type, collation}. */
    private static Map<String, String[]> types(Connection conn, String db, String table) throws SQLException {
        Map<String, String[]> out = new HashMap<>();
        try (PreparedStatement ps = conn.prepareStatement("SELECT COLUMN_NAME, COLUMN_TYPE, COLLATION_NAME FROM"
                + " information_schema.COLUMNS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?")) {
            ps.setString(1, db);
            ps.setString(2, table);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.put(rs.getString(1).toLowerCase(Locale.ROOT), new String[] {rs.getString(2),
                            rs.getString(3)});
                }
            }
        }
        return out;
    }
}
