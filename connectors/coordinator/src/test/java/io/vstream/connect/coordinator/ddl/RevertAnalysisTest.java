package io.vstream.connect.coordinator.ddl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vstream.connect.coordinator.ddl.TableShape.Column;
import io.vstream.connect.coordinator.ddl.TableShape.KeyPart;
import io.vstream.connect.coordinator.ddl.TableShape.UniqueKey;
import io.vstream.connect.core.mapping.ColumnMapping;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RevertAnalysisTest {
    private static final String T = "`shop`.`orders`";
    private static final TableShape ORDERS = shape(List.of(col("id", "bigint(20)"), col("k", "int(11)"),
            nullable("amount", "decimal(12,2)"), nullable("v", "varchar(40)"), nullable("legacy", "int(11)")),
            key("PRIMARY", "id"));

    private static Column col(String name, String type) {
        return new Column(name, type, null, false, true, false, false);
    }

    private static Column nullable(String name, String type) {
        return new Column(name, type, null, true, true, false, false);
    }

    private static UniqueKey key(String name, String... columns) {
        return new UniqueKey(name, Arrays.stream(columns).map(c -> new KeyPart(c, null)).toList());
    }

    private static TableShape shape(List<Column> columns, UniqueKey... keys) {
        return new TableShape(columns, List.of(keys));
    }

    private static ColumnMapping forward(Map<String, String> shared, List<String> dropped, List<String> added) {
        return new ColumnMapping(shared, dropped, added);
    }

    private static Map<String, String> same(String... columns) {
        Map<String, String> m = new LinkedHashMap<>();
        for (String c : columns) {
            m.put(c, c);
        }
        return m;
    }

    @Test
    void aWidenedDecimalAndAnAddedColumnRevertWithTheColumnDroppedAndTheDecimalNamed() throws Exception {
        TableShape migrated = shape(List.of(col("id", "bigint(20)"), col("k", "int(11)"),
                nullable("amount", "decimal(14,2)"), nullable("v", "varchar(40)"), nullable("legacy", "int(11)"),
                nullable("note", "varchar(32)")), key("PRIMARY", "id"));
        RevertAnalysis r = RevertAnalysis.of(T, ORDERS, migrated,
                forward(same("id", "k", "amount", "v", "legacy"), List.of(), List.of("note")), false);

        assertThat(r.mapping().dropped()).containsExactly("note");
        assertThat(r.mapping().added()).isEmpty();
        assertThat(r.mapping().shared()).containsEntry("amount", "amount").hasSize(5);
        assertThat(r.sharedKey()).containsExactly("id");
        assertThat(r.mayNotFit()).containsExactly("amount");
    }

    @Test
    void aDroppedNullableColumnComesBackWithItsDefaultAndARenameTurnsAround() throws Exception {
        TableShape migrated = shape(List.of(col("id", "bigint(20)"), col("k", "int(11)"),
                nullable("amount", "decimal(12,2)"), nullable("remark", "varchar(40)")), key("PRIMARY", "id"));
        Map<String, String> shared = same("id", "k", "amount");
        shared.put("v", "remark");
        RevertAnalysis r = RevertAnalysis.of(T, ORDERS, migrated, forward(shared, List.of("legacy"), List.of()),
                false);

        assertThat(r.mapping().shared()).containsEntry("remark", "v");
        assertThat(r.mapping().added()).containsExactly("legacy");
        assertThat(r.mayNotFit()).isEmpty();
    }

    @Test
    void aDroppedNotNullColumnWithoutADefaultRefusesTheRevert() {
        TableShape original = shape(List.of(col("id", "bigint(20)"), new Column("must", "int(11)", null, false,
                false, false, false)), key("PRIMARY", "id"));
        TableShape migrated = shape(List.of(col("id", "bigint(20)")), key("PRIMARY", "id"));
        assertThatThrownBy(() -> RevertAnalysis.of(T, original, migrated, forward(same("id"), List.of("must"),
                List.of()), false)).isInstanceOf(AlterRefusedException.class).hasMessageContaining("must");
    }

    @Test
    void aUniqueKeyTheAlterDroppedIsRestoredOnlyWhenAllowed() throws Exception {
        TableShape original = shape(List.of(col("id", "bigint(20)"), col("sku", "varchar(20)")),
                key("PRIMARY", "id"), key("u_sku", "sku"));
        TableShape migrated = shape(List.of(col("id", "bigint(20)"), col("sku", "varchar(20)")),
                key("PRIMARY", "id"));
        ColumnMapping f = forward(same("id", "sku"), List.of(), List.of());
        assertThatThrownBy(() -> RevertAnalysis.of(T, original, migrated, f, false))
                .isInstanceOf(AlterRefusedException.class).hasMessageContaining("u_sku");
        assertThat(RevertAnalysis.of(T, original, migrated, f, true).mayNotFit()).isEmpty();
    }

    @Test
    void whatFitsTheOldType() {
        assertThat(RevertAnalysis.fits(col("a", "smallint(6)"), col("a", "int(11)"))).isTrue();
        assertThat(RevertAnalysis.fits(col("a", "bigint(20)"), col("a", "int(11)"))).isFalse();
        assertThat(RevertAnalysis.fits(col("a", "int(10) unsigned"), col("a", "int(11)"))).isFalse();
        assertThat(RevertAnalysis.fits(col("a", "int(11)"), col("a", "bigint(20) unsigned"))).isFalse();
        assertThat(RevertAnalysis.fits(col("a", "int(10) unsigned"), col("a", "bigint(20)"))).isTrue();
        assertThat(RevertAnalysis.fits(col("a", "decimal(10,2)"), col("a", "decimal(12,4)"))).isTrue();
        assertThat(RevertAnalysis.fits(col("a", "decimal(12,4)"), col("a", "decimal(12,2)"))).isFalse();
        assertThat(RevertAnalysis.fits(col("a", "varchar(40)"), col("a", "varchar(64)"))).isTrue();
        assertThat(RevertAnalysis.fits(col("a", "varchar(64)"), col("a", "varchar(40)"))).isFalse();
        assertThat(RevertAnalysis.fits(col("a", "char(10)"), col("a", "varchar(10)"))).isTrue();
        assertThat(RevertAnalysis.fits(col("a", "varchar(10)"), col("a", "char(10)"))).isFalse();
        assertThat(RevertAnalysis.fits(col("a", "text"), col("a", "mediumtext"))).isTrue();
        assertThat(RevertAnalysis.fits(col("a", "mediumblob"), col("a", "blob"))).isFalse();
        assertThat(RevertAnalysis.fits(nullable("a", "int(11)"), col("a", "int(11)"))).isFalse();
        assertThat(RevertAnalysis.fits(new Column("a", "varchar(10)", "utf8mb4_general_ci", false, true, false, false),
                new Column("a", "varchar(10)", "latin1_swedish_ci", false, true, false, false))).isFalse();
        assertThat(RevertAnalysis.fits(col("a", "int(11)"), col("a", "varchar(20)"))).isFalse();
    }
}
