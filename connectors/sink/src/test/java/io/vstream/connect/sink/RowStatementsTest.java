package io.vstream.connect.sink;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.junit.jupiter.api.Test;

/** The text of the writer's statements: upserts, inserts, deletes by key and a copy chunk's key range. */
class RowStatementsTest {
    private static final Schema ROW = SchemaBuilder.struct().field("id", Schema.INT64_SCHEMA)
            .field("name", Schema.OPTIONAL_STRING_SCHEMA).field("total", Schema.OPTIONAL_INT64_SCHEMA).build();
    private static final TargetTable ORDERS = new TargetTable("shop", "orders", List.of("id"), Set.of(),
            Set.of("total"), OriginalNames.NONE);

    private static Struct row() {
        return new Struct(ROW).put("id", 1L).put("name", "a").put("total", 3L);
    }

    @Test
    void anUpsertWritesEveryWrittenColumnAndUpdatesTheNonKeyOnes() {
        RowStatements.Insert upsert = RowStatements.upsert(ORDERS, row());
        assertThat(upsert.singleRow()).isEqualTo("INSERT INTO `shop`.`orders` (`id`, `name`) VALUES (?, ?)"
                + " ON DUPLICATE KEY UPDATE `name` = VALUES(`name`)");
        assertThat(upsert.sql(2)).isEqualTo("INSERT INTO `shop`.`orders` (`id`, `name`) VALUES (?, ?), (?, ?)"
                + " ON DUPLICATE KEY UPDATE `name` = VALUES(`name`)");
        assertThat(upsert.placeholders()).isEqualTo(2);
        TargetTable keysOnly = new TargetTable("shop", "tags", List.of("id", "name"), Set.of(), Set.of("total"),
                OriginalNames.NONE);
        assertThat(RowStatements.upsert(keysOnly, row()).singleRow()).as("nothing to update")
                .isEqualTo("INSERT IGNORE INTO `shop`.`tags` (`id`, `name`) VALUES (?, ?)");
    }

    @Test
    void anInsertAndADeleteByKey() {
        assertThat(RowStatements.insert(ORDERS, row()).sql(1))
                .isEqualTo("INSERT INTO `shop`.`orders` (`id`, `name`) VALUES (?, ?)");
        assertThat(RowStatements.deleteByKey(ORDERS)).isEqualTo("DELETE FROM `shop`.`orders` WHERE `id` = ?");
    }

    @Test
    void aKeyRangeIsOpenBelowAndClosedAbove() {
        RowStatements.Range all = RowStatements.range(ORDERS, List.of("id"), null, null);
        assertThat(RowStatements.deleteRange(ORDERS, all)).isEqualTo("DELETE FROM `shop`.`orders`");
        RowStatements.Range chunk = RowStatements.range(ORDERS, List.of("id"), List.of(10L), List.of(20L));
        assertThat(RowStatements.deleteRange(ORDERS, chunk))
                .isEqualTo("DELETE FROM `shop`.`orders` WHERE ((`id` > ?)) AND ((`id` < ?) OR (`id` = ?))");
        assertThat(chunk.args()).containsExactly(10L, 20L, 20L);
        assertThat(RowStatements.selectOwners(ORDERS, chunk, "name")).startsWith("SELECT `id`, `name` FROM")
                .endsWith(" FOR UPDATE");
    }
}
