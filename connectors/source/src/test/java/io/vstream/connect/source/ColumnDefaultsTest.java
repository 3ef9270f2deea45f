package io.vstream.connect.source;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.shyiko.mysql.binlog.event.deserialization.ColumnType;
import io.vstream.connect.core.position.Flavor;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;
import org.junit.jupiter.api.Test;

class ColumnDefaultsTest {
    private static BinlogColumn column(ColumnType type, int meta, boolean unsigned, int collation, String... members) {
        return new BinlogColumn(1, "c", type, meta, false, unsigned, collation, members.length == 0 ? null : members,
                false);
    }

    @Test
    void mariadbShowsStringsQuotedNumbersBareAndExpressionsAsText() {
        assertThat(ColumnDefaults.literal("'it''s \\\\ ok'", null, Flavor.MARIADB)).isEqualTo("it's \\ ok");
        assertThat(ColumnDefaults.literal("''", null, Flavor.MARIADB)).isEmpty();
        assertThat(ColumnDefaults.literal("47", null, Flavor.MARIADB)).isEqualTo("47");
        assertThat(ColumnDefaults.literal("-1.50", null, Flavor.MARIADB)).isEqualTo("-1.50");
        assertThat(ColumnDefaults.literal("NULL", null, Flavor.MARIADB)).isNull();
        assertThat(ColumnDefaults.literal("current_timestamp()", "", Flavor.MARIADB)).isNull();
        assertThat(ColumnDefaults.literal("curdate()", "", Flavor.MARIADB)).isNull();
    }

    @Test
    void mysqlShowsConstantsBareAndMarksExpressions() {
        assertThat(ColumnDefaults.literal("abc", "", Flavor.MYSQL56)).isEqualTo("abc");
        assertThat(ColumnDefaults.literal("CURRENT_TIMESTAMP", "DEFAULT_GENERATED", Flavor.MYSQL56)).isNull();
        assertThat(ColumnDefaults.literal(null, "", Flavor.MYSQL56)).isNull();
    }

    @Test
    void aConstantBecomesTheRawValueOfItsColumnsType() {
        assertThat(ColumnDefaults.raw(column(ColumnType.LONG, 0, false, 63), "0")).isEqualTo(0L);
        assertThat(ColumnDefaults.raw(column(ColumnType.LONGLONG, 0, true, 63), "18446744073709551615"))
                .isEqualTo(-1L);
        assertThat(ColumnDefaults.raw(column(ColumnType.NEWDECIMAL, 10 | (2 << 8), false, 63), "1.50"))
                .isEqualTo(new BigDecimal("1.50"));
        assertThat(ColumnDefaults.raw(column(ColumnType.VARCHAR, 40, false, 45), "x 😀")).isEqualTo("x 😀");
        assertThat(ColumnDefaults.raw(column(ColumnType.VARCHAR, 40, false, 63), "x")).as("binary").isNull();
        assertThat(ColumnDefaults.raw(column(ColumnType.ENUM, 0, false, 45, "a", "b"), "b")).isEqualTo(2);
        assertThat(ColumnDefaults.raw(column(ColumnType.SET, 0, false, 45, "x", "y", "z"), "x,z")).isEqualTo(5L);
        assertThat(ColumnDefaults.raw(column(ColumnType.ENUM, 0, false, 45, "a"), "zz")).isNull();
        assertThat(ColumnDefaults.raw(column(ColumnType.LONG, 0, false, 63), "abc")).isNull();
        assertThat(ColumnDefaults.raw(column(ColumnType.DATETIME_V2, 0, false, 63), "2024-01-01")).isNull();
    }

    @Test
    void theRowSchemaCarriesTheDefaultAsItsConnectValue() {
        BinlogColumn amount = column(ColumnType.NEWDECIMAL, 10 | (2 << 8), false, 63);
        ColumnConverter conv = ColumnConverter.of(amount, StandardCharsets.UTF_8, false);
        Schema s = ColumnDefaults.withDefault(conv.schema(), conv.convert(ColumnDefaults.raw(amount, "1.5")));
        assertThat(s.defaultValue()).isEqualTo(new BigDecimal("1.50"));
        assertThat(s.name()).isEqualTo(Decimal.LOGICAL_NAME);
        assertThat(s.parameters()).isEqualTo(conv.schema().parameters());
        assertThat(s.isOptional()).isFalse();
    }
}
