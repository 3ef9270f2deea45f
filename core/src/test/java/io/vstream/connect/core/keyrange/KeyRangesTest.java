package io.vstream.connect.core.keyrange;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class KeyRangesTest {

    private static List<String> coverage(String names) {
        return KeyRanges.fullCoverageProblems(KeyRanges.parseList(names));
    }

    @ParameterizedTest
    @ValueSource(strings = {"-", "0", "-80,80-", "80-,-80", "-40,40-80,80-c0,c0-", "-4000,4000-80,80-",
            "-0080,0080-ff80,ff80-", "0000-80,8000-"})
    void acceptsSetsThatTileTheKeySpace(String names) {
        assertThat(coverage(names)).isEmpty();
    }

    @Test
    void reportsAGapNamingBothRanges() {
        assertThat(coverage("-40,80-")).containsExactly("gap between -40 and 80-: no range covers 40-80");
    }

    @Test
    void reportsAnOverlapNamingBothRanges() {
        assertThat(coverage("-80,40-")).containsExactly("overlap between -80 and 40-: both cover 40-80");
        assertThat(coverage("-,40-80")).containsExactly("overlap between - and 40-80: both cover 40-80");
    }

    @Test
    void reportsOverlapWithARangeThatReachesFurther() {
        // -c0 reaches past 40-80, so 80- overlaps -c0 even though it only touches 40-80
        assertThat(coverage("-c0,40-80,80-")).containsExactly(
                "overlap between -c0 and 40-80: both cover 40-80",
                "overlap between -c0 and 80-: both cover 80-c0");
    }

    @Test
    void reportsDuplicates() {
        assertThat(coverage("-80,-80,80-")).containsExactly("duplicate range -80");
        assertThat(coverage("-80,00-8000,80-")).containsExactly("duplicate range -80 (also listed as 00-8000)");
    }

    @Test
    void reportsMissingStartAndEnd() {
        assertThat(coverage("40-80")).containsExactly(
                "missing start: no range covers keyspace ids below 40 (the first range is 40-80)",
                "missing end: no range covers keyspace ids from 80 upward (the last range is 40-80)");
    }

    @Test
    void reportsEveryProblemAtOnce() {
        assertThat(coverage("10-40,30-60,70-90")).containsExactly(
                "missing start: no range covers keyspace ids below 10 (the first range is 10-40)",
                "overlap between 10-40 and 30-60: both cover 30-40",
                "gap between 30-60 and 70-90: no range covers 60-70",
                "missing end: no range covers keyspace ids from 90 upward (the last range is 70-90)");
    }

    @Test
    void reportsAnEmptySet() {
        assertThat(KeyRanges.fullCoverageProblems(List.of())).singleElement().asString().contains("no key ranges");
    }

    @Test
    void sameSpaceAcceptsAReshardThatCoversTheSameKeys() {
        assertThat(sameSpace("-80", "-40,40-80")).isEmpty();
        assertThat(sameSpace("-", "-80,80-")).isEmpty();
        assertThat(sameSpace("-80,80-", "-40,40-c0,c0-")).isEmpty();
        assertThat(sameSpace("40-80", "4000-6000,60-8000")).isEmpty();
        assertThat(sameSpace("0", "-")).isEmpty();
    }

    @Test
    void sameSpaceNamesWhatOnlyTheSourceCovers() {
        assertThat(sameSpace("-80", "-40")).containsExactly(
                "key range 40-80 is covered by the source shards (-80) but not by the target shards");
    }

    @Test
    void sameSpaceNamesWhatOnlyTheTargetCovers() {
        assertThat(sameSpace("40-80", "-60,60-c0")).containsExactly(
                "key range -40 is covered by the target shards (-60) but not by the source shards",
                "key range 80-c0 is covered by the target shards (60-c0) but not by the source shards");
    }

    @Test
    void sameSpaceMergesAdjacentDifferences() {
        assertThat(sameSpace("-", "-20,20-40")).containsExactly(
                "key range 40- is covered by the source shards (-) but not by the target shards");
        assertThat(sameSpace("-20,20-40,40-60", "-")).containsExactly(
                "key range 60- is covered by the target shards (-) but not by the source shards");
    }

    @Test
    void parseListRejectsBlankAndNamesTheBadEntry() {
        assertThatThrownBy(() -> KeyRanges.parseList(" ")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> KeyRanges.parseList("-80,8g-")).hasMessageContaining("\"8g-\"");
        assertThatThrownBy(() -> KeyRanges.parseList("-80,,80-")).hasMessageContaining("\"\"");
        assertThat(KeyRanges.parseList(" -80 , 80- ")).extracting(KeyRange::name).containsExactly("-80", "80-");
    }

    private static List<String> sameSpace(String source, String target) {
        return KeyRanges.sameSpaceProblems("source shards", KeyRanges.parseList(source), "target shards",
                KeyRanges.parseList(target));
    }
}
