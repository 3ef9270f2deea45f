package io.vstream.connect.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** When a probe after the snapshot began gives the snapshot's GTID position without reading the binlog file. */
class ConsistentSnapshotTest {
    @Test
    void theBinlogStillEndingAtTheSnapshotWithTheSameStateAroundItGivesThatState() {
        assertThat(ConsistentSnapshot.atEnd("bin.000002", 837, "0-1-193", "bin.000002", 837, "0-1-193"))
                .isEqualTo("0-1-193");
        assertThat(ConsistentSnapshot.atEnd("bin.000002", 837, "0-1-193,1-2-7", "bin.000002", 837, "0-1-193,1-2-7"))
                .isEqualTo("0-1-193,1-2-7");
    }

    @Test
    void anythingBinloggedSinceTheSnapshotOrWhileProbingLeavesItToTheFile() {
        // a transaction binlogged after the snapshot began: the end moved
        assertThat(ConsistentSnapshot.atEnd("bin.000002", 837, "0-1-194", "bin.000002", 1200, "0-1-194")).isNull();
        // one binlogged between the two reads of the state
        assertThat(ConsistentSnapshot.atEnd("bin.000002", 837, "0-1-193", "bin.000002", 837, "0-1-194")).isNull();
        // the binlog rotated
        assertThat(ConsistentSnapshot.atEnd("bin.000002", 837, "0-1-193", "bin.000003", 837, "0-1-193")).isNull();
        // a server that has binlogged nothing yet says nothing to go by
        assertThat(ConsistentSnapshot.atEnd("bin.000001", 256, "", "bin.000001", 256, "")).isNull();
        assertThat(ConsistentSnapshot.atEnd("bin.000001", 256, null, "bin.000001", 256, null)).isNull();
    }
}
