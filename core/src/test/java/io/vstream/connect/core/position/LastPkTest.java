package io.vstream.connect.core.position;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** LastPk: the value types it takes, exact equality, defensive copies and a value-free toString. */
class LastPkTest {

    @Test
    void holdsEveryKeyTypeInOrder() {
        byte[] bytes = {0, 1, (byte) 0xff};
        LastPk pk = LastPk.builder()
                .add("id", 12L)
                .add("u", new BigInteger("18446744073709551615"))
                .add("d", new BigDecimal("12.50"))
                .add("s", "héllo")
                .add("b", bytes)
                .add("n", null)
                .build();
        assertThat(pk.size()).isEqualTo(6);
        assertThat(pk.columns()).containsExactly("id", "u", "d", "s", "b", "n");
        assertThat(pk.value(0)).isEqualTo(12L);
        assertThat(pk.value(4)).isEqualTo(bytes);
        assertThat(pk.values()).hasSize(6).element(5).isNull();
    }

    @Test
    void widensSmallIntegersToLong() {
        assertThat(LastPk.of("id", 7).value(0)).isEqualTo(7L);
        assertThat(LastPk.of("id", (short) 7)).isEqualTo(LastPk.of("id", 7L));
        assertThat(LastPk.of("id", (byte) 7)).isEqualTo(LastPk.of("id", 7L));
    }

    @Test
    void bytesAreComparedByContentAndCopied() {
        byte[] bytes = {1, 2, 3};
        LastPk pk = LastPk.of("b", bytes);
        bytes[0] = 9;
        assertThat((byte[]) pk.value(0)).containsExactly(1, 2, 3);
        ((byte[]) pk.value(0))[1] = 9;
        ((byte[]) pk.values().get(0))[2] = 9;
        assertThat((byte[]) pk.value(0)).containsExactly(1, 2, 3);
        assertThat(pk).isEqualTo(LastPk.of("b", new byte[] {1, 2, 3}))
                .hasSameHashCodeAs(LastPk.of("b", new byte[] {1, 2, 3}))
                .isNotEqualTo(LastPk.of("b", new byte[] {1, 2, 4}));
    }

    @Test
    void decimalsCompareWithTheirScale() {
        assertThat(LastPk.of("d", new BigDecimal("1.50"))).isNotEqualTo(LastPk.of("d", new BigDecimal("1.5")));
        assertThat(LastPk.of("id", 1L)).isNotEqualTo(LastPk.of("id", BigInteger.ONE));
    }

    @Test
    void ofListsPairsColumnsWithValues() {
        assertThat(LastPk.of(List.of("a", "b"), Arrays.asList(1L, null)))
                .isEqualTo(LastPk.builder().add("a", 1L).add("b", null).build());
        assertThatThrownBy(() -> LastPk.of(List.of("a", "b"), List.of(1L)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("one value per column, got 2 columns [a, b] and 1 values");
    }

    @Test
    void refusesFloatingPointValues() {
        assertThatThrownBy(() -> LastPk.of("price", 1.5d))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("lastPK column 'price' has a floating-point value (Double)");
        assertThatThrownBy(() -> LastPk.of("price", 1.5f))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("(Float)");
    }

    @Test
    void refusesOtherTypesAndBadColumns() {
        assertThatThrownBy(() -> LastPk.of("day", LocalDate.of(2024, 1, 1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("lastPK column 'day' has a value of type java.time.LocalDate; supported are");
        assertThatThrownBy(() -> LastPk.builder().add("a", 1L).add("a", 2L))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("lastPK column 'a' appears twice");
        assertThatThrownBy(() -> LastPk.of(" ", 1L)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> LastPk.builder().build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at least one column");
    }

    @Test
    void toStringShowsTypesNeverValues() {
        LastPk pk = LastPk.builder().add("email", "someone@example.com").add("b", new byte[] {1}).add("n", null)
                .build();
        assertThat(pk.toString()).isEqualTo("LastPk[email=String, b=byte[], n=null]").doesNotContain("someone");
    }
}
