package io.vstream.connect.coordinator.ddl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vstream.connect.core.mapping.ColumnMapping;
import io.vstream.connect.jdbc.MigrationPlans;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The plan's JSON form and its comparison across shards. */
class AlterPlanTest {

    static AlterPlan plan() {
        Map<String, String> shared = new LinkedHashMap<>();
        shared.put("id", "id");
        shared.put("amount", "amount");
        shared.put("v", "v2");
        shared.put("my `odd` \"col\"", "my `odd` \"col\"");
        return new AlterPlan("shop", "orders", "_orders_gho",
                "MODIFY amount DECIMAL(14,2), CHANGE COLUMN v v2 VARCHAR(80), DROP COLUMN note, ADD COLUMN x INT",
                new ColumnMapping(shared, List.of("note"), List.of("x")), List.of("id"), List.of(),
                List.of("Column `v` is renamed to `v2`."), "CREATE TABLE `orders` (\n  `id` int(11) NOT NULL\n)",
                "CREATE TABLE `_orders_gho` (\n  `id` int(11) NOT NULL\n)");
    }

    @Test
    void roundTripsThroughJson() {
        AlterPlan p = plan();
        String json = p.toJson();
        AlterPlan back = AlterPlan.fromJson(json);
        assertThat(back).isEqualTo(p);
        assertThat(back.mapping().renamed()).containsExactly(Map.entry("v", "v2"));
        assertThat(back.mapping().shared().keySet()).containsExactly("id", "amount", "v", "my `odd` \"col\"");
        assertThat(back.toJson()).isEqualTo(json);
        assertThat(json).contains("\"mapping\":{\"map\":[[\"id\",\"id\"]");
    }

    @Test
    void newUniqueKeysRoundTripAndAreReported() {
        AlterPlan p = new AlterPlan("shop", "orders", "_orders_gho", "ADD UNIQUE KEY u (email)",
                ColumnMapping.identity(List.of("id", "email")), List.of("id"), List.of("UNIQUE KEY `u` (`email`)"),
                List.of(), "a", "b");
        assertThat(p.addsUniqueKey()).isTrue();
        assertThat(plan().addsUniqueKey()).isFalse();
        assertThat(AlterPlan.fromJson(p.toJson())).isEqualTo(p);
        assertThat(p.writesByDelete()).isTrue();
        assertThat(plan().writesByDelete()).isFalse();
    }

    @Test
    void aGrowingKeyRoundTripsWritesByDeleteAndMustBeTheSameOnEveryShard() {
        AlterPlan p = new AlterPlan("shop", "orders", "_orders_gho", "DROP PRIMARY KEY, ADD PRIMARY KEY (id, k)",
                ColumnMapping.identity(List.of("id", "k")), List.of("id"), List.of(), List.of(), "a", "b", true);
        assertThat(p.writesByDelete()).isTrue();
        assertThat(p.toMigrationPlan("m").newUniqueKey()).as("the applier deletes, then inserts").isTrue();
        assertThat(AlterPlan.fromJson(p.toJson())).isEqualTo(p);
        AlterPlan notGrowing = new AlterPlan("shop", "orders", "_orders_gho", p.alter(), p.mapping(), p.sharedKey(),
                List.of(), List.of(), "a", "b");
        assertThat(p.difference(notGrowing)).hasValueSatisfying(d -> assertThat(d).contains("key grows"));
    }

    @Test
    void theApplierReadsItsPartOfThePlan() {
        MigrationPlans.Plan m = plan().toMigrationPlan("orders-ddl");
        assertThat(m).isEqualTo(new MigrationPlans.Plan("orders-ddl", "shop", "orders", "_orders_gho",
                plan().mapping(), List.of("id"), false));
    }

    @Test
    void sharedKeyBySourceNames() {
        AlterPlan p = new AlterPlan("shop", "orders", "_orders_gho", "CHANGE a b INT",
                new ColumnMapping(Map.of("a", "b", "c", "c"), List.of(), List.of()), List.of("b", "c"), List.of(),
                List.of(), "a", "b");
        assertThat(p.sharedKeySource()).containsExactly("a", "c");
    }

    @Test
    void malformedJsonNamesWhatIsWrong() {
        assertThatThrownBy(() -> AlterPlan.fromJson("nope")).hasMessageContaining("not JSON");
        assertThatThrownBy(() -> AlterPlan.fromJson("[]")).hasMessageContaining("not a JSON object");
        assertThatThrownBy(() -> AlterPlan.fromJson("{\"version\":2}")).hasMessageContaining("version 2");
        String json = plan().toJson();
        assertThatThrownBy(() -> AlterPlan.fromJson(json.replace("\"ghost\":", "\"ghosts\":")))
                .hasMessageContaining("'ghost'");
        assertThatThrownBy(() -> AlterPlan.fromJson(json.replace("\"sharedKey\":[\"id\"]", "\"sharedKey\":\"id\"")))
                .hasMessageContaining("'sharedKey' array");
        assertThatThrownBy(() -> AlterPlan.fromJson(json.replace("\"sharedKey\":[\"id\"]", "\"sharedKey\":[]")))
                .hasMessageContaining("shared unique key");
        assertThatThrownBy(() -> AlterPlan.fromJson(json.replace("\"mapping\":", "\"mappings\":")))
                .hasMessageContaining("'mapping'");
    }

    @Test
    void shardsAgreeOrTheDifferenceIsNamed() {
        AlterPlan a = plan();
        AlterPlan sameOnAnotherShard = new AlterPlan(a.database(), a.table(), a.ghost(), a.alter(), a.mapping(),
                a.sharedKey(), a.newUniqueKeys(), a.notes(), "CREATE TABLE ... AUTO_INCREMENT=99", a.ghostCreate());
        assertThat(a.difference(sameOnAnotherShard)).isEmpty();
        AlterPlan other = new AlterPlan(a.database(), a.table(), a.ghost(), a.alter(),
                ColumnMapping.identity(List.of("id")), a.sharedKey(), a.newUniqueKeys(), a.notes(),
                a.originalCreate(), a.ghostCreate());
        assertThat(a.difference(other)).get().asString().startsWith("column mapping");
    }
}
