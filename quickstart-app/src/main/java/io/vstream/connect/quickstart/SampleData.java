package io.vstream.connect.quickstart;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * The sample schema and data of the keyspace {@code commerce} on every shard: {@code customer} and {@code corder}
 * (sharded by {@code customer_id}, streamed by the CDC example) and {@code orders} (sharded by {@code id}, altered by
 * the online DDL example), each row on the shard the hash vindex names. Also the connectors' users with the grants
 * the docs give. Writes to the shards only.
 */
final class SampleData {
    static final String DB = Keyspace.NAME;
    static final int CUSTOMERS = 2_000;
    static final int CORDERS = 6_000;
    private static final int BATCH = 1_000;

    private final Keyspace keyspace;
    private final int orders;

    SampleData(Keyspace keyspace, int orders) {
        this.keyspace = keyspace;
        this.orders = orders;
    }

    int orders() {
        return orders;
    }

    /** The customer of an order line, {@code corder}'s sharding key: a function of its id, for the live load too. */
    static long customerOfCorder(long orderId) {
        return 1 + (orderId * 31) % CUSTOMERS;
    }

    /** The users of config-examples/ with their passwords, and the database and tables. */
    void createSchema(String cdcPassword, String ddlPassword) throws SQLException {
        for (MariaDbShard shard : keyspace.shards()) {
            shard.execute("",
                    "CREATE DATABASE " + DB,
                    // the accounts exactly as docs/grants.md prints them ("cdc source", "online-ddl shard")
                    "CREATE USER 'vstream'@'%' IDENTIFIED BY '" + cdcPassword + "'",
                    "GRANT REPLICATION SLAVE ON *.* TO 'vstream'@'%'",
                    "GRANT BINLOG MONITOR ON *.* TO 'vstream'@'%'",
                    "GRANT SELECT ON `" + DB + "`.* TO 'vstream'@'%'",
                    "GRANT SELECT ON `_vstream`.* TO 'vstream'@'%'",
                    "CREATE USER 'vstream_ddl'@'%' IDENTIFIED BY '" + ddlPassword + "'",
                    "GRANT ALL ON `" + DB + "`.* TO 'vstream_ddl'@'%'",
                    "GRANT ALL ON `_vstream`.* TO 'vstream_ddl'@'%'",
                    "GRANT PROCESS ON *.* TO 'vstream_ddl'@'%'");
            shard.execute(DB,
                    "CREATE TABLE customer (customer_id BIGINT NOT NULL PRIMARY KEY, email VARCHAR(128) NOT NULL,"
                            + " created DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3))",
                    "CREATE TABLE corder (order_id BIGINT NOT NULL PRIMARY KEY, customer_id BIGINT NOT NULL,"
                            + " sku VARCHAR(32) NOT NULL, price DECIMAL(10,2) NOT NULL, KEY k_customer (customer_id))",
                    "CREATE TABLE orders (id BIGINT NOT NULL PRIMARY KEY, k INT NOT NULL,"
                            + " amount DECIMAL(12,2) NOT NULL, customer_id BIGINT NOT NULL, note VARCHAR(64) NULL)");
        }
    }

    /** Inserts the rows, each on its shard, in batches; returns the number of orders per shard. */
    int[] load() throws SQLException {
        int n = keyspace.shards().size();
        List<List<Object[]>> customers = split(n);
        for (long c = 1; c <= CUSTOMERS; c++) {
            customers.get(keyspace.shardOf(c)).add(new Object[] {c, "customer" + c + "@example.com"});
        }
        List<List<Object[]>> corders = split(n);
        for (long o = 1; o <= CORDERS; o++) {
            long customer = customerOfCorder(o);
            corders.get(keyspace.shardOf(customer)).add(new Object[] {o, customer, "SKU-" + (1000 + o % 500),
                    java.math.BigDecimal.valueOf(100 + o % 9000, 2)});
        }
        List<List<Object[]>> rows = split(n);
        for (long id = 1; id <= orders; id++) {
            OrderRow r = OrderRow.initial(id);
            rows.get(keyspace.shardOf(id)).add(new Object[] {r.id(), r.k(), r.amount(), r.customerId(), r.note()});
        }
        int[] perShard = new int[n];
        for (int i = 0; i < n; i++) {
            try (Connection c = keyspace.shards().get(i).connect(DB)) {
                insert(c, "customer (customer_id, email)", 2, customers.get(i));
                insert(c, "corder (order_id, customer_id, sku, price)", 4, corders.get(i));
                insert(c, "orders (id, k, amount, customer_id, note)", 5, rows.get(i));
            }
            perShard[i] = rows.get(i).size();
        }
        return perShard;
    }

    private static void insert(Connection c, String tableAndColumns, int columns, List<Object[]> rows)
            throws SQLException {
        c.setAutoCommit(false);
        for (int from = 0; from < rows.size(); from += BATCH) {
            List<Object[]> batch = rows.subList(from, Math.min(rows.size(), from + BATCH));
            StringBuilder sql = new StringBuilder("INSERT INTO " + tableAndColumns + " VALUES ");
            String one = "(" + "?,".repeat(columns - 1) + "?)";
            for (int i = 0; i < batch.size(); i++) {
                sql.append(i == 0 ? "" : ",").append(one);
            }
            try (PreparedStatement ps = c.prepareStatement(sql.toString())) {
                int p = 1;
                for (Object[] row : batch) {
                    for (Object v : row) {
                        ps.setObject(p++, v);
                    }
                }
                ps.executeUpdate();
            }
            c.commit();
        }
        c.setAutoCommit(true);
    }

    private static List<List<Object[]>> split(int n) {
        List<List<Object[]>> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(new ArrayList<>());
        }
        return out;
    }
}
