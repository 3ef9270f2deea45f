package io.vstream.connect.coordinator.cutover;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import org.junit.jupiter.api.Test;

/** Old-table naming, the metadata-lock order of names and the sentry's mark, without a server. */
class CutOverTablesTest {

    @Test
    void defaultOldNameExtendsTheTableName() {
        assertThat(CutOverTables.defaultOldName("orders")).isEqualTo("orders_old");
        assertThat(CutOverTables.timestampedOldName("orders", Instant.parse("2024-03-05T10:11:12Z")))
                .isEqualTo("orders_old_20240305_101112");
    }

    @Test
    void longNamesAreShortenedWithAHashWithin64Characters() {
        String a = "a".repeat(62) + "xy";
        String b = "a".repeat(62) + "zz";
        assertThat(CutOverTables.defaultOldName(a)).hasSize(64).endsWith("_old")
                .isNotEqualTo(CutOverTables.defaultOldName(b));
        assertThat(CutOverTables.timestampedOldName(a, Instant.EPOCH)).hasSize(64).endsWith("_19700101_000000");
    }

    @Test
    void lockOrderIsByteOrderOfNulTerminatedNames() {
        // a name that extends t is locked after t; gh-ost's underscore names before a lower-case t
        assertThat(CutOverTables.lockOrder("t_old", "t", false)).isPositive();
        assertThat(CutOverTables.lockOrder("_t_old", "t", false)).isNegative();
        assertThat(CutOverTables.lockOrder("_t_del", "t", false)).isNegative();
        assertThat(CutOverTables.lockOrder("_T_old", "T", false)).isPositive();
        assertThat(CutOverTables.lockOrder("_t_gho", "t", false)).isNegative();
        assertThat(CutOverTables.lockOrder("Orders_old", "orders", false)).isNegative();
        assertThat(CutOverTables.lockOrder("Orders_old", "orders", true)).isPositive();
        assertThat(CutOverTables.lockOrder("tä_old", "tä", false)).isPositive();
    }

    @Test
    void sentryCommentIdentifiesTheTable() {
        assertThat(CutOverTables.sentryComment("orders")).startsWith(CutOverTables.SENTRY_COMMENT_PREFIX)
                .matches(".* [0-9a-f]{8}").isNotEqualTo(CutOverTables.sentryComment("orders2"));
    }

    @Test
    void namesMustBeDistinctAndValid() {
        assertThatThrownBy(() -> CutOverTables.of("db", "t", "t")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> CutOverTables.of("db", "t", "_t_gho").withOldTable("_t_gho"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> CutOverTables.of("db", "x".repeat(65), "g"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("64");
        assertThat(CutOverTables.of("db", "t", "_t_gho").oldTable()).isNull();
    }
}
