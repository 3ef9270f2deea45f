package io.vstream.connect.coordinator.copy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vstream.connect.core.mapping.ColumnMapping;
import io.vstream.connect.jdbc.MigrationPlans;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class GhostCopyStatementsTest {
    private static MigrationPlans.Plan plan() {
        Map<String, String> shared = new LinkedHashMap<>();
        shared.put("id", "id");
        shared.put("k`x", "k`x");
        shared.put("extra", "extra2");
        return new MigrationPlans.Plan("m", "shop", "orders", "_orders_gho",
                new ColumnMapping(shared, List.of("legacy"), List.of("created")), List.of("k`x", "id"), false);
    }

    @Test
    void theChunkInsertsThroughTheMappingUnderSharedLocksKeepingWhatTheGhostHolds() {
        GhostCopyStatements s = new GhostCopyStatements(plan());
        assertThat(s.originalKey()).containsExactly("k`x", "id");
        String sql = s.insert(true, true, true);
        assertThat(sql).startsWith("/* vstream-connect:ghost-copy */ ")
                .contains("INSERT INTO `shop`.`_orders_gho` (`id`, `k``x`, `extra2`) SELECT o.`id`, o.`k``x`,"
                        + " o.`extra` FROM `shop`.`orders` AS o WHERE ((`k``x` > ?) OR (`k``x` = ? AND `id` > ?))"
                        + " AND ((`k``x` < ?) OR (`k``x` = ? AND `id` < ?) OR (`k``x` = ? AND `id` = ?))"
                        + " LOCK IN SHARE MODE NOWAIT ON DUPLICATE KEY UPDATE `shop`.`_orders_gho`.`k``x` ="
                        + " `shop`.`_orders_gho`.`k``x`, `shop`.`_orders_gho`.`id` = `shop`.`_orders_gho`.`id`");
        assertThat(s.insert(false, false, false)).contains("FROM `shop`.`orders` AS o LOCK IN SHARE MODE ON DUPLICATE");
        assertThat(s.missing(false, true)).endsWith("SELECT `k``x`, `id` FROM `shop`.`orders` AS o WHERE"
                + " ((`k``x` < ?) OR (`k``x` = ? AND `id` < ?) OR (`k``x` = ? AND `id` = ?)) AND NOT EXISTS"
                + " (SELECT 1 FROM `shop`.`_orders_gho` AS g WHERE g.`k``x` = o.`k``x` AND g.`id` = o.`id`) LIMIT 1");
        assertThat(s.insertOne()).endsWith("FROM `shop`.`orders` AS o WHERE `k``x` = ? AND `id` = ?");
        assertThat(GhostCopyStatements.rangeArgs(List.of(1, 2), List.of(3, 4)))
                .containsExactly(1, 1, 2, 3, 3, 4, 3, 4);
        assertThat(GhostCopyStatements.rangeArgs(null, null)).isEmpty();
    }

    @Test
    void theBoundaryIsTheKeyNRowsOnInKeyOrder() {
        GhostCopyStatements s = new GhostCopyStatements(plan());
        assertThat(s.boundary(true, false, 500)).endsWith("SELECT `k``x`, `id` FROM `shop`.`orders` WHERE"
                + " ((`k``x` > ?) OR (`k``x` = ? AND `id` > ?)) ORDER BY `k``x`, `id` LIMIT 1 OFFSET 499");
        assertThat(s.boundary(false, false, 1)).endsWith("ORDER BY `k``x`, `id` LIMIT 1 OFFSET 0");
    }

    @Test
    void aKeyThatIsNotSharedIsRefused() {
        MigrationPlans.Plan p = plan();
        MigrationPlans.Plan bad = new MigrationPlans.Plan("m", "shop", "orders", "_orders_gho", p.mapping(),
                List.of("created"), false);
        assertThatThrownBy(() -> new GhostCopyStatements(bad)).hasMessageContaining("created");
    }

    @Test
    void theDuplicateKeyIsReadFromTheServersMessage() {
        assertThat(RangeCopy.duplicateKey("Duplicate entry 'a' for key 'u_sku'")).isEqualTo("u_sku");
        assertThat(RangeCopy.duplicateKey("Duplicate entry 'x for key 'y' for key 'PRIMARY'")).isEqualTo("PRIMARY");
        assertThat(RangeCopy.duplicateKey("Duplicate entry '1' for key 'orders.PRIMARY'")).isEqualTo("PRIMARY");
        assertThat(RangeCopy.duplicateKey("Deadlock found")).isNull();
        assertThat(RangeCopy.duplicateKey(null)).isNull();
    }
}
