package io.vstream.connect.bench;

import io.vstream.connect.local.compare.ComparisonResult;
import io.vstream.connect.local.load.LoadStats;
import io.vstream.connect.local.load.LoadTable;
import io.vstream.connect.local.load.LoadTransaction;
import io.vstream.connect.local.load.Target;
import io.vstream.connect.local.load.WriteLoad;
import io.vstream.connect.testsupport.db.MariaDbServer;
import io.vstream.connect.testsupport.db.MariaDbShards;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;

/**
 * The table of a ddl scenario and its write load, made fresh for every run: a new database on the shard with
 * local-runtime's standard load table {@code orders (id BIGINT PRIMARY KEY, k INT NOT NULL, v VARCHAR(64) NULL, amount
 * DECIMAL(12,2) NOT NULL, updated DATETIME(6) NOT NULL, KEY k (k))} preloaded with N rows by a {@link WriteLoad} (same
 * seed every run, so every run alters the same rows), whose threads then write at a fixed rate for the run's window
 * only. After the run the table must have the schema of the scenario's {@link DdlAlter} and hold every acknowledged
 * write (the load's model), else the run is invalid; then the database is dropped. Writes to the shard.
 */
final class DdlTable {
    static final String TABLE = "orders";
    static final double WRITES_PER_SECOND = 100;
    static final int THREADS = 4;
    static final long SEED = 9;

    private final MariaDbShards shards;
    private final int rows;
    private final DdlAlter alter;

    DdlTable(MariaDbShards shards, int rows, DdlAlter alter) {
        this.shards = shards;
        this.rows = rows;
        this.alter = alter;
    }

    /** The ALTER every run makes, and the schema it checks. */
    DdlAlter alter() {
        return alter;
    }

    MariaDbServer server() {
        return shards.server(0);
    }

    int rows() {
        return rows;
    }

    /** How the load writes, for the report. */
    String loadDescription() {
        return String.format("local-runtime's WriteLoad: %d threads, %.0f transactions/s in all (a fixed pace per"
                + " thread), 1-3 single-row statements per transaction on keys 1..%,d (uniform; %,d rows preloaded, so"
                + " about 1 in 11 statements inserts), 5%% of the writes to an existing row delete it, the others update"
                + " it (every column but the key); seed %d. It starts when the run starts and stops when the run ends:"
                + " its latencies are the run's. A write's latency is its transaction's, from the first statement to"
                + " the COMMIT's acknowledgement; a failed write is an error, a COMMIT with an unknown outcome, or a"
                + " row the load's model did not expect", THREADS, WRITES_PER_SECOND, keySpace(), rows, SEED);
    }

    private int keySpace() {
        return rows + rows / 10;
    }

    /** A fresh database with the table of N rows (untimed). */
    Run prepare(String hint) {
        MariaDbServer server = server();
        String db = shards.freshDatabase(hint);
        WriteLoad load = WriteLoad.builder(Target.single(server, db)).table(LoadTable.standard(TABLE))
                .threads(THREADS).keySpace(keySpace()).statementsPerTransaction(1, 3).deleteRatio(0.05)
                .transactionsPerSecond(WRITES_PER_SECOND).failOnError(false).seed(SEED).build();
        load.createTables().preload(rows);
        server.execute(db, "ANALYZE TABLE " + TABLE);
        return new Run(server, db, load, alter);
    }

    /** One run's table and load. */
    static final class Run implements AutoCloseable {
        private final MariaDbServer server;
        private final String database;
        private final WriteLoad load;
        private final DdlAlter alter;
        private boolean started;
        private WriteWindow window;
        private List<double[]> latencies = List.of();

        Run(MariaDbServer server, String database, WriteLoad load, DdlAlter alter) {
            this.server = server;
            this.database = database;
            this.load = load;
            this.alter = alter;
        }

        String database() {
            return database;
        }

        MariaDbServer server() {
            return server;
        }

        void startLoad() {
            started = true;
            load.start();
        }

        /** Stops the load (after its in-flight transactions) and returns what it saw. */
        WriteWindow stopLoad() {
            if (window == null) {
                LoadStats stats = load.stop();
                window = WriteWindow.of(stats, load.committedTransactions());
                latencies = latencies(load.committedTransactions());
            }
            return window;
        }

        /**
         * Each acknowledged write of the window as {seconds, latency ms}: its time is its slot in the load's fixed pace
         * (the thread's sequence number times the thread's interval; the load has no clock of its own per write), so a
         * stall shows as the writes of its slots taking longer. For the plots.
         */
        List<double[]> latencies() {
            return latencies;
        }

        private static List<double[]> latencies(List<LoadTransaction> committed) {
            double interval = THREADS / WRITES_PER_SECOND;
            List<double[]> out = new java.util.ArrayList<>();
            for (LoadTransaction t : committed) {
                if (t.thread() >= 0) { // not a preload batch
                    out.add(new double[] {t.sequence() * interval, t.durationNanos() / 1e6});
                }
            }
            out.sort(java.util.Comparator.comparingDouble(p -> p[0]));
            return out;
        }

        /** Runs the load alone for {@code d} (the baseline: no migration). */
        WriteWindow loadAlone(Duration d) throws InterruptedException {
            startLoad();
            Thread.sleep(d.toMillis());
            return stopLoad();
        }

        /**
         * Null when {@code orders} has the new schema (with {@code altered}: every {@link DdlAlter#schema()} fact
         * holds, e.g. amount decimal(14,2) and index k_amount on (k, amount)) and holds every acknowledged write of
         * the load, else what is wrong.
         */
        String verify(boolean altered) {
            if (altered) {
                List<String> wrong = new java.util.ArrayList<>();
                try {
                    for (SchemaFact f : alter.schema()) {
                        String problem = f.check(server, database, TABLE);
                        if (problem != null) {
                            wrong.add(problem);
                        }
                    }
                } catch (IllegalStateException e) {
                    return "the table cannot be read: " + e.getMessage();
                }
                if (!wrong.isEmpty()) {
                    return "the table does not have the new schema (" + String.join("; ", wrong) + ")";
                }
            }
            try (Connection c = server.connect(database)) {
                ComparisonResult r = load.verifyAgainst(c, TABLE);
                if (r.isEqual()) {
                    return null;
                }
                String diff = r.toString();
                return "the table does not hold every acknowledged write: "
                        + (diff.length() > 400 ? diff.substring(0, 400) + "..." : diff);
            } catch (SQLException | IllegalStateException e) {
                return "the table cannot be compared with the load's model: " + e.getMessage();
            }
        }

        /** Stops the load if it runs, waits until the connectors and tools have left the server, drops the database. */
        @Override
        public void close() {
            try {
                if (started) {
                    stopLoad();
                }
            } catch (RuntimeException e) {
                Bench.say("  (the write load ended with " + e.getMessage() + ")");
            }
            CloneTarget.awaitIdle(server, Duration.ofSeconds(60));
            server.execute(null, "DROP DATABASE IF EXISTS `" + database + "`");
        }
    }
}
