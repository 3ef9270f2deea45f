package io.vstream.connect.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The statements both sides of {@code throttle} send: the coordinator's, and the copy's tagged {@code copy}. */
class ThrottleTableTest {
    private static final String T = "`_vstream`.`throttle`";

    @Test
    void theCoordinatorCreatesSetsAndClearsAThrottle() {
        assertThat(ThrottleTable.createStatement("_vstream")).isEqualTo("CREATE TABLE IF NOT EXISTS " + T
                + " (scope VARCHAR(128) NOT NULL PRIMARY KEY, reason TEXT NOT NULL, expires_at TIMESTAMP(6) NOT NULL)"
                + " ENGINE=InnoDB");
        assertThat(ThrottleTable.setStatement("_vstream")).isEqualTo("/* vstream-connect:coordinator */ REPLACE INTO "
                + T + " (scope, reason, expires_at) VALUES (?, ?, NOW(6) + INTERVAL ? MICROSECOND)");
        assertThat(ThrottleTable.clearStatement("_vstream")).isEqualTo("DELETE FROM " + T + " WHERE scope = ?");
    }

    @Test
    void theCopyLooksTheTableUpProbesItAndReadsAnUnexpiredReason() {
        assertThat(ThrottleTable.existsStatement()).isEqualTo("/* vstream-connect:copy */ SELECT 1 FROM"
                + " information_schema.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_NAME = 'throttle'");
        assertThat(ThrottleTable.readableStatement("_vstream")).isEqualTo("/* vstream-connect:copy */ SELECT 1 FROM "
                + T + " LIMIT 0");
        assertThat(ThrottleTable.reasonStatement("_vstream")).isEqualTo("/* vstream-connect:copy */ SELECT reason FROM "
                + T + " WHERE scope = ? AND expires_at > NOW(6)");
    }
}
