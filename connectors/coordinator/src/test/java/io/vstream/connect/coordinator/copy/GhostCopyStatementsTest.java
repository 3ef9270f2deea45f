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
        String sql = s.insert(true, true, GhostCopyStatements.Locking.NOWAIT);
        assertThat(sql).startsWith("/* vstream-connect:ghost-copy */ ")
                .contains("INSERT INTO `shop`.`_orders_gho` (`id`, `k``x`, `extra2`) SELECT o.`id`, o.`k``x`,"
                        + " o.`extra` FROM `shop`.`orders` AS o WHERE ((`k``x` > ?) OR (`k``x` = ? AND `id` > ?))"
                        + " AND ((`k``x` < ?) OR (`k``x` = ? AND `id` < ?) OR (`k``x` = ? AND `id` = ?))"
                        + " LOCK IN SHARE MODE NOWAIT ON DUPLICATE KEY UPDATE `shop`.`_orders_gho`.`k``x` ="
                        + " `shop`.`_orders_gho`.`k``x`, `shop`.`_orders_gho`.`id` = `shop`.`_orders_gho`.`id`");
        assertThat(s.insert(false, false, GhostCopyStatements.Locking.WAIT))
                .contains("FROM `shop`.`orders` AS o LOCK IN SHARE MODE ON DUPLICATE");
        assertThat(s.insert(true, false, GhostCopyStatements.Locking.SKIP_LOCKED))
                .contains("AS o WHERE ((`k``x` > ?) OR (`k``x` = ? AND `id` > ?)) LOCK IN SHARE MODE SKIP LOCKED ON"
                        + " DUPLICATE KEY UPDATE `shop`.`_orders_gho`.`k``x` = `shop`.`_orders_gho`.`k``x`, ");
        assertThat(s.lacking(true, true, 1001)).endsWith("AND NOT EXISTS (SELECT 1 FROM `shop`.`_orders_gho` AS g"
                + " WHERE g.`k``x` = o.`k``x` AND g.`id` = o.`id`) ORDER BY `k``x`, `id` LIMIT 1001");
        assertThat(s.copyOne()).startsWith("/* vstream-connect:ghost-copy */ INSERT INTO `shop`.`_orders_gho` ")
                .endsWith("SELECT o.`id`, o.`k``x`, o.`extra` FROM `shop`.`orders` AS o WHERE"
                + " `k``x` = ? AND `id` = ? LOCK IN SHARE MODE ON DUPLICATE KEY UPDATE `shop`.`_orders_gho`.`k``x` ="
                + " `shop`.`_orders_gho`.`k``x`, `shop`.`_orders_gho`.`id` = `shop`.`_orders_gho`.`id`");
        assertThat(s.lacking(false, true, 1)).endsWith("SELECT `k``x`, `id` FROM `shop`.`orders` AS o WHERE"
                + " ((`k``x` < ?) OR (`k``x` = ? AND `id` < ?) OR (`k``x` = ? AND `id` = ?)) AND NOT EXISTS"
                + " (SELECT 1 FROM `shop`.`_orders_gho` AS g WHERE g.`k``x` = o.`k``x` AND g.`id` = o.`id`)"
                + " ORDER BY `k``x`, `id` LIMIT 1");
        assertThat(s.insertOne()).endsWith("FROM `shop`.`orders` AS o WHERE `k``x` = ? AND `id` = ?");
        assertThat(GhostCopyStatements.rangeArgs(List.of(1, 2), List.of(3, 4)))
                .containsExactly(1, 1, 2, 3, 3, 4, 3, 4);
        assertThat(GhostCopyStatements.rangeArgs(null, null)).isEmpty();
    }

    @Test
    void mySqlSpellsTheShareLockForShareAndOldMariaDbCannotSkipLockedRows() {
        GhostCopyStatements.Dialect mysql = GhostCopyStatements.Dialect.of("8.0.36");
        assertThat(mysql.mariaDb()).isFalse();
        assertThat(mysql.skipsLocked()).isTrue();
        GhostCopyStatements s = new GhostCopyStatements(plan(), mysql);
        assertThat(s.insert(true, true, GhostCopyStatements.Locking.SKIP_LOCKED))
                .contains(" FOR SHARE SKIP LOCKED ON DUPLICATE KEY UPDATE ").doesNotContain("LOCK IN SHARE MODE");
        assertThat(s.insert(true, true, GhostCopyStatements.Locking.NOWAIT)).contains(" FOR SHARE NOWAIT ON ");
        assertThat(s.copyOne()).contains("`id` = ? FOR SHARE ON DUPLICATE KEY UPDATE");
        assertThat(GhostCopyStatements.Dialect.of("8.0.0").skipsLocked()).isFalse();
        assertThat(GhostCopyStatements.Dialect.of("10.11.19-MariaDB-0+deb12u1-log"))
                .isEqualTo(new GhostCopyStatements.Dialect(true, true));
        assertThat(GhostCopyStatements.Dialect.of("10.6.0-MariaDB").skipsLocked()).isTrue();
        assertThat(GhostCopyStatements.Dialect.of("10.5.27-MariaDB-log"))
                .isEqualTo(new GhostCopyStatements.Dialect(true, false));
        assertThat(GhostCopyStatements.Dialect.of("11.4.2-MariaDB").skipsLocked()).isTrue();
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
