package io.vstream.connect.core.vindex;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vstream.connect.core.keyrange.KeyRange;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class VindexesTest {

    @ParameterizedTest
    @ValueSource(strings = {"hash", "xxhash", "binary", "numeric"})
    void findsEachVindexByName(String name) {
        assertThat(Vindexes.named(name).name()).isEqualTo(name);
        assertThat(Vindexes.named(" " + name.toUpperCase() + " ").name()).isEqualTo(name);
    }

    @Test
    void unknownNameListsTheValidOnes() {
        assertThatThrownBy(() -> Vindexes.named("md5")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("\"md5\"").hasMessageContaining("[hash, xxhash, binary, numeric]");
        assertThatThrownBy(() -> Vindexes.named(null)).isInstanceOf(IllegalArgumentException.class);
        assertThat(Vindexes.names()).containsExactly("hash", "xxhash", "binary", "numeric");
    }

    @Test
    void numericIsTheBigEndianUint64() {
        Vindex numeric = Vindexes.named("numeric");
        assertThat(HexFormat.of().formatHex(numeric.keyspaceId(1L))).isEqualTo("0000000000000001");
        assertThat(HexFormat.of().formatHex(numeric.keyspaceId(BigInteger.ONE.shiftLeft(63))))
                .isEqualTo("8000000000000000");
        assertThat(HexFormat.of().formatHex(numeric.keyspaceId(new BigInteger("18446744073709551615"))))
                .isEqualTo("ffffffffffffffff");
        assertThat(numeric.keyspaceId("258")).isEqualTo(numeric.keyspaceId(258));
    }

    @Test
    void numericPlacesRowsOnChosenShards() {
        Vindex numeric = Vindexes.named("numeric");
        byte[] low = numeric.keyspaceId(new BigInteger("7fffffffffffffff", 16));
        byte[] high = numeric.keyspaceId(new BigInteger("8000000000000000", 16));
        assertThat(KeyRange.parse("-80").contains(low)).isTrue();
        assertThat(KeyRange.parse("80-").contains(high)).isTrue();
        assertThat(KeyRange.parse("-80").contains(high)).isFalse();
    }

    @Test
    void numericRefusesNegativesAndNull() {
        Vindex numeric = Vindexes.named("numeric");
        assertThatThrownBy(() -> numeric.keyspaceId(-1L)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("negative");
        assertThatThrownBy(() -> numeric.keyspaceId(BigInteger.valueOf(-1))).hasMessageContaining("negative");
        assertThatThrownBy(() -> numeric.keyspaceId(null)).hasMessageContaining("NULL");
    }

    @Test
    void binaryIsTheValuesOwnBytes() {
        Vindex binary = Vindexes.named("binary");
        byte[] raw = {(byte) 0x80, 0x01};
        assertThat(binary.keyspaceId(raw)).isEqualTo(raw).isNotSameAs(raw);
        assertThat(binary.keyspaceId("héllo")).isEqualTo("héllo".getBytes(StandardCharsets.UTF_8));
        assertThat(binary.keyspaceId(42)).isEqualTo("42".getBytes(StandardCharsets.US_ASCII));
        assertThat(binary.keyspaceId(null)).isEmpty();
        assertThat(KeyRange.parse("80-").contains(binary.keyspaceId(raw))).isTrue();
    }
}
