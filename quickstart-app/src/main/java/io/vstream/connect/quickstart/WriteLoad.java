package io.vstream.connect.quickstart;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A live write load on the sample keyspace, as an application writes: each transaction goes to the shard the hash
 * vindex names, updates, inserts and deletes {@code orders} (the table being altered), inserts {@code corder} rows and
 * updates {@code customer} rows (the CDC tables). It keeps the final state of every {@code orders} row it wrote, as
 * acknowledged by a commit, and when; and counts failed writes with their messages. Each thread owns the ids with
 * {@code id % threads == thread}, so the order of the writes to one row is known. Writes to the shards only.
 */
final class WriteLoad implements AutoCloseable {
    private final Keyspace keyspace;
    private final int threads;
    private final int transactionsPerSecond;
    private final int initialOrders;
    private final List<Thread> workers = new ArrayList<>();
    private volatile boolean running;

    private final Map<Long, Optional<OrderRow>> acknowledged = new ConcurrentHashMap<>();
    private final Map<Long, Long> lastWriteMillis = new ConcurrentHashMap<>();
    private final Set<Long> uncertain = ConcurrentHashMap.newKeySet();
    private final AtomicLong commits = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();
    private final AtomicLong maxLatencyMicros = new AtomicLong();
    private final List<String> failureMessages = new CopyOnWriteArrayList<>();

    WriteLoad(Keyspace keyspace, int threads, int transactionsPerSecond, int initialOrders) {
        this.keyspace = keyspace;
        this.threads = threads;
        this.transactionsPerSecond = transactionsPerSecond;
        this.initialOrders = initialOrders;
    }

    void start() {
        running = true;
        for (int t = 0; t < threads; t++) {
            int thread = t;
            Thread w = new Thread(() -> run(thread), "write-load-" + t);
            w.setDaemon(true);
            workers.add(w);
            w.start();
        }
    }

    /** Stops the writers and waits for their last transactions. */
    @Override
    public void close() {
        running = false;
        for (Thread w : workers) {
            try {
                w.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    long commits() {
        return commits.get();
    }

    long failures() {
        return failures.get();
    }

    List<String> failureMessages() {
        return List.copyOf(failureMessages);
    }

    /** The longest a transaction took, commit included (the cut-over blocks writes for a bounded time). */
    long maxLatencyMillis() {
        return maxLatencyMicros.get() / 1000;
    }

    /** Every {@code orders} id written, with its acknowledged final row (empty: deleted). */
    Map<Long, Optional<OrderRow>> acknowledged() {
        return Map.copyOf(acknowledged);
    }

    /** Ids of failed writes: whether they took effect is unknown. */
    Set<Long> uncertain() {
        return Set.copyOf(uncertain);
    }

    /** Ids whose last write attempt ended at or after {@code epochMillis}, or whose outcome is unknown. */
    Set<Long> writtenSince(long epochMillis) {
        Set<Long> out = new java.util.HashSet<>(uncertain);
        lastWriteMillis.forEach((id, at) -> {
            if (at >= epochMillis) {
                out.add(id);
            }
        });
        return out;
    }

    private void run(int thread) {
        Random random = new Random(42 + thread);
        List<Long> owned = new ArrayList<>();
        for (long id = 1 + thread; id <= initialOrders; id += threads) {
            owned.add(id);
        }
        long sequence = 0;
        long intervalNanos = 1_000_000_000L * threads / transactionsPerSecond;
        long next = System.nanoTime();
        List<Connection> connections = new ArrayList<>();
        try {
            for (MariaDbShard s : keyspace.shards()) {
                Connection c = s.connect(SampleData.DB);
                c.setAutoCommit(false);
                connections.add(c);
            }
            while (running) {
                long wait = next - System.nanoTime();
                if (wait > 0) {
                    Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
                }
                next += intervalNanos;
                sequence++;
                double op = random.nextDouble();
                if (op < 0.35 && !owned.isEmpty()) {
                    long id = owned.get(random.nextInt(owned.size()));
                    OrderRow r = randomRow(random, id, "updated " + sequence);
                    writeOrder(connections, id, Optional.of(r), "UPDATE orders SET k = ?, amount = ?, customer_id = ?,"
                            + " note = ? WHERE id = ?", r.k(), r.amount(), r.customerId(), r.note(), id);
                } else if (op < 0.55) {
                    long id = 1_000_000 + sequence * threads + thread;
                    OrderRow r = randomRow(random, id, "new " + sequence);
                    if (writeOrder(connections, id, Optional.of(r), "INSERT INTO orders (id, k, amount, customer_id,"
                            + " note) VALUES (?, ?, ?, ?, ?)", id, r.k(), r.amount(), r.customerId(), r.note())) {
                        owned.add(id);
                    }
                } else if (op < 0.65 && !owned.isEmpty()) {
                    int at = random.nextInt(owned.size());
                    long id = owned.get(at);
                    if (writeOrder(connections, id, Optional.empty(), "DELETE FROM orders WHERE id = ?", id)) {
                        owned.set(at, owned.get(owned.size() - 1));
                        owned.remove(owned.size() - 1);
                    }
                } else if (op < 0.85) {
                    long customer = 1 + random.nextInt(SampleData.CUSTOMERS);
                    write(connections.get(keyspace.shardOf(customer)), "INSERT INTO corder (order_id, customer_id, sku,"
                            + " price) VALUES (?, ?, ?, ?)", 2_000_000 + sequence * threads + thread, customer,
                            "SKU-" + random.nextInt(500), BigDecimal.valueOf(random.nextInt(99_999), 2));
                } else {
                    long customer = 1 + random.nextInt(SampleData.CUSTOMERS);
                    write(connections.get(keyspace.shardOf(customer)), "UPDATE customer SET email = ? WHERE"
                            + " customer_id = ?", "customer" + customer + "+" + sequence + "@example.com", customer);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (SQLException e) {
            failure("cannot connect: " + e.getMessage());
        } finally {
            for (Connection c : connections) {
                try {
                    c.close();
                } catch (SQLException e) {
                    // closing
                }
            }
        }
    }

    private static OrderRow randomRow(Random random, long id, String note) {
        return new OrderRow(id, random.nextInt(1000), BigDecimal.valueOf(random.nextInt(9_999_999), 2),
                1 + random.nextInt(SampleData.CUSTOMERS), note);
    }

    /** One transaction on the row's shard; records the acknowledged row, or the id as uncertain on a failure. */
    private boolean writeOrder(List<Connection> connections, long id, Optional<OrderRow> after, String sql,
                               Object... params) {
        boolean ok = write(connections.get(keyspace.shardOf(id)), sql, params);
        if (ok) {
            acknowledged.put(id, after);
        } else {
            uncertain.add(id);
        }
        lastWriteMillis.put(id, System.currentTimeMillis());
        return ok;
    }

    private boolean write(Connection c, String sql, Object... params) {
        long t0 = System.nanoTime();
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                ps.setObject(i + 1, params[i]);
            }
            ps.executeUpdate();
            c.commit();
            commits.incrementAndGet();
            maxLatencyMicros.accumulateAndGet((System.nanoTime() - t0) / 1000, Math::max);
            return true;
        } catch (SQLException e) {
            try {
                c.rollback();
            } catch (SQLException ignored) {
                // the connection may be gone; the next write reports it
            }
            failure(e.getErrorCode() + " " + e.getMessage());
            return false;
        }
    }

    private void failure(String message) {
        failures.incrementAndGet();
        if (failureMessages.size() < 5) {
            failureMessages.add(message);
        }
    }
}
