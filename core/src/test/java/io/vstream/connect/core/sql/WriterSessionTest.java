package io.vstream.connect.core.sql;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class WriterSessionTest {
    @Test
    void theRelaxedModeIsTheWriterModeWithoutStrictness() {
        assertThat(WriterSession.SQL_MODE).contains("STRICT_ALL_TABLES");
        assertThat(WriterSession.RELAXED_SQL_MODE).doesNotContain("STRICT");
        assertThat(WriterSession.SQL_MODE.replace("STRICT_TRANS_TABLES,STRICT_ALL_TABLES,", ""))
                .isEqualTo(WriterSession.RELAXED_SQL_MODE);
    }

    @Test
    void oneStatementRunsWithoutStrictModeOnEitherServer() {
        String insert = "INSERT INTO `d`.`t` (`id`, `e`) VALUES (?, ?)";
        assertThat(WriterSession.withoutStrictMode(insert, true)).isEqualTo("SET STATEMENT sql_mode = '"
                + WriterSession.RELAXED_SQL_MODE + "' FOR " + insert);
        assertThat(WriterSession.withoutStrictMode(insert, false)).isEqualTo("INSERT /*+ SET_VAR(sql_mode = '"
                + WriterSession.RELAXED_SQL_MODE + "') */ INTO `d`.`t` (`id`, `e`) VALUES (?, ?)");
    }
}
