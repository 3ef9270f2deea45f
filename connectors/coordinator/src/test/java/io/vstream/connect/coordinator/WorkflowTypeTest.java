package io.vstream.connect.coordinator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The one reading of the {@code workflow} value ({@link WorkflowType#named}), as the config's parser and validator
 * take it.
 */
class WorkflowTypeTest {
    @Test
    void aValueNamesItsTypeInAnyCaseWithBlanksAroundIt() {
        assertThat(WorkflowType.named("online-ddl")).contains(WorkflowType.ONLINE_DDL);
        assertThat(WorkflowType.named(" Online-DDL\t")).contains(WorkflowType.ONLINE_DDL);
        assertThat(WorkflowType.named("CLONE")).contains(WorkflowType.CLONE);
        assertThat(WorkflowType.of(" reshard")).isEqualTo(WorkflowType.RESHARD);
    }

    @Test
    void aValueThatNamesNoTypeIsEmptyOrRefused() {
        assertThat(WorkflowType.named("online ddl")).isEmpty();
        assertThat(WorkflowType.named("")).isEmpty();
        assertThat(WorkflowType.named(null)).isEqualTo(Optional.empty());
        assertThatThrownBy(() -> WorkflowType.of("split")).hasMessage("unknown workflow type 'split' (clone,"
                + " online-ddl, reshard)");
    }

    @Test
    void theConfigAcceptsExactlyTheLabels() {
        assertThat(WorkflowType.labels()).containsExactly("clone", "online-ddl", "reshard");
    }
}
