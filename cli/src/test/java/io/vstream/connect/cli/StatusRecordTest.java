package io.vstream.connect.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class StatusRecordTest {
    static final String PAYLOAD = "{\"workflow\":\"w\",\"type\":\"online-ddl\",\"state\":\"COPYING\",\"step\":null,"
            + "\"reason\":\"copy throttled: x\",\"source_position\":null,\"applied_position\":\"-80:MariaDB/0-1-5\","
            + "\"lag_transactions\":7,\"tables_copying\":1,\"attempts\":0,\"ts_ms\":1000}";

    @Test
    void readsTheJsonConverterEnvelopeAndThePlainForm() {
        String enveloped = "{\"schema\":{\"type\":\"struct\"},\"payload\":" + PAYLOAD + "}";
        for (String s : new String[] {PAYLOAD, enveloped}) {
            StatusRecord r = StatusRecord.fromJson(s.getBytes(StandardCharsets.UTF_8));
            assertThat(r).isEqualTo(new StatusRecord("w", "online-ddl", "COPYING", null, "copy throttled: x", null,
                    "-80:MariaDB/0-1-5", 7L, 1, 0, 1000));
        }
    }

    @Test
    void tombstonesAndOtherValuesAreSkipped() {
        assertThat(StatusRecord.fromJson((byte[]) null)).isNull();
        assertThat(StatusRecord.fromJson("{\"a\":1}".getBytes(StandardCharsets.UTF_8))).isNull();
        assertThat(StatusRecord.fromJson("not json".getBytes(StandardCharsets.UTF_8))).isNull();
    }

    @Test
    void readsTheCoordinatorsRowCountsAndUsesThemForProgress() {
        String withRows = PAYLOAD.replace("\"ts_ms\":1000}", "\"ts_ms\":1000,\"rows_copied\":30500,"
                + "\"rows_total\":41700,\"progress_pct\":73.1,\"rows_per_second\":4186.5,\"eta_ms\":26000,"
                + "\"throttle_reason\":null}");
        StatusRecord r = StatusRecord.fromJson(withRows.getBytes(StandardCharsets.UTF_8));
        assertThat(r.rows()).isEqualTo(new StatusRecord.Rows(30500L, 41700L, 73.1, 4186.5, 26000L, null));
        WorkflowHistory h = new WorkflowHistory("w");
        h.add(r);
        WorkflowProgress p = WorkflowProgress.of(h, 2, 100);
        assertThat(p.copyFraction()).isEqualTo(0.731, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(p.etaSeconds()).isEqualTo(26L);
        assertThat(StatusRecord.fromJson(PAYLOAD.getBytes(StandardCharsets.UTF_8)).rows())
                .isEqualTo(StatusRecord.Rows.NONE);
    }

    @Test
    void aThrottledCopyWithoutARateHasNoEta() {
        String throttled = PAYLOAD.replace("\"ts_ms\":1000}", "\"ts_ms\":1000,\"rows_copied\":30500,"
                + "\"rows_total\":41700,\"progress_pct\":73.1,\"rows_per_second\":0.0,\"eta_ms\":null,"
                + "\"throttle_reason\":\"copy throttled: x\"}");
        WorkflowHistory h = new WorkflowHistory("w");
        h.add(StatusRecord.fromJson(throttled.getBytes(StandardCharsets.UTF_8)));
        WorkflowProgress p = WorkflowProgress.of(h, 2, 100);
        assertThat(p.etaSeconds()).as("no ETA 0:00 for a copy that waits").isNull();
        assertThat(StatusView.eta(p)).isEqualTo("-");
    }

    @Test
    void readsTheLastDiffAndShowsItOnOneLine() {
        String withDiff = PAYLOAD.replace("\"ts_ms\":1000}", "\"ts_ms\":1000,\"diff_id\":\"diff-1\","
                + "\"diff_state\":\"DIFFERENT\",\"diff_position\":\"MariaDB/0-1-9\",\"diff_tables_done\":3,"
                + "\"diff_tables_total\":3,\"diff_rows_compared\":15000,\"diff_rows_total\":14800,"
                + "\"diff_eta_ms\":null,\"diff_differences\":1,\"diff_details\":[\"db.t: id=42 differs\"],"
                + "\"diff_reason\":null}");
        StatusRecord r = StatusRecord.fromJson(withDiff.getBytes(StandardCharsets.UTF_8));
        assertThat(r.diff()).isEqualTo(new StatusRecord.Diff("diff-1", "DIFFERENT", "MariaDB/0-1-9", 3, 3, 15000L,
                14800L, null, 1L, java.util.List.of("db.t: id=42 differs"), null));
        assertThat(r.diff().isFinal()).isTrue();
        assertThat(StatusView.diff(r.diff()))
                .isEqualTo("diff-1  DIFFERENT  15,000 rows, 3/3 tables, 1 difference, at MariaDB/0-1-9");
        assertThat(StatusView.diffJson(r.diff()).path("details").get(0).asText()).isEqualTo("db.t: id=42 differs");
        assertThat(StatusRecord.fromJson(PAYLOAD.getBytes(StandardCharsets.UTF_8)).diff()).isNull();
    }

    @Test
    void readsEachShardAndTheConnectorsAsTheCoordinatorSawThem() {
        String withShards = PAYLOAD.replace("\"ts_ms\":1000}", "\"ts_ms\":1000,\"shards\":[{\"shard\":\"-80\","
                + "\"state\":\"copying\",\"applied_position\":\"MariaDB/0-1-5\",\"lag_ms\":1500,"
                + "\"lag_transactions\":3,\"rows_copied\":120000,\"throttle_reason\":null},{\"shard\":\"80-\","
                + "\"state\":\"waiting\",\"applied_position\":null,\"lag_ms\":null,\"lag_transactions\":null,"
                + "\"rows_copied\":null,\"throttle_reason\":null}],"
                + "\"connectors\":[\"w-source RUNNING: task 0 RUNNING on a:8083\"]}");
        StatusRecord r = StatusRecord.fromJson(withShards.getBytes(StandardCharsets.UTF_8));
        assertThat(r.shards()).containsExactly(
                new StatusRecord.Shard("-80", "copying", "MariaDB/0-1-5", 1500L, 3L, 120000L, null),
                new StatusRecord.Shard("80-", "waiting", null, null, null, null, null));
        assertThat(r.connectors()).containsExactly("w-source RUNNING: task 0 RUNNING on a:8083");
        assertThat(StatusView.shard(r.shards().get(0)))
                .isEqualTo("-80      copying   lag 1.5 s (3 tx)   copied 120,000   at MariaDB/0-1-5");
        assertThat(StatusView.shard(r.shards().get(1))).isEqualTo("80-      waiting   lag -");
        StatusRecord old = StatusRecord.fromJson(PAYLOAD.getBytes(StandardCharsets.UTF_8));
        assertThat(old.shards()).isEmpty();
        assertThat(old.connectors()).isEmpty();
    }
}
