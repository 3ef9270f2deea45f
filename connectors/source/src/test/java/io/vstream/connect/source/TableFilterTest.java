package io.vstream.connect.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.regex.PatternSyntaxException;
import org.junit.jupiter.api.Test;

class TableFilterTest {

    @Test
    void allStreamsEveryTableAndColumn() {
        TableFilter f = TableFilter.all();
        assertThat(f.includesTable("orders")).isTrue();
        assertThat(f.includesTable("_orders_gho")).isTrue();
        assertThat(f.includesColumn("orders", "secret")).isTrue();
    }

    @Test
    void includeListKeepsOnlyMatchingTables() {
        TableFilter f = new TableFilter(List.of("orders", "customer_.*"), List.of(), List.of());
        assertThat(f.includesTable("orders")).isTrue();
        assertThat(f.includesTable("customer_address")).isTrue();
        assertThat(f.includesTable("items")).isFalse();
    }

    @Test
    void matchesTheWholeNameOnly() {
        TableFilter f = new TableFilter(List.of("order"), List.of(), List.of());
        assertThat(f.includesTable("order")).isTrue();
        assertThat(f.includesTable("orders")).as("a prefix is not a match").isFalse();
        assertThat(f.includesTable("back_order")).as("a suffix is not a match").isFalse();
    }

    @Test
    void matchesCaseInsensitively() {
        TableFilter f = new TableFilter(List.of("Orders"), List.of("ORDERS_ARCHIVE"), List.of("orders\\.SECRET"));
        assertThat(f.includesTable("orders")).isTrue();
        assertThat(f.includesTable("ORDERS")).isTrue();
        assertThat(new TableFilter(List.of("orders.*"), List.of("ORDERS_ARCHIVE"), List.of())
                .includesTable("orders_archive")).isFalse();
        assertThat(f.includesColumn("Orders", "Secret")).isFalse();
    }

    @Test
    void matchesNonAsciiCaseInsensitively() {
        TableFilter f = new TableFilter(List.of("ÉTÉ"), List.of(), List.of());
        assertThat(f.includesTable("été")).isTrue();
    }

    @Test
    void excludeListAppliesAfterTheIncludeList() {
        TableFilter f = new TableFilter(List.of("orders.*"), List.of(".*_archive"), List.of());
        assertThat(f.includesTable("orders")).isTrue();
        assertThat(f.includesTable("orders_archive")).isFalse();
        assertThat(f.includesTable("items_archive")).as("not included in the first place").isFalse();
    }

    @Test
    void excludeListAloneKeepsEverythingElse() {
        TableFilter f = new TableFilter(List.of(), List.of("_.*_(gho|ghc|del)"), List.of());
        assertThat(f.includesTable("orders")).isTrue();
        assertThat(f.includesTable("_orders_gho")).isFalse();
        assertThat(f.includesTable("_orders_ghc")).isFalse();
    }

    @Test
    void columnExclusionMatchesTableDotColumn() {
        TableFilter f = new TableFilter(List.of(), List.of(), List.of("customers\\.(ssn|card_.*)", ".*\\.password"));
        assertThat(f.includesColumn("customers", "ssn")).isFalse();
        assertThat(f.includesColumn("customers", "card_number")).isFalse();
        assertThat(f.includesColumn("customers", "name")).isTrue();
        assertThat(f.includesColumn("orders", "ssn")).as("another table's column").isTrue();
        assertThat(f.includesColumn("users", "password")).isFalse();
        assertThat(f.includesColumn("users", "password_hint")).as("whole match").isTrue();
    }

    @Test
    void blankPatternsAreIgnoredAndPatternsAreStripped() {
        TableFilter f = new TableFilter(List.of(" orders ", "", "  "), List.of(" "), List.of(""));
        assertThat(f.includesTable("orders")).isTrue();
        assertThat(f.includesTable("items")).as("the include list is not empty").isFalse();
        assertThat(f.includesColumn("orders", "id")).isTrue();
    }

    @Test
    void anInvalidPatternFailsAtConstruction() {
        assertThatThrownBy(() -> new TableFilter(List.of("orders("), List.of(), List.of()))
                .isInstanceOf(PatternSyntaxException.class);
    }
}
