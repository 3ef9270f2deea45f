package io.vstream.connect.core.position;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** ShardGtid and Vgtid: the start-from-now marker, copy state helpers and lookup/replace by shard. */
class VgtidTest {

    private static final GtidPosition P42 = GtidPosition.parse("MariaDB/0-1-42");
    private static final GtidPosition P43 = GtidPosition.parse("MariaDB/0-1-43");

    @Test
    void currentHasNoGtidYet() {
        ShardGtid current = ShardGtid.current("ks", "-80");
        assertThat(current.isCurrent()).isTrue();
        assertThat(current.gtidText()).isEqualTo("current");
        assertThat(current.isCopying()).isFalse();
        assertThatThrownBy(current::gtid)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("Shard ks/-80 starts from the current position");
        ShardGtid known = current.withGtid(P42);
        assertThat(known.isCurrent()).isFalse();
        assertThat(known.gtid()).isEqualTo(P42);
        assertThat(known).isEqualTo(ShardGtid.of("ks", "-80", P42)).isNotEqualTo(current);
    }

    @Test
    void copyStateHelpers() {
        ShardGtid sg = ShardGtid.of("ks", "-80", P42);
        assertThat(sg.isCopying()).isFalse();

        ShardGtid copying = sg.withTablePk(TableLastPk.notStarted("a")).withTablePk(TableLastPk.notStarted("b"));
        assertThat(copying.isCopying()).isTrue();
        assertThat(copying.tablePks()).extracting(TableLastPk::table).containsExactly("a", "b");
        assertThat(copying.tablePks().get(0).isStarted()).isFalse();

        ShardGtid progressed = copying.withTablePk(new TableLastPk("a", LastPk.of("id", 100L))).withGtid(P43);
        assertThat(progressed.tablePks()).extracting(TableLastPk::table).as("replaced in place").containsExactly("a", "b");
        assertThat(progressed.tablePks().get(0).lastPk()).isEqualTo(LastPk.of("id", 100L));
        assertThat(progressed.tablePks().get(0).isStarted()).isTrue();
        assertThat(progressed.gtid()).isEqualTo(P43);

        ShardGtid done = progressed.withoutTablePk("a").withoutTablePk("b");
        assertThat(done.isCopying()).isFalse();
        assertThat(done).isEqualTo(ShardGtid.of("ks", "-80", P43));
        assertThat(done.withoutTablePk("zzz")).isSameAs(done);
        assertThat(done.withTablePks(List.of(TableLastPk.notStarted("c"))).isCopying()).isTrue();
        assertThat(copying).as("the original is unchanged").isNotEqualTo(progressed);
        assertThat(sg.isCopying()).isFalse();
    }

    @Test
    void refusesDuplicateTablesAndBlankNames() {
        assertThatThrownBy(() -> ShardGtid.of("ks", "0", P42,
                List.of(TableLastPk.notStarted("t"), TableLastPk.notStarted("t"))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Table 't' appears twice in the copy state of ks/0");
        assertThatThrownBy(() -> ShardGtid.of("", "0", P42)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("keyspace");
        assertThatThrownBy(() -> TableLastPk.notStarted(" ")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void toStringShowsPositionAndCopyStateWithoutValues() {
        ShardGtid sg = ShardGtid.of("ks", "-80", P42, List.of(new TableLastPk("t", LastPk.of("email", "a@b.c"))));
        assertThat(sg.toString()).contains("ks/-80 @ MariaDB/0-1-42", "copying", "email=String").doesNotContain("a@b.c");
    }

    @Test
    void vgtidLookupAndReplaceByShard() {
        ShardGtid a = ShardGtid.of("ks", "-80", P42);
        ShardGtid b = ShardGtid.current("ks", "80-");
        Vgtid vgtid = Vgtid.of(a, b);
        assertThat(vgtid.shard("ks", "80-")).contains(b);
        assertThat(vgtid.shard("other", "80-")).isEmpty();
        assertThat(vgtid.isCopying()).isFalse();

        Vgtid replaced = vgtid.with(a.withGtid(P43));
        assertThat(replaced.shardGtids()).extracting(ShardGtid::shard).containsExactly("-80", "80-");
        assertThat(replaced.shard("ks", "-80").orElseThrow().gtid()).isEqualTo(P43);
        assertThat(vgtid.shard("ks", "-80").orElseThrow().gtid()).as("the original is unchanged").isEqualTo(P42);

        Vgtid appended = replaced.with(ShardGtid.current("other", "0", List.of(TableLastPk.notStarted("t"))));
        assertThat(appended.shardGtids()).extracting(ShardGtid::keyspace).containsExactly("ks", "ks", "other");
        assertThat(appended.isCopying()).isTrue();
        assertThat(appended.without("ks", "80-").shardGtids()).extracting(ShardGtid::shard).containsExactly("-80", "0");
    }

    @Test
    void vgtidRefusesDuplicateShards() {
        assertThatThrownBy(() -> Vgtid.of(ShardGtid.of("ks", "0", P42), ShardGtid.current("ks", "0")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Shard ks/0 appears twice in a VGTID");
    }
}
