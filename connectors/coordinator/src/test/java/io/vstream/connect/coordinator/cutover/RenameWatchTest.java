package io.vstream.connect.coordinator.cutover;

import static org.assertj.core.api.Assertions.assertThat;

import io.vstream.connect.coordinator.cutover.RenameWatch.Sight;
import org.junit.jupiter.api.Test;

/** How step 5 tells where the RENAME waits, by what the server shows and the order of the names it locks. */
class RenameWatchTest {

    @Test
    void theInstrumentNamesThePendingLockWheneverItIsOn() {
        assertThat(RenameWatch.sight(true, true, true)).isEqualTo(Sight.INSTRUMENTED);
        assertThat(RenameWatch.sight(true, false, false)).isEqualTo(Sight.INSTRUMENTED);
    }

    @Test
    void aGhostSortingAfterTheTableCannotHoldTheRenameBack() {
        assertThat(RenameWatch.sight(false, false, true)).isEqualTo(Sight.NAME_ORDER);
        assertThat(RenameWatch.sight(false, false, false)).isEqualTo(Sight.NAME_ORDER);
    }

    @Test
    void aGhostSortingFirstMustBeSeenHeldOnMariaDbAndCannotBeSeenOnMySqlWithoutTheInstrument() {
        assertThat(RenameWatch.sight(false, true, true)).isEqualTo(Sight.GHOST_HELD_PROBE);
        assertThat(RenameWatch.sight(false, true, false)).isEqualTo(Sight.BLIND);
    }

    @Test
    void ghostStyleNamesSortBeforeLowerCaseTablesOnly() {
        assertThat(CutOverTables.lockOrder("_orders_gho", "orders", false)).isNegative();
        assertThat(CutOverTables.lockOrder("_Orders_gho", "Orders", false)).isPositive();
        assertThat(CutOverTables.lockOrder("_Orders_gho", "Orders", true)).isNegative();
    }
}
