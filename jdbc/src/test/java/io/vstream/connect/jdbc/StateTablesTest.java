package io.vstream.connect.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class StateTablesTest {
    @Test
    void theUpgradeAddsTheColumnTaggedByItsCaller() {
        assertThat(StateTables.addColumnStatement("sink", "_vstream", "applied", "rows_copied", "BIGINT"))
                .isEqualTo("/* vstream-connect:sink */ ALTER TABLE `_vstream`.`applied` ADD COLUMN `rows_copied`"
                        + " BIGINT");
        assertThat(StateTables.addColumnStatement("coordinator", "_vstream", "migrations", "method",
                "VARCHAR(16) NOT NULL DEFAULT 'copy'"))
                .isEqualTo("/* vstream-connect:coordinator */ ALTER TABLE `_vstream`.`migrations` ADD COLUMN"
                        + " `method` VARCHAR(16) NOT NULL DEFAULT 'copy'");
    }
}
