package io.vstream.connect.core.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SqlTagTest {

    @Test
    void prefixesTheStatementWithTheRoleComment() {
        assertThat(SqlTag.tag("copy", "SELECT 1")).isEqualTo("/* vstream-connect:copy */ SELECT 1");
        assertThat(SqlTag.comment("cutover.rename")).isEqualTo("/* vstream-connect:cutover.rename */");
        assertThat(SqlTag.tag(" apply:shard-80 ", "COMMIT")).isEqualTo("/* vstream-connect:apply:shard-80 */ COMMIT");
    }

    @ParameterizedTest
    @ValueSource(strings = {"x */ DROP TABLE t; /*", "*/", "a/*b", "role\nnext", "r\u0000", "émoji😀", "`'\""})
    void roleTextCannotCloseOrOpenTheComment(String role) {
        String tagged = SqlTag.tag(role, "SELECT 1");
        String comment = tagged.substring(0, tagged.length() - " SELECT 1".length());
        assertThat(comment).startsWith("/* vstream-connect:").endsWith(" */");
        String inside = comment.substring(3, comment.length() - 3);
        assertThat(inside).doesNotContain("*/", "/*", "\n", "\0").matches("[A-Za-z0-9_.:-]+");
        assertThat(tagged.indexOf("*/")).isEqualTo(comment.length() - 2); // the only comment end is ours
    }

    @Test
    void capsTheRoleLength() {
        assertThat(SqlTag.sanitize("r".repeat(500))).hasSize(64);
    }

    @Test
    void rejectsBlankRoleAndNullSql() {
        assertThatThrownBy(() -> SqlTag.tag(" ", "SELECT 1")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("blank");
        assertThatThrownBy(() -> SqlTag.tag(null, "SELECT 1")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SqlTag.tag("copy", null)).isInstanceOf(NullPointerException.class);
    }
}
