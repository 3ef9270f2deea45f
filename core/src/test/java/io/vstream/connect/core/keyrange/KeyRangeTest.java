package io.vstream.connect.core.keyrange;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class KeyRangeTest {

    private static byte[] ksid(String hex) {
        return HexFormat.of().parseHex(hex);
    }

    @ParameterizedTest
    @CsvSource({
            "-80, -80",
            "80-, 80-",
            "40-80, 40-80",
            "-, -",
            "0, -",
            "-4000, -4000",
            "4000-8000, 4000-8000",
            "80-C0, 80-c0",
            "aB-Cd, ab-cd",
            "00-, -",
            "' -80 ', -80",
    })
    void parsesVitessNamesToCanonicalLowercase(String input, String name) {
        assertThat(KeyRange.parse(input).name()).isEqualTo(name);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " ", "80", "8-", "-8", "80-80", "c0-80", "-00", "0000-00", "-80-", "x0-80", "80-c0-",
            "--", "1", "00", "-８0", "-80 80-"})
    void rejectsMalformedNamesQuotingInputAndExample(String input) {
        assertThatThrownBy(() -> KeyRange.parse(input))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("\"" + input + "\"")
                .hasMessageContaining("\"-80\"");
    }

    @ParameterizedTest
    @CsvSource({"-, 1.0", "-80, 0.5", "80-, 0.5", "40-80, 0.25", "80-c0, 0.25", "-0080, 0.001953125", "00-, 1.0", "0, 1.0"})
    void shareIsThePartOfTheKeyspaceIdsTheRangeHolds(String range, double share) {
        assertThat(KeyRange.parse(range).share()).isEqualTo(share);
    }

    @Test
    void rejectsNull() {
        assertThatThrownBy(() -> KeyRange.parse(null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("null").hasMessageContaining("\"-80\"");
    }

    @Test
    void explainsWhatIsWrong() {
        assertThatThrownBy(() -> KeyRange.parse("8-")).hasMessageContaining("odd number of hex digits");
        assertThatThrownBy(() -> KeyRange.parse("zz-")).hasMessageContaining("not hexadecimal");
        assertThatThrownBy(() -> KeyRange.parse("c0-80")).hasMessageContaining("start must be below the end");
        assertThatThrownBy(() -> KeyRange.parse("-80-")).hasMessageContaining("exactly one '-'");
    }

    @ParameterizedTest
    @CsvSource({
            "-80, 00, true",
            "-80, '', true", // the empty keyspace id is the minimum key
            "-80, 7fffffffffffffff, true",
            "-80, 8000000000000000, false",
            "-80, 80, false",
            "-80, 7f, true",
            "80-, 80, true",
            "80-, 8000000000000000, true",
            "80-, ffffffffffffffff, true",
            "80-, 7fffffffffffffff, false",
            "40-80, 40, true",
            "40-80, 3fff, false",
            "40-80, 7fffffffffffffffff, true", // longer than 8 bytes still compares by prefix
            "-4000, 3fffffffffffffff, true",
            "-4000, 4000000000000000, false",
            "4000-8000, 40, true",
            "-, 00, true",
            "-, ffffffffffffffff, true",
            "0, 1234, true",
    })
    void containsIsStartInclusiveEndExclusiveOverPaddedBytes(String range, String keyspaceId, boolean contained) {
        assertThat(KeyRange.parse(range).contains(ksid(keyspaceId))).isEqualTo(contained);
    }

    @Test
    void boundsThatDifferOnlyInTrailingZerosAreTheSameRange() {
        KeyRange a = KeyRange.parse("-80");
        KeyRange b = KeyRange.parse("0000-8000");
        KeyRange c = KeyRange.parse("00-800000");
        assertThat(a).isEqualTo(b).isEqualTo(c).hasSameHashCodeAs(b).hasSameHashCodeAs(c);
        assertThat(a.compareTo(b)).isZero();
        assertThat(b.name()).isEqualTo("0000-8000"); // keeps the name it was written with
        assertThat(KeyRange.parse("80-c0")).isEqualTo(KeyRange.parse("8000-C000"));
        assertThat(KeyRange.parse("0")).isEqualTo(KeyRange.parse("-")).isEqualTo(KeyRange.full())
                .isEqualTo(KeyRange.parse("00-"));
        assertThat(KeyRange.parse("-80")).isNotEqualTo(KeyRange.parse("-81")).isNotEqualTo(KeyRange.parse("80-"));
    }

    @Test
    void fullRange() {
        assertThat(KeyRange.full().isFullRange()).isTrue();
        assertThat(KeyRange.parse("0").isFullRange()).isTrue();
        assertThat(KeyRange.parse("00-").isFullRange()).isTrue();
        assertThat(KeyRange.parse("-80").isFullRange()).isFalse();
        assertThat(KeyRange.parse("80-").isFullRange()).isFalse();
        assertThat(KeyRange.full().name()).isEqualTo("-");
    }

    @ParameterizedTest
    @CsvSource({
            "-80, 80-, false, ''",
            "-80, 40-, true, 40-80",
            "-80, 40-c0, true, 40-80",
            "40-c0, -80, true, 40-80",
            "-80, -40, true, -40",
            "-, 40-80, true, 40-80",
            "40-80, -, true, 40-80",
            "-, -, true, -",
            "80-, c0-, true, c0-",
            "-40, 80-, false, ''",
            "-4000, 40-80, false, ''",
            "-4001, 40-80, true, 40-4001",
    })
    void intersectsAndIntersection(String a, String b, boolean intersects, String intersection) {
        KeyRange x = KeyRange.parse(a);
        KeyRange y = KeyRange.parse(b);
        assertThat(x.intersects(y)).isEqualTo(intersects);
        assertThat(y.intersects(x)).isEqualTo(intersects);
        assertThat(x.intersection(y).map(KeyRange::name).orElse("")).isEqualTo(intersection);
        assertThat(y.intersection(x)).isEqualTo(x.intersection(y));
    }

    @ParameterizedTest
    @CsvSource({
            "-, 40-80, true",
            "-80, 40-80, true",
            "-80, -80, true",
            "-80, -8000, true",
            "-80, 40-c0, false",
            "40-80, -80, false",
            "80-, c0-, true",
            "c0-, 80-, false",
    })
    void includes(String big, String small, boolean included) {
        assertThat(KeyRange.parse(big).includes(KeyRange.parse(small))).isEqualTo(included);
    }

    @Test
    void ordersByStartThenEnd() {
        List<KeyRange> ranges = new ArrayList<>(KeyRanges.parseList("c0-,80-c0,-,40-80,-40,-80,0000-4000"));
        List<String> sorted = ranges.stream().sorted().map(KeyRange::name).collect(Collectors.toList());
        assertThat(sorted).containsExactly("-40", "0000-4000", "-80", "-", "40-80", "80-c0", "c0-");
    }

    @Test
    void ofBuildsFromBytesAndCopiesThem() {
        byte[] start = {0x40};
        byte[] end = {(byte) 0x80};
        KeyRange range = KeyRange.of(start, end);
        start[0] = 0;
        assertThat(range.name()).isEqualTo("40-80");
        range.start()[0] = 0;
        assertThat(range.name()).isEqualTo("40-80");
        assertThat(KeyRange.of(new byte[0], new byte[0])).isSameAs(KeyRange.full());
        assertThatThrownBy(() -> KeyRange.of(new byte[] {(byte) 0x80}, new byte[] {0x40}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("\"80-40\"");
    }

    @Test
    void toStringIsTheName() {
        assertThat(KeyRange.parse("80-C0")).hasToString("80-c0");
    }
}
