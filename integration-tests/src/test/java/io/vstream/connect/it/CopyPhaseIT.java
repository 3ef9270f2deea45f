package io.vstream.connect.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.vstream.connect.core.event.EventHeaders;
import io.vstream.connect.core.event.EventType;
import io.vstream.connect.core.event.TopicNames;
import io.vstream.connect.local.compare.ComparisonResult;
import io.vstream.connect.testsupport.compare.TableComparator;
import io.vstream.connect.testsupport.connect.ConnectCluster;
import io.vstream.connect.testsupport.connect.TopicReader.Decoded;
import io.vstream.connect.testsupport.db.MariaDbServer;
import io.vstream.connect.testsupport.db.MariaDbShards;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The copy phase on two shards with three tables (a BIGINT key, a composite key, a VARCHAR key in a case-insensitive
 * collation) under concurrent writes for the whole copy, while the workers running the copy are lost three times: a consumer
 * that applies the logs ends equal to the sources by checksum, and the copy resumed from its last key each time (the
 * copy rows emitted stay close to the table sizes).
 */
class CopyPhaseIT {
    @RegisterExtension
    static final MariaDbShards SHARDS = MariaDbShards.builder().count(3).name("CopyPhaseIT").build();

    private static final int ROWS = 25_000;
    private static final String[] TABLES = {"customers", "items", "orders"};
    private static final String[] SHARD_NAMES = {"-80", "80-"};

    @Test
    void copyUnderWritesAndWorkerLossEndsEqualToTheSource() throws Exception {
        String db = SHARDS.freshDatabase();
        List<MariaDbServer> sources = SHARDS.servers().subList(0, 2);
        for (int s = 0; s < 2; s++) {
            createTables(sources.get(s), db);
            load(sources.get(s), db, s);
        }
        AtomicBoolean writing = new AtomicBoolean(true);
        AtomicLong writes = new AtomicLong();
        List<Thread> writers = new ArrayList<>();
        for (int s = 0; s < 2; s++) {
            int shard = s;
            Thread t = new Thread(() -> write(sources.get(shard), db, shard, writing, writes), "writer-" + s);
            t.start();
            writers.add(t);
        }
        String name = "copy-" + db;
        try (ConnectCluster connect = ConnectCluster.builder().name("copy").workers(3).start()) {
            connect.deploy(name, SourceConfigs.with(SourceConfigs.keyspace("commerce", db, sources, 2),
                    "start.mode", "copy",
                    "copy.chunk.max.rows", "2000",
                    "copy.chunk.target.ms", "200",
                    "copy.max.rows.per.second", "3000"));
            connect.awaitRunning(name, 2, Duration.ofSeconds(60));
            // lose the worker running a copy three times: shard -80 twice, shard 80- once; each time once the task
            // has copied 15,000 rows since it started (of 75,000 at most 3,000 rows/s) and its shard's copy has not
            // completed, so that a copy started over would show in the rows emitted (below)
            int[] victims = {0, 1, 0};
            for (int task : victims) {
                awaitCopying(connect, name, db, SHARD_NAMES[task], 15_000);
                connect.removeWorkerRunning(name, task);
                connect.addWorker();
                connect.awaitRunning(name, 2, Duration.ofSeconds(60));
            }
            for (String shard : SHARD_NAMES) {
                awaitEvent(connect, topic(db, shard), EventType.COPY_COMPLETED, Duration.ofSeconds(120));
            }
            // and one for the whole stream, on the keyspace topic
            awaitEvent(connect, TopicNames.keyspaceTopic("vs_" + db, "commerce"), EventType.COPY_COMPLETED,
                    Duration.ofSeconds(60));
            writing.set(false);
            for (Thread t : writers) {
                t.join();
            }
            assertThat(writes.get()).as("writes during the copy").isGreaterThan(200);
            for (int s = 0; s < 2; s++) {
                sources.get(s).execute(db, "INSERT INTO customers VALUES ('~marker@done', 'marker', 0)");
            }
            MariaDbServer target = SHARDS.server(2);
            for (int s = 0; s < 2; s++) {
                List<Decoded> log = awaitMarker(connect, topic(db, SHARD_NAMES[s]));
                String targetDb = db + "_t" + s;
                target.execute("mysql", "CREATE DATABASE " + targetDb);
                createTables(target, targetDb);
                long copyRows;
                try (Connection c = target.connect(targetDb)) {
                    LogApplier applier = new LogApplier(c, targetDb);
                    applier.apply(log);
                    copyRows = applier.copyRows;
                }
                // every (re)start of the shard's stream is announced by a VGTID record (docs/copy.md); a restart
                // copies again what was emitted after the last stored offset (the offset flush lags the copy by up to
                // a few seconds on a busy machine: at 3,000 rows/s, 10,000 rows are 3.3 s), never a table from its
                // start: a copy started over after a fault would add at least the 15,000 rows copied before it
                long restarts = log.stream().filter(d -> EventType.VGTID.headerValue()
                        .equals(d.header(EventHeaders.EVENT))).count() - 1;
                assertThat(restarts).as("restarts of shard %s's stream", SHARD_NAMES[s]).isPositive();
                assertThat(copyRows).as("copy rows emitted for shard %s (3 tables of %d rows; %d restarts, each"
                        + " re-copying at most 10,000 rows)", SHARD_NAMES[s], ROWS, restarts)
                        .isGreaterThan((long) (ROWS * 3 * 0.9)).isLessThan(ROWS * 3L + restarts * 10_000L);
                try (Connection src = sources.get(s).connect(db); Connection dst = target.connect(targetDb)) {
                    for (String table : TABLES) {
                        ComparisonResult r = TableComparator.builder().source(src, db, table)
                                .target(dst, targetDb, table).build().compare();
                        assertThat(r.isEqual()).as("shard %s table %s: %s%s", SHARD_NAMES[s], table, r,
                                r.isEqual() ? "" : explain(log, table, r)).isTrue();
                    }
                }
            }
            connect.delete(name);
        } finally {
            writing.set(false);
        }
    }

    /** For a failure: every log record of the first differing keys. */
    private static String explain(List<Decoded> log, String table, ComparisonResult r) {
        StringBuilder sb = new StringBuilder("\n");
        r.differences().stream().limit(3).forEach(d -> {
            sb.append("key ").append(d.key()).append(":\n");
            for (Decoded rec : log) {
                if (!table.equals(rec.header(EventHeaders.TABLE)) || rec.key() == null || rec.key().value() == null) {
                    continue;
                }
                org.apache.kafka.connect.data.Struct k = (org.apache.kafka.connect.data.Struct) rec.key().value();
                boolean match = true;
                for (var e : d.key().entrySet()) {
                    match &= e.getValue().equals(String.valueOf(k.get(e.getKey())));
                }
                if (match) {
                    String v = String.valueOf(rec.value().value());
                    sb.append("  @").append(rec.offset()).append(' ').append(v, 0, Math.min(v.length(), 300))
                            .append('\n');
                }
            }
        });
        return sb.toString();
    }

    private static String topic(String db, String shard) {
        return TopicNames.shardTopic("vs_" + db, "commerce", shard);
    }

    private static void createTables(MariaDbServer s, String db) {
        s.execute(db,
                "CREATE TABLE orders (id BIGINT PRIMARY KEY, customer VARCHAR(64) NOT NULL,"
                        + " amount DECIMAL(12,2) NOT NULL, created DATETIME(6) NOT NULL, note VARCHAR(200))",
                "CREATE TABLE items (order_id BIGINT NOT NULL, line INT NOT NULL, sku VARCHAR(32) NOT NULL,"
                        + " qty INT NOT NULL, PRIMARY KEY (order_id, line))",
                "CREATE TABLE customers (email VARCHAR(120) NOT NULL PRIMARY KEY, name VARCHAR(100), score INT)"
                        + " DEFAULT CHARSET utf8mb4 COLLATE utf8mb4_general_ci");
    }

    private static void load(MariaDbServer s, String db, int shard) throws SQLException {
        try (Connection c = s.connect(db)) {
            c.setAutoCommit(false);
            long base = shard * 1_000_000L;
            for (int from = 0; from < ROWS; from += 1000) {
                StringBuilder o = new StringBuilder("INSERT INTO orders VALUES ");
                StringBuilder i = new StringBuilder("INSERT INTO items VALUES ");
                StringBuilder cu = new StringBuilder("INSERT INTO customers VALUES ");
                for (int k = from; k < from + 1000; k++) {
                    String sep = k == from ? "" : ",";
                    o.append(sep).append('(').append(base + k).append(",'cust").append(k % 977).append("',")
                            .append(k % 10000).append(".").append(k % 100).append(",'2024-03-0")
                            .append(1 + k % 9).append(" 10:11:12.").append(100000 + k % 900000).append("',")
                            .append(k % 7 == 0 ? "NULL" : "'note " + k + "'").append(')');
                    i.append(sep).append('(').append(base + k / 3).append(',').append(k % 3).append(",'sku-")
                            .append(k % 501).append("',").append(k % 13).append(')');
                    cu.append(sep).append("('User").append(k).append("@Example.com','Näme ").append(k)
                            .append("',").append(k % 1000).append(')');
                }
                try (var st = c.createStatement()) {
                    st.execute(o.toString());
                    st.execute(i.toString());
                    st.execute(cu.toString());
                }
                c.commit();
            }
        }
    }

    /** Random updates, inserts and deletes over the whole key range of all three tables, until told to stop. */
    private static void write(MariaDbServer s, String db, int shard, AtomicBoolean writing, AtomicLong count) {
        Random random = new Random(7 + shard);
        long base = shard * 1_000_000L;
        long next = ROWS;
        try (Connection c = s.connect(db)) {
            c.setAutoCommit(false);
            while (writing.get()) {
                int k = random.nextInt(ROWS);
                try (PreparedStatement up = c.prepareStatement("UPDATE orders SET amount = amount + 1, note = ?"
                        + " WHERE id = ?");
                     PreparedStatement ins = c.prepareStatement("INSERT INTO orders VALUES (?, 'new', 1.00,"
                             + " '2025-01-01 00:00:00.000001', NULL)");
                     PreparedStatement del = c.prepareStatement("DELETE FROM items WHERE order_id = ? AND line = ?");
                     PreparedStatement cu = c.prepareStatement("UPDATE customers SET score = score + 1 WHERE email = ?");
                     PreparedStatement cd = c.prepareStatement("DELETE FROM customers WHERE email = ?")) {
                    up.setString(1, "w" + random.nextInt(1000));
                    up.setLong(2, base + k);
                    up.executeUpdate();
                    if (random.nextInt(4) == 0) {
                        ins.setLong(1, base + next++);
                        ins.executeUpdate();
                    }
                    del.setLong(1, base + random.nextInt(ROWS / 3));
                    del.setInt(2, random.nextInt(3));
                    del.executeUpdate();
                    cu.setString(1, "user" + random.nextInt(ROWS) + "@example.com"); // other case: same row
                    cu.executeUpdate();
                    if (random.nextInt(5) == 0) {
                        cd.setString(1, "User" + random.nextInt(ROWS) + "@Example.com");
                        cd.executeUpdate();
                    }
                    c.commit();
                    count.incrementAndGet();
                }
                Thread.sleep(5);
            }
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Waits until the task streaming {@code shard} has copied {@code rows} rows since it started (its JMX counter; the
     * embedded workers run in this JVM), then checks that the shard's copy has not completed: a fault injected next
     * hits the copy.
     */
    private static void awaitCopying(ConnectCluster connect, String name, String db, String shard, long rows)
            throws Exception {
        var mbeans = java.lang.management.ManagementFactory.getPlatformMBeanServer();
        javax.management.ObjectName pattern = new javax.management.ObjectName("io.vstream.connect:type=source,"
                + "connector=" + javax.management.ObjectName.quote(name) + ",*");
        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        long copied = -1;
        while (copied < rows) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("shard " + shard + " copied " + copied + " rows, not " + rows);
            }
            Thread.sleep(100);
            for (javax.management.ObjectName n : mbeans.queryNames(pattern, null)) {
                String s = n.getKeyProperty("shard");
                if (shard.equals(s) || javax.management.ObjectName.quote(shard).equals(s)) {
                    try {
                        copied = (Long) mbeans.getAttribute(n, "CopyRows");
                    } catch (javax.management.InstanceNotFoundException gone) {
                        copied = -1; // the task stopped meanwhile
                    }
                }
            }
        }
        boolean completed = connect.topics().readAll(topic(db, shard), false).stream()
                .anyMatch(d -> EventType.COPY_COMPLETED.headerValue().equals(d.header(EventHeaders.EVENT)));
        assertThat(completed).as("shard %s still copies when the fault comes", shard).isFalse();
    }

    private static void awaitEvent(ConnectCluster connect, String topic, EventType type, Duration timeout)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            try {
                for (Decoded d : connect.topics().readAll(topic, false)) {
                    if (type.headerValue().equals(d.header(EventHeaders.EVENT))) {
                        return;
                    }
                }
            } catch (RuntimeException e) {
                // not there yet
            }
            Thread.sleep(1000);
        }
        throw new AssertionError(type + " never appeared on " + topic);
    }

    private static List<Decoded> awaitMarker(ConnectCluster connect, String topic) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < deadline) {
            List<Decoded> log = connect.topics().readAll(topic, false);
            for (Decoded d : log) {
                if ("customers".equals(d.header(EventHeaders.TABLE))
                        && EventType.ROW.headerValue().equals(d.header(EventHeaders.EVENT))
                        && d.value().value().toString().contains("~marker@done")) {
                    return log;
                }
            }
            Thread.sleep(500);
        }
        throw new AssertionError("the marker row never reached " + topic);
    }
}
