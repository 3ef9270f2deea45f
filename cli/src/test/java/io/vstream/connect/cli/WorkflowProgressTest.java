package io.vstream.connect.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class WorkflowProgressTest {
    static StatusRecord rec(String state, Integer copying, Long lag, String applied, long ts) {
        return new StatusRecord("w", "online-ddl", state, null, null, null, applied, lag, copying, 0, ts);
    }

    @Test
    void copyProgressCountsShardTablesCopied() {
        WorkflowHistory h = new WorkflowHistory("w");
        h.add(rec("CREATED", null, null, null, 0));
        assertThat(WorkflowProgress.of(h, 2, 100).copyFraction()).isEqualTo(0.0);
        h.add(rec("COPYING", 2, null, null, 1_000));
        h.add(rec("COPYING", 1, null, null, 11_000));
        WorkflowProgress p = WorkflowProgress.of(h, 2, 100);
        assertThat(p.copyFraction()).isEqualTo(0.5);
        assertThat(p.copyDone()).isEqualTo(1);
        assertThat(p.copyTotal()).isEqualTo(2);
        assertThat(p.etaSeconds()).as("as long again as the first half took").isEqualTo(10L);
        h.add(rec("COPYING", 1, 3L, "-80:MariaDB/0-1-5 80-:MariaDB/0-2-5", 15_000));
        assertThat(WorkflowProgress.of(h, 2, 100).etaSeconds()).as("counting down").isEqualTo(6L);
        h.add(rec("CATCHING_UP", 0, 500L, null, 12_000));
        assertThat(WorkflowProgress.of(h, 2, 100).copyFraction()).isEqualTo(1.0);
    }

    @Test
    void cloneTotalIsTheMostTablesEverCopying() {
        WorkflowHistory h = new WorkflowHistory("w");
        h.add(rec("COPYING", 4, null, null, 0));
        h.add(rec("COPYING", 1, null, null, 3_000));
        WorkflowProgress p = WorkflowProgress.of(h, 0, 100);
        assertThat(p.copyFraction()).isEqualTo(0.75);
        assertThat(p.copyTotal()).isEqualTo(4);
    }

    @Test
    void appliedRateAndEtaWhileCatchingUp() {
        WorkflowHistory h = new WorkflowHistory("w");
        h.add(rec("CATCHING_UP", 0, 1100L, "-80:MariaDB/0-1-100 80-:MariaDB/0-2-50", 0));
        h.add(rec("CATCHING_UP", 0, 600L, "-80:MariaDB/0-1-300 80-:MariaDB/0-2-250", 10_000));
        WorkflowProgress p = WorkflowProgress.of(h, 2, 100);
        assertThat(p.appliedPerSecond()).isEqualTo(40.0);
        assertThat(p.etaSeconds()).as("500 tx above the ready lag, falling 50 tx/s").isEqualTo(10L);
        assertThat(p.etaBasis()).contains("lag");
    }

    @Test
    void recordsWithoutAPositionAreSkippedForTheRate() {
        WorkflowHistory h = new WorkflowHistory("w");
        h.add(rec("CREATED", null, null, null, 0));
        h.add(rec("COPYING", 2, 10L, "MariaDB/0-1-100", 2_000));
        h.add(rec("COPYING", 2, 12L, "MariaDB/0-1-120", 4_000));
        assertThat(WorkflowProgress.of(h, 2, 100).appliedPerSecond()).isEqualTo(10.0);
    }

    @Test
    void ratesPreferTheLastFifteenSecondsButReachBackAMinute() {
        WorkflowHistory h = new WorkflowHistory("w");
        h.add(rec("READY", 0, 0L, "MariaDB/0-1-0", 0));
        h.add(rec("READY", 0, 0L, "MariaDB/0-1-100", 40_000));
        h.add(rec("READY", 0, 0L, "MariaDB/0-1-1000", 50_000));
        h.add(rec("READY", 0, 0L, "MariaDB/0-1-1100", 60_000));
        assertThat(WorkflowProgress.of(h, 0, 100).appliedPerSecond()).as("from 50 s to 60 s").isEqualTo(10.0);
        WorkflowHistory idle = new WorkflowHistory("w");
        idle.add(rec("READY", 0, 0L, "MariaDB/0-1-0", 0));
        idle.add(rec("READY", 0, 0L, "MariaDB/0-1-300", 30_000));
        assertThat(WorkflowProgress.of(idle, 0, 100).appliedPerSecond()).isEqualTo(10.0);
    }

    @Test
    void noRateFromRecordsLessThanASecondApartOrAMinuteOld() {
        WorkflowHistory h = new WorkflowHistory("w");
        h.add(rec("READY", 0, 0L, "MariaDB/0-1-1", 0));
        h.add(rec("READY", 0, 0L, "MariaDB/0-1-500", 70_000));
        h.add(rec("READY", 0, 0L, "MariaDB/0-1-600", 70_500));
        assertThat(WorkflowProgress.of(h, 0, 100).appliedPerSecond()).isNull();
        assertThat(WorkflowProgress.of(h, 0, 100).etaSeconds()).isNull();
    }

    @Test
    void reasonsAreSortedIntoThrottleFailureAndNote() {
        WorkflowHistory h = new WorkflowHistory("w");
        h.add(new StatusRecord("w", "online-ddl", "COPYING", null, "copy throttled: the applier on shard -80 is 42000"
                + " ms behind (max 30000 ms)", null, null, null, 2, 0, 0));
        assertThat(WorkflowProgress.of(h, 2, 100).throttle()).startsWith("copy throttled");
        h.add(new StatusRecord("w", "online-ddl", "READY", null, "lock wait timeout", null, null, 0L, 0, 1, 1));
        assertThat(WorkflowProgress.of(h, 2, 100).note()).isEqualTo("lock wait timeout");
        h.add(new StatusRecord("w", "online-ddl", "FAILED", null, "checksum differs", null, null, 0L, 0, 1, 2));
        WorkflowProgress p = WorkflowProgress.of(h, 2, 100);
        assertThat(p.failure()).isEqualTo("checksum differs");
        assertThat(p.copyFraction()).as("the progress it reached").isEqualTo(1.0);
    }

    @Test
    void countsTransactionsOfMariadbPositionsOnly() {
        assertThat(WorkflowProgress.transactions("MariaDB/0-1-42,1-2-8")).isEqualTo(50L);
        assertThat(WorkflowProgress.transactions("-80:MariaDB/0-1-42 80-:MariaDB/0-2-17")).isEqualTo(59L);
        assertThat(WorkflowProgress.transactions("MySQL56/3e11fa47-71ca-11e1-9e33-c80aa9429562:1-42")).isNull();
        assertThat(WorkflowProgress.transactions(null)).isNull();
        assertThat(WorkflowProgress.transactions("garbage")).isNull();
    }

    @Test
    void rendersEveryFieldWithDashesForWhatIsMissing() {
        WorkflowHistory h = new WorkflowHistory("w");
        h.add(rec("COPYING", 1, 12L, "-80:MariaDB/0-1-5", 1_000));
        Workflows.Info info = new Workflows.Info("w", "online-ddl", "w", "w-source", "w-sink", "vstream.status", 2, 100,
                true, false);
        String text = StatusView.text(new StatusView.Row(info, WorkflowProgress.of(h, 2, 100), Map.of()), 5_000, true);
        assertThat(text).contains("w  online-ddl  COPYING")
                .contains("[###############---------------]  50%  1/2 shards copied")
                .contains("copied -   rows/s -").contains("lag 12 tx").contains("ETA -")
                .contains("postponed by config").contains("(4 s ago)")
                .contains("coordinator w").contains("source      w-source").contains("MISSING");
        var json = StatusView.json(new StatusView.Row(info, WorkflowProgress.of(h, 2, 100), Map.of()));
        assertThat(json.get("state").asText()).isEqualTo("COPYING");
        assertThat(json.get("progress_percent").asInt()).isEqualTo(50);
        assertThat(json.get("rows_copied").isNull()).isTrue();
        assertThat(json.get("connectors").get("sink").get("name").asText()).isEqualTo("w-sink");
    }
}
