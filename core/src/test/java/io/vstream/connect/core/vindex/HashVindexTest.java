package io.vstream.connect.core.vindex;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class HashVindexTest {

    private final Vindex hash = Vindexes.named("hash");

    private static String hex(byte[] bytes) {
        return HexFormat.of().formatHex(bytes);
    }

    /** Vitess go/vt/vtgate/vindexes/hash_test.go, TestHashMap. */
    @ParameterizedTest
    @CsvSource({
            "1, 166b40b44aba4bd6",
            "2, 06e7ea22ce92708f",
            "3, 4eb190c9a2fa169c",
            "4, d2fd8867d50d2dfe",
            "5, 70bb023c810ca87a",
            "6, f098480ac4c4be71",
    })
    void matchesVitessVectors(long value, String keyspaceId) {
        assertThat(hex(hash.keyspaceId(value))).isEqualTo(keyspaceId);
        assertThat(hex(hash.keyspaceId((int) value))).isEqualTo(keyspaceId);
        assertThat(hex(hash.keyspaceId((short) value))).isEqualTo(keyspaceId);
        assertThat(hex(hash.keyspaceId((byte) value))).isEqualTo(keyspaceId);
        assertThat(hex(hash.keyspaceId(BigInteger.valueOf(value)))).isEqualTo(keyspaceId);
        assertThat(hex(hash.keyspaceId(Long.toString(value)))).isEqualTo(keyspaceId);
    }

    @Test
    void unsignedAboveSignedRangeMatchesTheSameBitsAsALong() {
        BigInteger max = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);
        assertThat(hash.keyspaceId(max)).isEqualTo(hash.keyspaceId(-1L));
        assertThat(hash.keyspaceId("18446744073709551615")).isEqualTo(hash.keyspaceId(-1L));
        assertThat(hash.keyspaceId(BigInteger.ONE.shiftLeft(63))).isEqualTo(hash.keyspaceId(Long.MIN_VALUE));
    }

    @Test
    void negativeSignedIntegersMapThroughTwosComplementAsInVitess() {
        assertThat(hash.keyspaceId(-1)).isEqualTo(hash.keyspaceId(new BigInteger("18446744073709551615")));
        assertThat(hash.keyspaceId((byte) -2)).isEqualTo(hash.keyspaceId(-2L));
    }

    @Test
    void refusesValuesItCannotMap() {
        assertThatThrownBy(() -> hash.keyspaceId(null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("NULL");
        assertThatThrownBy(() -> hash.keyspaceId(BigInteger.ONE.shiftLeft(64)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("64-bit range");
        assertThatThrownBy(() -> hash.keyspaceId("12a")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not a decimal integer");
        assertThatThrownBy(() -> hash.keyspaceId("-1")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("negative");
        assertThatThrownBy(() -> hash.keyspaceId(1.5d)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("java.lang.Double");
    }

    @Test
    void isThreadSafe() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<Boolean>> results = pool.invokeAll(List.of(this::hashesOk, this::hashesOk, this::hashesOk,
                    this::hashesOk));
            for (Future<Boolean> result : results) {
                assertThat(result.get()).isTrue();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private boolean hashesOk() {
        for (int i = 0; i < 2_000; i++) {
            if (!hex(hash.keyspaceId(1L)).equals("166b40b44aba4bd6")
                    || !hex(hash.keyspaceId(6L)).equals("f098480ac4c4be71")) {
                return false;
            }
        }
        return true;
    }
}
