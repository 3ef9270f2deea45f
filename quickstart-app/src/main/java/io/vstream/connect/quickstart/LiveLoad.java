package io.vstream.connect.quickstart;

import io.vstream.connect.local.compare.ComparisonResult;
import io.vstream.connect.local.load.LoadStats;
import io.vstream.connect.local.load.LoadTable;
import io.vstream.connect.local.load.RowFactory;
import io.vstream.connect.local.load.Target;
import io.vstream.connect.local.load.WriteLoad;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;

/**
 * The live write load on the sample keyspace, as an application writes during the online ALTER: local-runtime's
 * {@link WriteLoad} (its threads, pace, statements and model of acknowledged writes), each row on the shard the hash
 * vindex names. It writes {@code orders} (the table being altered, 65% of the transactions: updates, inserts and
 * deletes over ids up to 1.5 times the sample's), {@code corder} (20%: new order lines, placed by their
 * {@code customer_id}) and {@code customer} (15%: e-mail updates); the sample rows join its model before it starts.
 * Writes to the shards only.
 */
final class LiveLoad implements AutoCloseable {
    static final String ORDERS = "orders";
    /** The ids of {@code corder}: the sample's are the first {@value SampleData#CORDERS}, nearly all others are new. */
    private static final int CORDER_IDS = 1_000_000;

    private final WriteLoad load;
    private boolean closed;

    LiveLoad(Keyspace keyspace, int threads, int transactionsPerSecond, int orders) {
        this.load = WriteLoad.builder(Target.sharded(keyspace.shards(), SampleData.DB, keyspace::shardOf))
                .table(LoadTable.of(ORDERS, "id", new OrderRows()).withWeight(65).withKeySpace(orders + orders / 2))
                .table(LoadTable.of("corder", "order_id", new CorderRows()).withWeight(20).withKeySpace(CORDER_IDS)
                        .withDeleteRatio(0).routedBy(SampleData::customerOfCorder))
                .table(LoadTable.of("customer", "customer_id", new CustomerRows()).withWeight(15)
                        .withKeySpace(SampleData.CUSTOMERS).withDeleteRatio(0))
                .threads(threads).transactionsPerSecond(transactionsPerSecond).deleteRatio(0.2).seed(42)
                .keepTransactions(false).build();
    }

    /** Takes the sample rows into the model and starts the writers. */
    void start() {
        load.adoptExistingRows().start();
    }

    /** Stops the writers after their last transactions (once; a failure of the load is thrown the first time). */
    @Override
    public void close() {
        if (!closed) {
            closed = true;
            load.stop();
        }
    }

    long commits() {
        return load.stats().commits();
    }

    /** Failed writes: errors, COMMITs with an unknown outcome, rows the model did not expect. */
    long failures() {
        LoadStats stats = load.stats();
        return stats.errors() + stats.unknownOutcomes() + stats.mismatches();
    }

    /** The first failure and the failures by error code, or "". */
    String failureSummary() {
        String first = load.stats().firstError();
        return first == null ? "" : " (first: " + first + "; by error code " + load.errorsByCode() + ")";
    }

    /** The longest a transaction took, commit included (the cut-over blocks writes for a bounded time). */
    long maxLatencyMillis() {
        return load.stats().transactionMax().toMillis();
    }

    /** One shard's {@code orders} against the model: every acknowledged write there, nothing else. */
    ComparisonResult verifyOrders(int shard) {
        return load.verifyShard(shard, ORDERS);
    }

    /** Ids of {@code orders} the load wrote. */
    int ordersWritten() {
        return load.keysWrittenSince(ORDERS, Instant.EPOCH).size();
    }

    /** Ids of {@code orders} whose last write ended at or after {@code epochMillis}, or whose outcome is unknown. */
    Set<Long> ordersWrittenSince(long epochMillis) {
        Set<Long> out = new TreeSet<>(load.keysWrittenSince(ORDERS, Instant.ofEpochMilli(epochMillis)));
        out.addAll(load.uncertainKeys(ORDERS));
        return out;
    }

    /** {@code orders (id, k, amount, customer_id, note)}. */
    private static final class OrderRows implements RowFactory {
        @Override
        public List<String> columns() {
            return List.of("k", "amount", "customer_id", "note");
        }

        @Override
        public Map<String, Object> insert(long key, Random random) {
            return row(random, "new " + key);
        }

        @Override
        public Map<String, Object> update(long key, Map<String, Object> current, Random random) {
            return row(random, "updated " + random.nextInt(1_000_000));
        }

        private static Map<String, Object> row(Random random, String note) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("k", random.nextInt(1000));
            row.put("amount", BigDecimal.valueOf(random.nextInt(9_999_999), 2));
            row.put("customer_id", 1L + random.nextInt(SampleData.CUSTOMERS));
            row.put("note", note);
            return row;
        }
    }

    /** {@code corder (order_id, customer_id, sku, price)}, sharded by {@code customer_id}, which an update keeps. */
    private static final class CorderRows implements RowFactory {
        @Override
        public List<String> columns() {
            return List.of("customer_id", "sku", "price");
        }

        @Override
        public Map<String, Object> insert(long key, Random random) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("customer_id", SampleData.customerOfCorder(key));
            row.put("sku", "SKU-" + random.nextInt(500));
            row.put("price", BigDecimal.valueOf(random.nextInt(99_999), 2));
            return row;
        }

        @Override
        public Map<String, Object> update(long key, Map<String, Object> current, Random random) {
            return insert(key, random);
        }
    }

    /** {@code customer (customer_id, email)}: the e-mail changes. */
    private static final class CustomerRows implements RowFactory {
        @Override
        public List<String> columns() {
            return List.of("email");
        }

        @Override
        public Map<String, Object> insert(long key, Random random) {
            return Map.of("email", "customer" + key + "@example.com");
        }

        @Override
        public Map<String, Object> update(long key, Map<String, Object> current, Random random) {
            return Map.of("email", "customer" + key + "+" + random.nextInt(1_000_000) + "@example.com");
        }
    }
}
