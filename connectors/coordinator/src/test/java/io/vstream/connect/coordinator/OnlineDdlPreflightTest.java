package io.vstream.connect.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class OnlineDdlPreflightTest {
    @Test
    void theEngineTheAlterNamesIsFound() {
        assertThat(OnlineDdlPreflight.namedEngine("ADD COLUMN x INT, ENGINE=MyISAM")).contains("MyISAM");
        assertThat(OnlineDdlPreflight.namedEngine("engine = `Aria`")).contains("Aria");
        assertThat(OnlineDdlPreflight.namedEngine("ENGINE InnoDB")).contains("InnoDB");
    }

    @Test
    void aColumnNamedLikeTheClauseIsNotAnEngine() {
        assertThat(OnlineDdlPreflight.namedEngine("ADD COLUMN my_engine INT")).isEmpty();
        assertThat(OnlineDdlPreflight.namedEngine("ADD COLUMN x INT")).isEmpty();
    }
}
