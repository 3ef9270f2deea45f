package io.vstream.connect.local.compare;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ComparisonResultTest {

    @Test
    void toStringIsBoundedAndCountsAll() {
        List<RowDifference> many = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            many.add(RowDifference.different(Map.of("id", Integer.toString(i)), List.of(
                    new RowDifference.ColumnDifference("v", "x".repeat(1000), null))));
        }
        ComparisonResult result = new ComparisonResult("a vs b", 1000, 2, 1, 700, many, "");

        assertThat(result.isEqual()).isFalse();
        assertThat(result.toString()).hasSizeLessThan(4300).contains("and 680 more").contains("'xxxx");
        assertThat(result.toString()).contains("-> NULL");
    }

    @Test
    void equalResultSaysSo() {
        ComparisonResult result = new ComparisonResult("a vs b", 10, 1, 0, 0, List.of(), "2 keys skipped");
        assertThat(result.isEqual()).isTrue();
        assertThat(result).hasToString("EQUAL: a vs b: 10 source rows in 1 chunk(s) (2 keys skipped)");
    }
}
