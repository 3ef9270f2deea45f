package io.vstream.connect.core.vindex;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/**
 * Vectors from Vitess go/vt/vtgate/vindexes/xxhash_test.go (TestXXHashMap, TestXXHashVerify): Vitess hashes
 * {@code sqltypes.Value.ToBytes()} (decimal text for integers) with cespare/xxhash (XXH64, seed 0) and writes the sum
 * little-endian ({@code binary.LittleEndian.PutUint64} in xxhash.go).
 */
class XxHashVindexTest {

    private final Vindex xxhash = Vindexes.named("xxhash");

    private String ksid(Object value) {
        return HexFormat.of().formatHex(xxhash.keyspaceId(value));
    }

    @Test
    void matchesVitessVectorsForStrings() {
        assertThat(ksid("test1")).isEqualTo("d01ab7e4d6978f0b");
        assertThat(ksid("test2")).isEqualTo("87eb11714c0a0e89");
        assertThat(ksid("testaverylongvaluetomakesurethisworks")).isEqualTo("81d8c38e0d850e6a");
    }

    @Test
    void matchesVitessVectorsForIntegersAsTheirDecimalText() {
        assertThat(ksid(1L)).isEqualTo("d46405367612b4b7");
        assertThat(ksid(1)).isEqualTo("d46405367612b4b7");
        assertThat(ksid((short) 1)).isEqualTo("d46405367612b4b7");
        assertThat(ksid((byte) 1)).isEqualTo("d46405367612b4b7");
        assertThat(ksid(BigInteger.ONE)).isEqualTo("d46405367612b4b7");
        assertThat(ksid(-1L)).isEqualTo("d8e2a6a7c8c7623d");
        assertThat(ksid(new BigInteger("18446744073709551615"))).isEqualTo("477cfa8d6d8f1f8d");
        assertThat(ksid(Long.MAX_VALUE)).isEqualTo("b37eb01f7bffafd8");
        assertThat(ksid(BigInteger.valueOf(Long.MAX_VALUE))).isEqualTo("b37eb01f7bffafd8");
        assertThat(ksid(Long.MIN_VALUE)).isEqualTo("102c27ddb26a609e");
    }

    @Test
    void hashesNullAsTheEmptyInputLikeVitess() {
        // XXH64("") = 0xef46db3751d8e999, written little-endian
        assertThat(ksid(null)).isEqualTo("99e9d85137db46ef");
        assertThat(ksid(new byte[0])).isEqualTo("99e9d85137db46ef");
    }

    @Test
    void hashesBinaryValuesAsTheirRawBytes() {
        byte[] raw = HexFormat.of().parseHex("9efa"); // TestXXHashVerify hashes x'9efa' as these two bytes
        assertThat(xxhash.keyspaceId(raw)).isEqualTo(xxhash.keyspaceId(ByteBuffer.wrap(raw)));
        assertThat(ksid("test1".getBytes(StandardCharsets.UTF_8))).isEqualTo("d01ab7e4d6978f0b");
        ByteBuffer buffer = ByteBuffer.wrap("xtest1".getBytes(StandardCharsets.UTF_8));
        buffer.get();
        assertThat(ksid(buffer)).isEqualTo("d01ab7e4d6978f0b");
        assertThat(buffer.position()).isEqualTo(1); // not consumed
    }

    @Test
    void hashesDecimalsAsTheirPlainTextWithScale() {
        assertThat(ksid(new BigDecimal("1.50"))).isEqualTo(ksid("1.50"));
        assertThat(ksid(new BigDecimal("1E+3"))).isEqualTo(ksid("1000"));
    }

    @Test
    void refusesTypesWhoseMysqlTextIsNotJavas() {
        assertThatThrownBy(() -> xxhash.keyspaceId(1.5d)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("java.lang.Double");
        assertThatThrownBy(() -> xxhash.keyspaceId(LocalDate.of(2024, 1, 2)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("java.time.LocalDate");
        assertThatThrownBy(() -> xxhash.keyspaceId(true)).isInstanceOf(IllegalArgumentException.class);
    }
}
