package io.vstream.connect.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.vstream.connect.core.position.Flavor;
import org.junit.jupiter.api.Test;

class BinlogSettingsTest {
    @Test
    void theFlavorComesFromTheVersion() {
        assertThat(BinlogSettings.flavor("10.11.6-MariaDB-0+deb12u1-log")).isEqualTo(Flavor.MARIADB);
        assertThat(BinlogSettings.flavor("8.0.36")).isEqualTo(Flavor.MYSQL56);
    }

    @Test
    void aWrongSettingNamesItsFix() {
        assertThat(BinlogSettings.problem("binlog_format", "STATEMENT", "ROW"))
                .isEqualTo("binlog_format is STATEMENT, it must be ROW: run SET GLOBAL binlog_format=ROW and set"
                        + " binlog_format=ROW in the server's config file");
        assertThat(BinlogSettings.problem("binlog_row_image", "full", "FULL")).isNull();
        assertThat(BinlogSettings.problem("log_bin_compress", "0", "OFF")).isNull();
        assertThat(BinlogSettings.problem("gtid_mode", "OFF_PERMISSIVE", "ON")).contains("gtid_mode=ON");
        assertThat(BinlogSettings.problem("binlog_row_value_options", "PARTIAL_JSON", "")).isNotNull();
        assertThat(BinlogSettings.problem("binlog_row_value_options", "", "")).isNull();
    }
}
