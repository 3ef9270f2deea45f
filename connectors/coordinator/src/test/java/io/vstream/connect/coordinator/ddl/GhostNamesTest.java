package io.vstream.connect.coordinator.ddl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Ghost table names: gh-ost's default, patterns, and shortening to MySQL's 64 characters. */
class GhostNamesTest {

    @Test
    void defaultIsGhOstsName() {
        assertThat(GhostNames.defaults().ghostOf("orders")).isEqualTo("_orders_gho");
        assertThat(GhostNames.defaults().pattern()).isEqualTo("_${table}_gho");
    }

    @Test
    void patternsPlaceTheTableName() {
        assertThat(new GhostNames("${table}__new").ghostOf("orders")).isEqualTo("orders__new");
        assertThat(new GhostNames("vs_${table}").ghostOf("my table")).isEqualTo("vs_my table");
    }

    @Test
    void namesWithin64CharactersAreKept() {
        String t = "t".repeat(59);
        assertThat(GhostNames.defaults().ghostOf(t)).isEqualTo("_" + t + "_gho").hasSize(64);
    }

    @Test
    void longNamesAreShortenedWithAHashAndKeepTheSuffix() {
        String t = "a".repeat(60);
        String ghost = GhostNames.defaults().ghostOf(t);
        assertThat(ghost).hasSize(64).startsWith("_aaaa").endsWith("_gho").matches("_a{50}_[0-9a-f]{8}_gho");
        assertThat(GhostNames.defaults().ghostOf(t)).isEqualTo(ghost);
    }

    @Test
    void longNamesWithACommonPrefixDoNotCollide() {
        String common = "customer_order_line_item_history_archive_partitioned_by_month_";
        String a = GhostNames.defaults().ghostOf(common + "2024");
        String b = GhostNames.defaults().ghostOf(common + "2025");
        assertThat(a).hasSize(64).isNotEqualTo(b);
        assertThat(b).hasSize(64);
    }

    @Test
    void lengthCountsCharactersNotBytes() {
        String t = "é".repeat(59);
        assertThat(GhostNames.defaults().ghostOf(t)).isEqualTo("_" + t + "_gho");
        String longer = "é".repeat(70);
        String ghost = GhostNames.defaults().ghostOf(longer);
        assertThat(ghost.codePointCount(0, ghost.length())).isEqualTo(64);
    }

    @Test
    void theCutOverCanNameOtherTablesTheSameWay() {
        assertThat(GhostNames.apply("_${table}_del", "orders")).isEqualTo("_orders_del");
        assertThat(GhostNames.apply("_${table}_del", "x".repeat(64))).hasSize(64).endsWith("_del");
    }

    @Test
    void badPatternsAreRefused() {
        assertThatThrownBy(() -> new GhostNames("_gho")).hasMessageContaining("${table}");
        assertThatThrownBy(() -> new GhostNames("${table}_${table}")).hasMessageContaining("exactly once");
        assertThatThrownBy(() -> new GhostNames("${table}")).hasMessageContaining("names the table itself");
        assertThatThrownBy(() -> new GhostNames("${table}" + "x".repeat(60))).hasMessageContaining("no room");
        assertThatThrownBy(() -> new GhostNames("${table}_gho ")).hasMessageContaining("space");
        assertThatThrownBy(() -> GhostNames.defaults().ghostOf("")).hasMessageContaining("empty");
    }
}
