package io.vstream.connect.sink;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Which tables a DDL statement changes. */
class DdlTargetsTest {
    @Test
    void findsTheChangedTables() {
        assertThat(DdlTargets.targets("ALTER TABLE orders ADD COLUMN x INT")).containsExactly("orders");
        assertThat(DdlTargets.targets("alter online table `db`.`orders` add x int")).containsExactly("orders");
        assertThat(DdlTargets.targets("DROP TABLE IF EXISTS a, `b`, db.orders")).containsExactly("a", "b", "orders");
        assertThat(DdlTargets.targets("RENAME TABLE orders TO o2, x TO y")).containsExactly("orders", "x");
        assertThat(DdlTargets.targets("TRUNCATE orders")).containsExactly("orders");
        assertThat(DdlTargets.targets("CREATE TABLE `_orders_gho` LIKE `orders`")).containsExactly("_orders_gho");
        assertThat(DdlTargets.targets("CREATE INDEX i ON orders (x)")).isEmpty();
        assertThat(DdlTargets.targets("/* c */ ALTER TABLE `we``ird` ADD x INT")).containsExactly("we`ird");
    }

    @Test
    void touchesOnlyTheTableItselfAndNeverOurOwnStatements() {
        assertThat(DdlTargets.touches("CREATE TABLE _orders_gho LIKE orders", "shop", "shop", "orders")).isFalse();
        assertThat(DdlTargets.touches("ALTER TABLE _orders_gho MODIFY x BIGINT", "shop", "shop", "orders")).isFalse();
        assertThat(DdlTargets.touches("ALTER TABLE orders MODIFY x BIGINT", "shop", "shop", "orders")).isTrue();
        assertThat(DdlTargets.touches("/* vstream-connect:online-ddl */ RENAME TABLE orders TO _orders_old,"
                + " _orders_gho TO orders", "shop", "shop", "orders")).isFalse();
    }

    @Test
    void recognisesACutOversSwapAndNothingElse() {
        String swap = "/* vstream-connect:coordinator */ RENAME TABLE `shop`.`orders` TO `shop`.`orders_old`,"
                + " `shop`.`_orders_gho` TO `shop`.`orders`";
        assertThat(DdlTargets.swappedAway(swap, null, "shop", "orders", "_orders_gho")).isEqualTo("orders_old");
        assertThat(DdlTargets.swappedAway("rename table orders to o2, _orders_gho to orders", "shop", "shop", "orders",
                "_orders_gho")).isEqualTo("o2");
        // another database, only half a swap, more than a swap, not a rename
        assertThat(DdlTargets.swappedAway(swap, null, "other", "orders", "_orders_gho")).isNull();
        assertThat(DdlTargets.swappedAway("RENAME TABLE orders TO o2", "shop", "shop", "orders", "_orders_gho"))
                .isNull();
        assertThat(DdlTargets.swappedAway("RENAME TABLE _orders_gho TO orders", "shop", "shop", "orders",
                "_orders_gho")).isNull();
        assertThat(DdlTargets.swappedAway("RENAME TABLE orders TO other.o2, _orders_gho TO orders", "shop", "shop",
                "orders", "_orders_gho")).isNull();
        assertThat(DdlTargets.swappedAway("ALTER TABLE orders ADD x INT", "shop", "shop", "orders", "_orders_gho"))
                .isNull();
        // the revert's swap is the same shape with the names turned around
        assertThat(DdlTargets.swappedAway("RENAME TABLE orders TO orders_new, orders_old TO orders", "shop", "shop",
                "orders", "orders_old")).isEqualTo("orders_new");
    }

    @Test
    void aSameNamedTableOfAnotherDatabaseIsAnotherTable() {
        assertThat(DdlTargets.touches("DROP TABLE IF EXISTS fid_ddl2.wide", "fid_ddl", "fid_ddl", "wide")).isFalse();
        assertThat(DdlTargets.touches("DROP TABLE IF EXISTS wide", "fid_ddl2", "fid_ddl", "wide")).isFalse();
        assertThat(DdlTargets.touches("DROP TABLE IF EXISTS wide", "fid_ddl", "fid_ddl", "wide")).isTrue();
        assertThat(DdlTargets.touches("ALTER TABLE `fid_ddl`.`wide` ADD x INT", "other", "fid_ddl", "wide")).isTrue();
        assertThat(DdlTargets.touches("RENAME TABLE a.wide TO a.w2, fid_ddl.wide TO fid_ddl.w2", null, "fid_ddl",
                "wide")).isTrue();
        // no database of its own and none selected: cannot tell, so it counts
        assertThat(DdlTargets.touches("ALTER TABLE wide ADD x INT", null, "fid_ddl", "wide")).isTrue();
        assertThat(DdlTargets.qualifiedTargets("DROP TABLE `d.b`.`t`, t2")).containsExactly(
                new DdlTargets.Target("d.b", "t"), new DdlTargets.Target(null, "t2"));
    }
}
