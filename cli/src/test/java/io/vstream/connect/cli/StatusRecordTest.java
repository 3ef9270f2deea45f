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
}
