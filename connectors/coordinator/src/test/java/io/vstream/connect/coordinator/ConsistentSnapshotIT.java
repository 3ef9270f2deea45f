package io.vstream.connect.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import io.vstream.connect.core.position.Flavor;
import io.vstream.connect.core.position.GtidPosition;
import io.vstream.connect.core.position.MariadbGtid;
import io.vstream.connect.core.position.MariadbGtidPosition;
import io.vstream.connect.jdbc.ConsistentSnapshot;
import io.vstream.connect.testsupport.db.MariaDbServer;
import io.vstream.connect.testsupport.db.MariaDbShards;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The checksum slice's snapshot position on a real server under a stream of commits: whether the position comes from
 * the probe (no binlog read) or from the binlog file, it is exactly what {@code BINLOG_GTID_POS()} gives for the
 * snapshot's own binlog coordinates, and the probe gives it for some snapshots (an account that may read the
 * binlog's end, as docs/grants.md prints it for online DDL), and for none when the account may not.
 */
class ConsistentSnapshotIT {
    @RegisterExtension
    static final MariaDbShards SHARDS = MariaDbShards.builder().count(1).build();

    @Test
    void theProbedPositionIsTheSnapshotsOwnUnderConcurrentCommits() throws Exception {
        MariaDbServer server = SHARDS.server(0);
        String db = SHARDS.freshDatabase();
        server.execute(db, "CREATE TABLE t (id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, v INT)");
        AtomicBoolean writing = new AtomicBoolean(true);
        AtomicLong commits = new AtomicLong();
        java.util.concurrent.atomic.AtomicReference<Exception> writerFailed = new java.util.concurrent.atomic
                .AtomicReference<>();
        Thread writer = new Thread(() -> {
            try (Connection w = server.connect(db); Statement st = w.createStatement()) {
                while (writing.get()) {
                    st.executeUpdate("INSERT INTO t (v) VALUES (1)");
                    commits.incrementAndGet();
                    Thread.sleep(2); // the load's pace: a commit every few ms, so some probes fall between two
                }
            } catch (Exception e) {
                writerFailed.set(e);
            }
        }, "snapshot-it-writer");
        writer.start();
        int probed = 0;
        int read = 0;
        Long rowsLess = null;
        try (Connection probe = server.connect(db)) {
            long deadline = System.nanoTime() + java.time.Duration.ofMinutes(3).toNanos();
            while (commits.get() < 50 && writerFailed.get() == null && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertThat(writerFailed.get()).as("the writer").isNull();
            assertThat(commits.get()).as("commits before the snapshots").isGreaterThanOrEqualTo(50);
            for (int i = 0; i < 200; i++) {
                try (Connection c = server.connect(db);
                     ConsistentSnapshot snap = ConsistentSnapshot.open(c, Flavor.MARIADB, null, probe)) {
                    assertThat(snap.position()).as("snapshot %d", i).isEqualTo(positionOfItsCoordinates(c));
                    // only the writer commits meanwhile, one row per transaction: the rows the snapshot sees and
                    // its position's sequence numbers move together
                    long offset = rowsLessSequence(c, snap.position());
                    if (rowsLess == null) {
                        rowsLess = offset;
                    }
                    assertThat(offset).as("snapshot %d: rows seen less the position's sequence numbers", i)
                            .isEqualTo(rowsLess);
                    if (snap.readBinlog()) {
                        read++;
                    } else {
                        probed++;
                    }
                }
            }
        } finally {
            writing.set(false);
            writer.join();
        }
        assertThat(writerFailed.get()).as("the writer").isNull();
        assertThat(probed).as("snapshots placed by the probe (the others: %d read from the binlog)", read)
                .isPositive();
    }

    @Test
    void anAccountThatMayNotReadTheBinlogsEndReadsTheFile() throws Exception {
        MariaDbServer server = SHARDS.server(0);
        String db = SHARDS.freshDatabase();
        server.execute(db, "CREATE TABLE t (id INT PRIMARY KEY)", "INSERT INTO t VALUES (1)",
                "CREATE USER IF NOT EXISTS 'snap_plain'@'%' IDENTIFIED BY 'Plain-pw-1'",
                "GRANT SELECT ON `" + db + "`.* TO 'snap_plain'@'%'");
        String plainUrl = server.jdbcUrl(db).replace("user=" + MariaDbServer.USER,
                "user=snap_plain&password=Plain-pw-1");
        try (Connection probe = java.sql.DriverManager.getConnection(plainUrl);
             Connection c = server.connect(db);
             ConsistentSnapshot snap = ConsistentSnapshot.open(c, Flavor.MARIADB, null, probe)) {
            assertThat(snap.readBinlog()).isTrue();
            assertThat(snap.probeDenied()).as("SHOW MASTER STATUS refused: the caller stops probing").isTrue();
            assertThat(snap.position()).isEqualTo(positionOfItsCoordinates(c));
        }
    }

    /** {@code BINLOG_GTID_POS()} of the snapshot's binlog coordinates, read in it. */
    private static GtidPosition positionOfItsCoordinates(Connection inSnapshot) throws Exception {
        String file;
        long pos;
        try (Statement st = inSnapshot.createStatement()) {
            try (ResultSet rs = st.executeQuery("SHOW STATUS LIKE 'binlog_snapshot_file'")) {
                rs.next();
                file = rs.getString(2);
            }
            try (ResultSet rs = st.executeQuery("SHOW STATUS LIKE 'binlog_snapshot_position'")) {
                rs.next();
                pos = rs.getLong(2);
            }
        }
        try (PreparedStatement ps = inSnapshot.prepareStatement("SELECT BINLOG_GTID_POS(?, ?)")) {
            ps.setString(1, file);
            ps.setLong(2, pos);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return GtidPosition.parse(Flavor.MARIADB, rs.getString(1));
            }
        }
    }

    /** The rows the snapshot sees less the sum of its position's sequence numbers. */
    private static long rowsLessSequence(Connection inSnapshot, GtidPosition position) throws Exception {
        long sequences = ((MariadbGtidPosition) position).gtids().stream().mapToLong(MariadbGtid::sequence).sum();
        try (Statement st = inSnapshot.createStatement(); ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM t")) {
            rs.next();
            return rs.getLong(1) - sequences;
        }
    }
}
