package io.vstream.connect.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class AccountGrantsTest {
    // SHOW GRANTS of MariaDB 10.11 for an account with exactly the clone coordinator's target grants
    private static final List<String> CLONE_TARGET = List.of(
            "GRANT RELOAD, SHOW DATABASES, REPLICATION SLAVE ADMIN, SLAVE MONITOR ON *.* TO `c`@`%` IDENTIFIED BY"
                    + " PASSWORD '*B69027D44F6E5EDC07F1AEAD1477967B16F28227'",
            "GRANT SELECT ON `commerce`.* TO `c`@`%`",
            "GRANT SELECT, INSERT, UPDATE, CREATE ON `_vstream`.* TO `c`@`%`",
            "GRANT SELECT, INSERT, UPDATE, DELETE, CREATE, DROP ON `test`.* TO PUBLIC");

    @Test
    void readsGlobalAndDatabasePrivileges() {
        AccountGrants g = AccountGrants.parse("c@%", CLONE_TARGET);
        assertThat(g.hasGlobal("RELOAD")).isTrue();
        assertThat(g.hasGlobal("REPLICATION SLAVE ADMIN")).isTrue();
        assertThat(g.hasGlobal("BINLOG ADMIN")).isFalse();
        assertThat(g.hasOnDatabase("SELECT", "commerce")).isTrue();
        assertThat(g.hasOnDatabase("INSERT", "commerce")).isFalse();
        assertThat(g.hasOnDatabase("CREATE", "_vstream")).isTrue();
        assertThat(g.hasOnDatabase("DELETE", "test")).as("PUBLIC's grants are not the account's").isFalse();
        assertThat(g.viaRoles()).isFalse();
    }

    @Test
    void namesEachMissingPrivilegeAsTheGrantThatGivesIt() {
        AccountGrants g = AccountGrants.parse("c@%", List.of("GRANT SLAVE MONITOR ON *.* TO `c`@`%`",
                "GRANT SELECT, INSERT ON `_vstream`.* TO `c`@`%`"));
        List<String> missing = g.missing(List.of(
                AccountGrants.Need.global("RELOAD", "RESET MASTER"),
                AccountGrants.Need.global("SLAVE MONITOR", "SHOW SLAVE STATUS"),
                AccountGrants.Need.on("_vstream", "UPDATE", "the control row"),
                AccountGrants.Need.on("_vstream", "INSERT", "the control row")));
        assertThat(missing).containsExactly("GRANT RELOAD ON *.* TO 'c'@'%' (RESET MASTER)",
                "GRANT UPDATE ON `_vstream`.* TO 'c'@'%' (the control row)");
    }

    @Test
    void allPrivilegesAndAlternativesCount() {
        AccountGrants root = AccountGrants.parse("root@localhost",
                List.of("GRANT ALL PRIVILEGES ON *.* TO `root`@`localhost` WITH GRANT OPTION"));
        assertThat(root.hasGlobal("RELOAD")).isTrue();
        assertThat(root.hasOnDatabase("CREATE", "_vstream")).isTrue();
        AccountGrants sup = AccountGrants.parse("u@%", List.of("GRANT SUPER ON *.* TO `u`@`%`",
                "GRANT ALL PRIVILEGES ON `_vstream`.* TO `u`@`%`"));
        assertThat(sup.hasGlobal("REPLICATION SLAVE ADMIN", "SUPER")).isTrue();
        assertThat(sup.hasGlobal("RELOAD")).isFalse();
        assertThat(sup.hasOnDatabase("UPDATE", "_vstream")).isTrue();
    }

    @Test
    void databasePatternsAndRoles() {
        assertThat(AccountGrants.matches("shop\\_%", "shop_eu")).isTrue();
        assertThat(AccountGrants.matches("shop\\_%", "shopXeu")).isFalse();
        assertThat(AccountGrants.matches("shop_", "shopX")).isTrue();
        assertThat(AccountGrants.matches("commerce", "Commerce")).isTrue();
        AccountGrants g = AccountGrants.parse("u@%", List.of("GRANT `dba` TO `u`@`%`",
                "GRANT SELECT (a, b) ON `x`.`t` TO `u`@`%`", "GRANT SELECT ON `shop\\_%`.* TO `u`@`%`"));
        assertThat(g.viaRoles()).isTrue();
        assertThat(g.hasOnDatabase("SELECT", "shop_eu")).isTrue();
        assertThat(g.hasOnDatabase("SELECT", "x")).as("a table-level grant is not the database's").isFalse();
    }
}
