package io.vstream.connect.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.vstream.connect.local.compare.ComparisonResult;
import io.vstream.connect.testsupport.compare.TableComparator;
import io.vstream.connect.testsupport.connect.ConnectCluster;
import io.vstream.connect.testsupport.db.MariaDbServer;
import io.vstream.connect.testsupport.db.MariaDbShards;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongFunction;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.kafka.connect.data.Struct;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The kinds of ALTER users run every day, as one data-driven list ({@link #CASES}: the table a case starts from, the
 * ALTER, and whether it is supported, fails loudly on the data, or is refused, with the reason's words), each run on
 * two MariaDB shards through the three connectors deployed over the REST API as docs/online-ddl.md prints them, with
 * the accounts docs/grants.md prints and the copy path ({@code ddl.prefer.instant=false}: many of these could run
 * instantly).
 *
 * <p>A supported ALTER runs under a writer per shard that inserts, updates and deletes rows of the table and applies
 * each transaction, in the same transaction, to a twin of the table in another database. Held at POSTPONED, with the
 * writers parked, the ghost must equal the server's own ALTER of a copy of the original (every column, by name);
 * released, the cut-over happens while the writers write, and once they stop the new table must equal the twin after
 * the server's own ALTER, in its definition (columns, keys, engine and options) and in every row. An ALTER the data
 * cannot take fails the migration with the reason and leaves the original as it was; a refused one fails the workflow
 * before anything is created (no ghost, no plan, the table as it was) with a reason that names the problem and its fix.
 *
 * <p>Migrations run a few at once ({@value #PARALLEL}), each in its own databases, on one Connect cluster; the test of
 * each case waits for its own run. {@code -Dalter.cases=name,name} runs only those cases.
 */
class AlterCoverageIT {
    @RegisterExtension
    static final MariaDbShards SHARDS = MariaDbShards.builder().count(2).name("AlterCoverageIT").build();

    static final int PARALLEL = 3;
    /** Rows per shard before the migration, and the writers' keys per shard (some inserted, some deleted). */
    static final int PRELOAD = 150;
    static final int KEYS = 220;
    static final Duration STATE_TIMEOUT = Duration.ofSeconds(180);
    /** The servers' time zone: neither UTC nor the writers' {@code +05:30}. */
    static final String SERVER_ZONE = "+02:00";

    // ---- the tables the cases start from ----------------------------------------------------------------------

    /** Most columns a user changes: an int key, a latin1 table with a utf8mb4 column, a decimal, an enum. */
    static final Base ITEMS = new Base("items", "(id INT NOT NULL PRIMARY KEY, sku VARCHAR(20) NOT NULL,"
            + " qty INT NULL, price DECIMAL(10,4) NOT NULL DEFAULT 0, note VARCHAR(40) NULL,"
            + " name VARCHAR(40) CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci NULL,"
            + " e ENUM('a','b','c') NOT NULL DEFAULT 'a', KEY k_sku (sku)) DEFAULT CHARSET=latin1",
            n -> key("id", n), columns(
                    "sku", (Value) (n, r) -> "'s" + n + "-" + r.nextInt(100) + "'", // unique by construction
                    "qty", (Value) (n, r) -> r.nextInt(8) == 0 ? "NULL" : Integer.toString(r.nextInt(100_001) - 50_000),
                    "price", (Value) (n, r) -> BigDecimal.valueOf(r.nextInt(20_000_000) - 10_000_000, 4)
                            .toPlainString(),
                    "note", (Value) (n, r) -> pick(r, "NULL", "''", "'café'", "'Straße " + n + "'", "'naïve'",
                            "'p " + n + "'"),
                    "name", (Value) (n, r) -> pick(r, "NULL", "'Zoë'", "'😀 " + n + "'", "'ß'", "'ABC " + n + "'",
                            "'abc'"),
                    "e", (Value) (n, r) -> pick(r, "'a'", "'b'", "'c'")));

    /** TIMESTAMPs set by the server (DEFAULT / ON UPDATE CURRENT_TIMESTAMP) and by writers in another time zone. */
    static final Base TIMES = new Base("events", "(id INT NOT NULL PRIMARY KEY, v INT NOT NULL,"
            + " at TIMESTAMP NULL DEFAULT NULL,"
            + " ts TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP,"
            + " created DATETIME(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6))",
            n -> key("id", n), columns(
                    "v", (Value) (n, r) -> Integer.toString(r.nextInt(1000)),
                    "at", (Value) (n, r) -> r.nextInt(6) == 0 ? "NULL" : String.format("'2024-03-%02d %02d:%02d:%02d'",
                            1 + r.nextInt(28), r.nextInt(24), r.nextInt(60), r.nextInt(60))));

    /** A composite primary key. */
    static final Base TENANTS = new Base("accounts", "(tenant INT NOT NULL, id INT NOT NULL, v VARCHAR(20) NOT NULL,"
            + " qty INT NULL, PRIMARY KEY (tenant, id))",
            n -> key("tenant", n % 5, "id", n), columns(
                    "v", (Value) (n, r) -> "'v" + r.nextInt(10_000) + "'",
                    "qty", (Value) (n, r) -> r.nextInt(5) == 0 ? "NULL" : Integer.toString(r.nextInt(1000))));

    /** A string primary key (case-insensitive collation, non-ASCII and 4-byte characters in keys). */
    static final Base CODES = new Base("codes", "(code VARCHAR(32) NOT NULL PRIMARY KEY, v INT NULL,"
            + " label VARCHAR(40) NULL) DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci",
            n -> Map.of("code", "'" + (n % 3 == 0 ? "Äb-" : n % 3 == 1 ? "k-" : "Z😀-") + n + "'"), columns(
                    "v", (Value) (n, r) -> r.nextInt(7) == 0 ? "NULL" : Integer.toString(r.nextInt(1000)),
                    "label", (Value) (n, r) -> pick(r, "NULL", "'Label " + n + "'", "'ÉÈ'", "'x'")));

    /** A unique key beside the primary key. */
    static final Base UNIQUE = new Base("members", "(id INT NOT NULL PRIMARY KEY, code VARCHAR(20) NOT NULL,"
            + " v INT NULL, UNIQUE KEY u_code (code))",
            n -> key("id", n), columns(
                    "code", (Value) (n, r) -> "'u" + n + "'",
                    "v", (Value) (n, r) -> r.nextInt(7) == 0 ? "NULL" : Integer.toString(r.nextInt(1000))));

    /** A stored generated column already there. */
    static final Base GENERATED = new Base("shapes", "(id INT NOT NULL PRIMARY KEY, a INT NOT NULL, b INT NOT NULL,"
            + " s VARCHAR(20) NOT NULL, total INT AS (a + b) STORED)",
            n -> key("id", n), columns(
                    "a", (Value) (n, r) -> Integer.toString(r.nextInt(1000)),
                    "b", (Value) (n, r) -> Integer.toString(r.nextInt(1000)),
                    "s", (Value) (n, r) -> "'s" + r.nextInt(100) + "'"));

    // ---- the cases ------------------------------------------------------------------------------------------------

    static final List<Case> CASES = List.of(
            // type changes and widening
            ok("int-to-bigint", ITEMS, "MODIFY qty BIGINT NULL"),
            ok("varchar-widened", ITEMS, "MODIFY sku VARCHAR(64) NOT NULL"),
            fails("varchar-narrowed-below-the-data", ITEMS, "MODIFY sku VARCHAR(4) NOT NULL", "Data too long"),
            ok("varchar-to-text", ITEMS, "MODIFY note TEXT NULL"),
            ok("column-default-changed", ITEMS, "ALTER COLUMN qty SET DEFAULT 5, ALTER COLUMN e SET DEFAULT 'b'"),
            ok("int-to-varchar", ITEMS, "MODIFY qty VARCHAR(12) NULL"),
            ok("decimal-scale-reduced", ITEMS, "MODIFY price DECIMAL(10,2) NOT NULL DEFAULT 0"),
            // charsets and collations
            ok("convert-to-utf8mb4", ITEMS, "CONVERT TO CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci"),
            ok("column-collation", ITEMS, "MODIFY name VARCHAR(40) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NULL"),
            // NULL to NOT NULL
            ok("not-null-with-default", ITEMS, "MODIFY qty INT NOT NULL DEFAULT 0")
                    .setup("UPDATE {T} SET qty = 0 WHERE qty IS NULL")
                    .writes("qty", (Value) (n, r) -> Integer.toString(r.nextInt(1000))),
            fails("not-null-with-nulls-present", ITEMS, "MODIFY qty INT NOT NULL DEFAULT 0", "qty"),
            // enums
            ok("enum-member-appended", ITEMS, "MODIFY e ENUM('a','b','c','d') NOT NULL DEFAULT 'a'"),
            fails("enum-member-removed-in-use", ITEMS, "MODIFY e ENUM('a','b') NOT NULL DEFAULT 'a'",
                    "Data truncated for column 'e'"),
            ok("enum-reordered", ITEMS, "MODIFY e ENUM('c','b','a') NOT NULL DEFAULT 'a'"),
            // columns added, dropped, moved, renamed
            ok("add-columns-with-defaults-first-and-after", ITEMS, "ADD COLUMN flag INT NOT NULL DEFAULT 7 FIRST,"
                    + " ADD COLUMN tag VARCHAR(10) NOT NULL DEFAULT 'x' AFTER id"),
            ok("drop-column", ITEMS, "DROP COLUMN note").untouched("note"),
            ok("reorder-column", ITEMS, "MODIFY qty INT NULL AFTER id"),
            ok("rename-spelt-change-and-rename-column", ITEMS, "CHANGE COLUMN note remark VARCHAR(40) NULL,"
                    + " RENAME COLUMN name TO title").untouched("note", "name"),
            ok("drop-and-add-alike-is-not-a-rename", ITEMS, "DROP COLUMN note, ADD COLUMN remark VARCHAR(40) NULL")
                    .untouched("note"),
            refused("rename-the-tables-cannot-confirm", ITEMS, "CHANGE COLUMN note remark VARCHAR(40) NULL,"
                    + " ADD COLUMN note INT NULL", "do not confirm it", "Rename without reusing either name"),
            refused("rename-swap", ITEMS, "CHANGE COLUMN note name VARCHAR(40) NULL, CHANGE COLUMN name note"
                    + " VARCHAR(40) CHARACTER SET utf8mb4 NULL", "do not confirm it", "one migration per step"),
            refused("add-not-null-without-default", ITEMS, "ADD COLUMN must INT NOT NULL",
                    "NOT NULL without a DEFAULT", "Add a DEFAULT"),
            // generated columns
            ok("add-virtual-generated", GENERATED, "ADD COLUMN prod BIGINT AS (a * b) VIRTUAL"),
            ok("add-stored-generated-with-key", GENERATED, "ADD COLUMN tag VARCHAR(30) AS (CONCAT(s, '#', a)) STORED,"
                    + " ADD INDEX k_tag (tag)"),
            // timestamps
            ok("timestamp-fsp-and-new-timestamp", TIMES, "MODIFY ts TIMESTAMP(3) NOT NULL DEFAULT"
                    + " CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3), ADD COLUMN seen TIMESTAMP NULL"),
            // the servers run at +02:00: their own ALTER converts in that zone, the copy and applier in UTC
            refused("timestamp-to-datetime", TIMES, "MODIFY at DATETIME NULL", "time zone is not UTC",
                    "server's own ALTER TABLE"),
            refused("datetime-to-timestamp", TIMES,
                    "MODIFY created TIMESTAMP(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6)", "time zone is not UTC",
                    "CONVERT_TZ"),
            // keys
            ok("composite-key-table", TENANTS, "MODIFY qty BIGINT NULL, ADD INDEX k_v (v)"),
            ok("string-key-widened", CODES, "MODIFY code VARCHAR(64) NOT NULL, MODIFY v BIGINT NULL"),
            ok("string-key-collation-to-binary", CODES, "MODIFY code VARCHAR(32) CHARACTER SET utf8mb4 COLLATE"
                    + " utf8mb4_bin NOT NULL"),
            ok("secondary-index-added-and-dropped", ITEMS, "ADD INDEX k_qty (qty), DROP INDEX k_sku"),
            ok("unique-key-that-holds", ITEMS, "ADD UNIQUE KEY u_sku (sku)").with("ddl.allow.new.unique.key", "true"),
            fails("unique-key-that-would-drop-a-row", ITEMS, "ADD UNIQUE KEY u_sku (sku)", "duplicate")
                    .with("ddl.allow.new.unique.key", "true")
                    .setup("INSERT INTO {T} (id, sku, qty) VALUES (900000, 'dup', 1), (900001, 'dup', 2)"),
            refused("unique-key-not-allowed", ITEMS, "ADD UNIQUE KEY u_sku (sku)", "a uniqueness that",
                    "allowing a new unique key"),
            ok("primary-key-int-to-bigint", ITEMS, "MODIFY id BIGINT NOT NULL"),
            ok("primary-key-grows", ITEMS, "DROP PRIMARY KEY, ADD PRIMARY KEY (id, sku)"),
            ok("primary-key-to-a-unique-column", UNIQUE, "DROP PRIMARY KEY, ADD PRIMARY KEY (code)"),
            refused("primary-key-to-a-column-not-unique", ITEMS, "DROP PRIMARY KEY, ADD PRIMARY KEY (sku)",
                    "No PRIMARY KEY or UNIQUE key", "change the key in a later migration"),
            refused("primary-key-shrinks", TENANTS, "DROP PRIMARY KEY, ADD PRIMARY KEY (id)",
                    "No PRIMARY KEY or UNIQUE key", "change the key in a later migration"),
            refused("primary-key-shrinks-allowed", TENANTS, "DROP PRIMARY KEY, ADD PRIMARY KEY (id)",
                    "No PRIMARY KEY or UNIQUE key", "change the key in a later migration")
                    .with("ddl.allow.new.unique.key", "true"),
            // engine and options
            ok("row-format-and-engine-rebuild", ITEMS, "ENGINE=InnoDB ROW_FORMAT=COMPACT"),
            refused("engine-not-transactional", ITEMS, "ENGINE=MyISAM", "ENGINE=MyISAM", "not transactional"),
            refused("table-rename", ITEMS, "RENAME TO items2", "renames the table", "RENAME TABLE"),
            refused("foreign-key-added", ITEMS, "ADD CONSTRAINT fk_qty FOREIGN KEY (qty) REFERENCES items (id)",
                    "foreign key", "add it afterwards"));

    static ConnectCluster connect;
    static ExecutorService runner;
    static final Map<String, Future<String>> RUNS = new LinkedHashMap<>();

    @BeforeAll
    static void startAll() {
        connect = ConnectCluster.builder().name("alter-coverage").workers(1).start();
        for (MariaDbServer s : SHARDS.servers()) {
            // neither UTC nor the writers' zone: a TIMESTAMP converted by the wrong session shows
            s.execute(null, "SET GLOBAL time_zone = '" + SERVER_ZONE + "'");
        }
        runner = Executors.newFixedThreadPool(PARALLEL);
        for (Case c : selected().toList()) {
            RUNS.put(c.name, runner.submit(() -> run(c)));
        }
    }

    @AfterAll
    static void stopAll() {
        if (runner != null) {
            runner.shutdownNow();
        }
        if (connect != null) {
            connect.close();
        }
    }

    static Stream<Case> selected() {
        String only = System.getProperty("alter.cases", "");
        if (only.isBlank()) {
            return CASES.stream();
        }
        Set<String> names = Set.of(only.split(","));
        return CASES.stream().filter(c -> names.contains(c.name));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("selected")
    void alter(Case c) throws Throwable {
        try {
            String summary = RUNS.get(c.name).get(10, TimeUnit.MINUTES);
            System.out.println("AlterCoverageIT " + c.name + ": " + summary);
        } catch (ExecutionException e) {
            throw e.getCause();
        }
    }

    // ---- one run ----------------------------------------------------------------------------------------------------

    private static String run(Case c) throws Exception {
        long begin = System.nanoTime();
        String db = SHARDS.freshDatabase(c.name);
        String twin = SHARDS.freshDatabase(c.name + "_twin");
        String t = c.base.table;
        for (MariaDbServer s : SHARDS.servers()) {
            s.execute(db, "CREATE TABLE " + t + " " + c.base.definition);
            s.execute(twin, "CREATE TABLE " + t + " " + c.base.definition);
            s.execute("mysql", DocumentedGrants.statements("cdc source", db).toArray(String[]::new));
            s.execute("mysql", DocumentedGrants.statements("online-ddl shard", db).toArray(String[]::new));
        }
        List<Writer> writers = new ArrayList<>();
        for (int i = 0; i < SHARDS.size(); i++) {
            Writer w = new Writer(SHARDS.server(i), c, db, twin, 100_000L * (i + 1), 7 * i + c.name.hashCode());
            w.preload();
            writers.add(w);
        }
        OnlineDdlMigration m = new OnlineDdlMigration(connect, SHARDS.servers(), "alter", db, t);
        try {
            return switch (c.outcome) {
                case SUPPORTED -> supported(c, m, writers, twin) + "; " + seconds(begin) + " s";
                case FAILS -> failsLoudly(c, m, writers, twin) + "; " + seconds(begin) + " s";
                case REFUSED -> refusedUntouched(c, m, twin) + "; " + seconds(begin) + " s";
            };
        } finally {
            writers.forEach(Writer::stop);
            m.delete();
        }
    }

    private static String supported(Case c, OnlineDdlMigration m, List<Writer> writers, String twin) throws Exception {
        String t = c.base.table;
        writers.forEach(Writer::start);
        deploy(m, c, true);
        CloneHandoffIT.awaitState(connect, m.statusTopic, "POSTPONED", STATE_TIMEOUT);
        // before the cut-over: the writers parked, the ghost must become the server's own ALTER of the original
        writers.forEach(Writer::park);
        for (MariaDbServer s : SHARDS.servers()) {
            String expected = t + "_expected";
            List<String> plain = plainColumns(s, m.db, t);
            serverSession(s, twin, "CREATE TABLE " + expected + " LIKE " + m.db + "." + t,
                    "INSERT INTO " + expected + " (" + String.join(", ", plain) + ") SELECT " + String.join(", ", plain)
                            + " FROM " + m.db + "." + t,
                    "ALTER TABLE " + expected + " " + c.alter);
            assertEqual(s, m.db, t, twin, t, "the writers' twin equals the table (before the cut-over)");
            awaitEqual(s, twin, expected, m.db, "_" + t + "_gho",
                    "the ghost equals the server's ALTER of the original, before the cut-over");
        }
        long before = writers.stream().mapToLong(w -> w.commits.get()).sum();
        writers.forEach(Writer::unpark);
        deployCoordinator(m, c, false);
        CloneHandoffIT.awaitState(connect, m.statusTopic, "COMPLETE", STATE_TIMEOUT);
        long atCutOver = writers.stream().mapToLong(w -> w.commits.get()).sum();
        for (Writer w : writers) {
            w.awaitCommits(w.commits.get() + 10);
        }
        writers.forEach(Writer::stop);
        List<String> errors = writers.stream().flatMap(w -> w.errors.stream()).toList();
        assertThat(errors).as("%s: no write failed", c.name).isEmpty();
        assertThat(atCutOver - before).as("%s: writes went on until the cut-over", c.name).isPositive();
        // after the cut-over: the new table is what the server's own ALTER makes of the twin, which had every write
        for (MariaDbServer s : SHARDS.servers()) {
            serverSession(s, twin, "ALTER TABLE " + t + " " + c.alter);
            assertThat(definition(s, m.db, t)).as("%s on %s: the new table's definition is the server's ALTER's",
                    c.name, s.name()).isEqualTo(definition(s, twin, t));
            assertEqual(s, twin, t, m.db, t, "the new table equals the server's ALTER of the twin, after the cut-over");
        }
        long rows = SHARDS.servers().stream().mapToLong(s -> s.queryLong(m.db, "SELECT COUNT(*) FROM " + t)).sum();
        return "migrated " + rows + " rows under " + writers.stream().mapToLong(w -> w.commits.get()).sum()
                + " writes";
    }

    private static String failsLoudly(Case c, OnlineDdlMigration m, List<Writer> writers, String twin)
            throws Exception {
        String t = c.base.table;
        writers.forEach(Writer::start);
        deploy(m, c, false);
        List<Struct> statuses = CloneHandoffIT.awaitState(connect, m.statusTopic, "FAILED", STATE_TIMEOUT);
        String reason = statuses.get(statuses.size() - 1).getString("reason");
        writers.forEach(Writer::stop);
        m.delete();
        assertThat(reason).as("%s: the reason", c.name).containsIgnoringCase(c.fragments.get(0));
        for (MariaDbServer s : SHARDS.servers()) {
            assertThat(tables(s, m.db)).as("%s: nothing swapped on %s", c.name, s.name()).doesNotContain(t + "_old")
                    .contains(t);
            assertThat(definition(s, m.db, t)).as("%s: the table's definition is unchanged", c.name)
                    .isEqualTo(definition(s, twin, t));
            assertEqual(s, twin, t, m.db, t, "the table holds every write, as its twin");
        }
        String server;
        try {
            serverSession(SHARDS.server(0), twin, "ALTER TABLE " + t + " " + c.alter);
            server = "the server's own ALTER succeeds";
        } catch (SQLException e) {
            server = "the server's own ALTER fails too: " + e.getMessage();
        }
        return "failed as expected: " + reason + " | " + server;
    }

    private static String refusedUntouched(Case c, OnlineDdlMigration m, String twin) throws Exception {
        String t = c.base.table;
        deploy(m, c, false);
        List<Struct> statuses = CloneHandoffIT.awaitState(connect, m.statusTopic, "FAILED", STATE_TIMEOUT);
        String reason = statuses.get(statuses.size() - 1).getString("reason");
        m.delete();
        assertThat(statuses.stream().map(s -> s.getString("state")).distinct()).as("%s: refused before anything"
                + " runs", c.name).containsOnly("CREATED", "FAILED");
        for (String f : c.fragments) {
            assertThat(reason).as("%s: the reason and its fix", c.name).contains(f);
        }
        for (MariaDbServer s : SHARDS.servers()) {
            assertThat(tables(s, m.db)).as("%s: no ghost on %s", c.name, s.name()).containsExactly(t);
            if (s.queryLong(null, "SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = '_vstream'"
                    + " AND TABLE_NAME = 'migrations'") > 0) {
                assertThat(s.queryLong(null, "SELECT COUNT(*) FROM _vstream.migrations WHERE migration = ?", m.db))
                        .as("%s: no plan stored", c.name).isZero();
            }
            assertThat(definition(s, m.db, t)).as("%s: the table's definition is unchanged", c.name)
                    .isEqualTo(definition(s, twin, t));
            assertEqual(s, twin, t, m.db, t, "the table is untouched");
        }
        return "refused: " + reason;
    }

    // ---- comparisons ------------------------------------------------------------------------------------------------

    private static void assertEqual(MariaDbServer s, String db1, String t1, String db2, String t2, String what)
            throws SQLException {
        ComparisonResult r = compare(s, db1, t1, db2, t2);
        assertThat(r.isEqual()).as("%s: %s.%s vs %s.%s on %s: %s", what, db1, t1, db2, t2, s.name(), r).isTrue();
    }

    /** Compares until equal (the applier catching up with the parked writers' last writes), for at most 90 s. */
    private static void awaitEqual(MariaDbServer s, String db1, String t1, String db2, String t2, String what)
            throws SQLException, InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        ComparisonResult r = compare(s, db1, t1, db2, t2);
        while (!r.isEqual() && System.nanoTime() < deadline) {
            Thread.sleep(500);
            r = compare(s, db1, t1, db2, t2);
        }
        assertThat(r.isEqual()).as("%s: %s.%s vs %s.%s on %s: %s", what, db1, t1, db2, t2, s.name(), r).isTrue();
    }

    private static ComparisonResult compare(MariaDbServer s, String db1, String t1, String db2, String t2)
            throws SQLException {
        try (Connection a = open(s, db1); Connection b = open(s, db2)) {
            return TableComparator.builder().source(a, db1, t1).target(b, db2, t2).build().compare();
        }
    }

    /**
     * A session as a user's on the server: in the server's time zone ({@link #SERVER_ZONE}, set explicitly so that
     * both sides of a comparison, and the server's own ALTERs, read and convert TIMESTAMPs alike).
     */
    private static Connection open(MariaDbServer s, String db) throws SQLException {
        Connection c = s.connect(db);
        try (Statement st = c.createStatement()) {
            st.execute("SET SESSION time_zone = '" + SERVER_ZONE + "'");
        }
        return c;
    }

    /** Runs the statements in one {@link #open} session (the server's own ALTER and the copies it is run on). */
    private static void serverSession(MariaDbServer s, String db, String... sql) throws SQLException {
        try (Connection c = open(s, db); Statement st = c.createStatement()) {
            for (String each : sql) {
                st.execute(each);
            }
        }
    }

    /** Columns (in order, with type, NULL, default, extra, charset, collation, expression), keys, engine, options. */
    private static String definition(MariaDbServer s, String db, String table) {
        String columns = s.queryString(null, "SELECT GROUP_CONCAT(CONCAT_WS('|', ORDINAL_POSITION, COLUMN_NAME,"
                + " COLUMN_TYPE, IS_NULLABLE, IFNULL(COLUMN_DEFAULT, '-'), EXTRA, IFNULL(CHARACTER_SET_NAME, '-'),"
                + " IFNULL(COLLATION_NAME, '-'), IFNULL(GENERATION_EXPRESSION, '-')) ORDER BY ORDINAL_POSITION"
                + " SEPARATOR '\\n') FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?",
                db, table);
        String keys = s.queryString(null, "SELECT GROUP_CONCAT(CONCAT_WS('|', INDEX_NAME, SEQ_IN_INDEX, COLUMN_NAME,"
                + " NON_UNIQUE, IFNULL(SUB_PART, '-')) ORDER BY INDEX_NAME, SEQ_IN_INDEX SEPARATOR '\\n') FROM"
                + " information_schema.STATISTICS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?", db, table);
        String options = s.queryString(null, "SELECT CONCAT_WS('|', ENGINE, TABLE_COLLATION, CREATE_OPTIONS) FROM"
                + " information_schema.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?", db, table);
        return columns + "\nkeys:\n" + keys + "\ntable: " + options;
    }

    private static List<String> plainColumns(MariaDbServer s, String db, String table) {
        String all = s.queryString(null, "SELECT GROUP_CONCAT(CONCAT('`', COLUMN_NAME, '`') ORDER BY ORDINAL_POSITION)"
                + " FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? AND EXTRA NOT LIKE"
                + " '%GENERATED%'", db, table);
        return List.of(all.split(","));
    }

    private static List<String> tables(MariaDbServer s, String db) {
        String all = s.queryString(null, "SELECT IFNULL(GROUP_CONCAT(TABLE_NAME ORDER BY TABLE_NAME), '') FROM"
                + " information_schema.TABLES WHERE TABLE_SCHEMA = ?", db);
        return all.isEmpty() ? List.of() : List.of(all.split(","));
    }

    private static long seconds(long begin) {
        return TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - begin);
    }

    // ---- the data-driven list's vocabulary --------------------------------------------------------------------------

    enum Outcome { SUPPORTED, FAILS, REFUSED }

    /** A column's next value as an SQL literal, for row number {@code n}. */
    interface Value {
        String sql(long n, Random random);
    }

    /** A table to start from: its name, its definition, its key columns' literals by row number, its columns. */
    record Base(String table, String definition, LongFunction<Map<String, String>> key, Map<String, Value> columns) {
    }

    /** One line of the list; {@link #toString()} names the test. */
    static final class Case {
        final String name;
        final Base base;
        final String alter;
        final Outcome outcome;
        final List<String> fragments;
        final Map<String, String> config = new HashMap<>();
        final List<String> setup = new ArrayList<>();
        final Map<String, Value> written;

        Case(String name, Base base, String alter, Outcome outcome, List<String> fragments) {
            this.name = name;
            this.base = base;
            this.alter = alter;
            this.outcome = outcome;
            this.fragments = fragments;
            this.written = new LinkedHashMap<>(base.columns);
        }

        /** A coordinator setting for this case. */
        Case with(String key, String value) {
            config.put(key, value);
            return this;
        }

        /** Statements run on the table and its twin ({@code {T}}) after the preload. */
        Case setup(String... sql) {
            setup.addAll(List.of(sql));
            return this;
        }

        /** Columns the writers leave alone (the ALTER drops or renames them). */
        Case untouched(String... columns) {
            for (String c : columns) {
                written.remove(c);
            }
            return this;
        }

        /** The values the writers give {@code column} in this case. */
        Case writes(String column, Value value) {
            written.put(column, value);
            return this;
        }

        @Override
        public String toString() {
            return name + ": " + alter;
        }
    }

    static Case ok(String name, Base base, String alter) {
        return new Case(name, base, alter, Outcome.SUPPORTED, List.of());
    }

    static Case fails(String name, Base base, String alter, String reason) {
        return new Case(name, base, alter, Outcome.FAILS, List.of(reason));
    }

    static Case refused(String name, Base base, String alter, String reason, String fix) {
        return new Case(name, base, alter, Outcome.REFUSED, List.of(reason, fix));
    }

    private static Map<String, Value> columns(Object... nameThenValue) {
        Map<String, Value> out = new LinkedHashMap<>();
        for (int i = 0; i < nameThenValue.length; i += 2) {
            out.put((String) nameThenValue[i], (Value) nameThenValue[i + 1]);
        }
        return Collections.unmodifiableMap(out);
    }

    private static Map<String, String> key(Object... nameThenValue) {
        Map<String, String> out = new LinkedHashMap<>();
        for (int i = 0; i < nameThenValue.length; i += 2) {
            out.put((String) nameThenValue[i], String.valueOf(nameThenValue[i + 1]));
        }
        return out;
    }

    private static String pick(Random r, String... choices) {
        return choices[r.nextInt(choices.length)];
    }

    // ---- the writers --------------------------------------------------------------------------------------------

    /**
     * Writes one shard's table and, in the same transaction, the same statement to the twin in another database:
     * inserts of absent keys, updates and deletes of present ones, one key per transaction, about 20 a second. Its
     * session is in another time zone ({@code +05:30}) and fixes the statement time per transaction, so that the
     * server's CURRENT_TIMESTAMP is the same in both tables. A failed transaction is rolled back in both and counted.
     */
    private static final class Writer implements Runnable {
        final MariaDbServer server;
        final Case c;
        final String db;
        final String twin;
        final long first;
        final Random random;
        final Set<Long> present = new HashSet<>();
        final AtomicLong commits = new AtomicLong();
        final List<String> errors = Collections.synchronizedList(new ArrayList<>());
        volatile boolean stopping;
        volatile boolean parking;
        volatile boolean parked;
        Thread thread;

        Writer(MariaDbServer server, Case c, String db, String twin, long first, long seed) {
            this.server = server;
            this.c = c;
            this.db = db;
            this.twin = twin;
            this.first = first;
            this.random = new Random(seed);
        }

        void preload() throws SQLException {
            try (Connection conn = open(); Statement st = conn.createStatement()) {
                conn.setAutoCommit(false);
                stamp(st);
                for (long n = first; n < first + PRELOAD; n++) {
                    String insert = insert(n);
                    st.execute(insert.replace("{T}", table(db)));
                    st.execute(insert.replace("{T}", table(twin)));
                    present.add(n);
                }
                for (String sql : c.setup) {
                    st.execute(sql.replace("{T}", table(db)));
                    st.execute(sql.replace("{T}", table(twin)));
                }
                conn.commit();
            }
        }

        void start() {
            thread = new Thread(this, "alter-writer-" + db + "-" + server.port());
            thread.start();
        }

        @Override
        public void run() {
            try (Connection conn = open(); Statement st = conn.createStatement()) {
                conn.setAutoCommit(false);
                while (!stopping) {
                    if (parking) {
                        parked = true;
                        Thread.sleep(20);
                        continue;
                    }
                    parked = false;
                    long n = first + random.nextInt(KEYS);
                    boolean exists = present.contains(n);
                    boolean delete = exists && random.nextInt(4) == 0;
                    String sql = !exists ? insert(n) : delete ? "DELETE FROM {T} WHERE " + where(n) : update(n);
                    try {
                        stamp(st);
                        st.execute(sql.replace("{T}", table(db)));
                        st.execute(sql.replace("{T}", table(twin)));
                        conn.commit();
                        if (delete) {
                            present.remove(n);
                        } else {
                            present.add(n);
                        }
                        commits.incrementAndGet();
                    } catch (SQLException e) {
                        errors.add(e.getErrorCode() + " " + e.getMessage() + " in " + sql);
                        conn.rollback();
                    }
                    Thread.sleep(50);
                }
            } catch (SQLException e) {
                errors.add("the writer's connection failed: " + e.getMessage());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        private Connection open() throws SQLException {
            Connection conn = server.connect(db);
            try (Statement st = conn.createStatement()) {
                st.execute("SET SESSION time_zone = '+05:30'");
            }
            return conn;
        }

        /**
         * The server's clock for this transaction, the same for both tables' CURRENT_TIMESTAMPs; whole seconds, so
         * that a column whose precision the ALTER raises gets the same value whether written before or after it.
         */
        private static void stamp(Statement st) throws SQLException {
            st.execute("SET timestamp = " + System.currentTimeMillis() / 1000);
        }

        private String insert(long n) {
            Map<String, String> row = new LinkedHashMap<>(c.base.key.apply(n));
            c.written.forEach((k, v) -> row.put(k, v.sql(n, random)));
            return "INSERT INTO {T} (" + String.join(", ", row.keySet()) + ") VALUES ("
                    + String.join(", ", row.values()) + ")";
        }

        private String update(long n) {
            String set = c.written.entrySet().stream().filter(e -> random.nextInt(3) > 0 || e.getKey().equals("sku"))
                    .map(e -> e.getKey() + " = " + e.getValue().sql(n, random)).collect(Collectors.joining(", "));
            if (set.isEmpty()) {
                Map.Entry<String, Value> any = c.written.entrySet().iterator().next();
                set = any.getKey() + " = " + any.getValue().sql(n, random);
            }
            return "UPDATE {T} SET " + set + " WHERE " + where(n);
        }

        private String where(long n) {
            return c.base.key.apply(n).entrySet().stream().map(e -> e.getKey() + " = " + e.getValue())
                    .collect(Collectors.joining(" AND "));
        }

        private String table(String database) {
            return database + "." + c.base.table;
        }

        void park() {
            parking = true;
            awaitFlag(() -> parked || !thread.isAlive(), "parked");
        }

        void unpark() {
            parking = false;
        }

        void awaitCommits(long count) {
            awaitFlag(() -> commits.get() >= count || !thread.isAlive(), count + " commits");
        }

        void stop() {
            stopping = true;
            if (thread != null) {
                try {
                    thread.join(30_000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }

        private void awaitFlag(java.util.function.BooleanSupplier done, String what) {
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (!done.getAsBoolean()) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("the writer of " + db + " on " + server.name() + " never " + what);
                }
                try {
                    Thread.sleep(20);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new AssertionError("interrupted", e);
                }
            }
        }
    }

    // ---- the three connectors of one migration --------------------------------------------------------------------

    /** Deploys the migration's coordinator, source and sink for case {@code c}, postponing its cut-over or not. */
    private static void deploy(OnlineDdlMigration m, Case c, boolean postpone) {
        m.deploy(c.alter, coordinatorExtra(c, postpone));
    }

    /** (Re)deploys only the migration's coordinator for case {@code c}. */
    private static void deployCoordinator(OnlineDdlMigration m, Case c, boolean postpone) {
        Map<String, String> config = m.coordinatorConfig(c.alter);
        config.putAll(coordinatorExtra(c, postpone));
        m.deployCoordinator(config);
    }

    private static Map<String, String> coordinatorExtra(Case c, boolean postpone) {
        Map<String, String> extra = new HashMap<>();
        extra.put("handoff.postpone", String.valueOf(postpone));
        extra.putAll(c.config);
        return extra;
    }
}
