package io.vstream.connect.testsupport.db;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class DatabaseNamesTest {

    @Test
    void sanitizesTestMethodNames() {
        assertThat(DatabaseNames.sanitize("copiesAllRows()")).isEqualTo("copies_all_rows");
        assertThat(DatabaseNames.sanitize("[1] shard=-80")).isEqualTo("db_1_shard_80");
        assertThat(DatabaseNames.sanitize("")).isEqualTo("db");
        assertThat(DatabaseNames.sanitize(null)).isEqualTo("db");
        assertThat(DatabaseNames.sanitize("x".repeat(100))).hasSize(48);
    }

    @Test
    void namesAreUniqueAndValid() {
        String a = DatabaseNames.next("same");
        String b = DatabaseNames.next("same");
        assertThat(a).isNotEqualTo(b).matches("same_[0-9]+");
        assertThat(DatabaseNames.next("ü`; DROP DATABASE x; --".repeat(5))).matches("[a-z0-9_]{1,64}");
    }
}
