package io.vstream.connect.source;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.shyiko.mysql.binlog.event.deserialization.ColumnType;
import org.junit.jupiter.api.Test;

class SourceColumnTest {
    private static SourceColumn column(String dataType, String columnType) {
        return new SourceColumn("c", dataType, columnType, true, 63, 0, 0, 0, 0, false);
    }

    @Test
    void mariadbsFixedBinaryTypesAreCopiedAsTheBinlogCarriesThem() {
        for (String type : new String[] {"inet6", "uuid"}) {
            SourceColumn c = column(type, type);
            assertThat(c.binlogType()).isEqualTo(ColumnType.STRING);
            assertThat(c.fixedBinaryLength()).hasValue(16);
            assertThat(c.toBinlogColumn(0, false).byteLength()).isEqualTo(16);
            assertThat(c.toBinlogColumn(0, false).isBinary()).isTrue();
        }
        SourceColumn inet4 = column("inet4", "inet4");
        assertThat(inet4.fixedBinaryLength()).hasValue(4);
        assertThat(inet4.toBinlogColumn(0, false).byteLength()).isEqualTo(4);
        assertThat(column("binary", "binary(4)").fixedBinaryLength()).isEmpty();
    }
}
