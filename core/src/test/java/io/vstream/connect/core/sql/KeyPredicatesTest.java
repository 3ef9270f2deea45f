package io.vstream.connect.core.sql;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class KeyPredicatesTest {
    private static final List<String> KEY = List.of("a", "b");

    @Test
    void afterAndAtOrBeforeExpandACompositeKeyWithTheirValuesInBindingOrder() {
        assertThat(KeyPredicates.after(KEY)).isEqualTo("((`a` > ?) OR (`a` = ? AND `b` > ?))");
        assertThat(KeyPredicates.afterArgs(List.of(1, 2))).containsExactly(1, 1, 2);
        assertThat(KeyPredicates.atOrBefore(KEY))
                .isEqualTo("((`a` < ?) OR (`a` = ? AND `b` < ?) OR (`a` = ? AND `b` = ?))");
        assertThat(KeyPredicates.atOrBeforeArgs(List.of(1, 2))).containsExactly(1, 1, 2, 1, 2);
    }

    @Test
    void aRangeHasASidePerBoundAndNoneForTheWholeTable() {
        assertThat(KeyPredicates.range(KEY, false, false)).isEmpty();
        assertThat(KeyPredicates.rangeArgs(null, null)).isEmpty();
        assertThat(KeyPredicates.range(KEY, true, false)).isEqualTo(" WHERE " + KeyPredicates.after(KEY));
        assertThat(KeyPredicates.rangeArgs(List.of(1, 2), null)).containsExactly(1, 1, 2);
        assertThat(KeyPredicates.range(KEY, false, true)).isEqualTo(" WHERE " + KeyPredicates.atOrBefore(KEY));
        assertThat(KeyPredicates.rangeArgs(null, List.of(3, 4))).containsExactly(3, 3, 4, 3, 4);
        assertThat(KeyPredicates.range(KEY, true, true))
                .isEqualTo(" WHERE " + KeyPredicates.after(KEY) + " AND " + KeyPredicates.atOrBefore(KEY));
        assertThat(KeyPredicates.rangeArgs(List.of(1, 2), List.of(3, 4))).containsExactly(1, 1, 2, 3, 3, 4, 3, 4);
    }
}
