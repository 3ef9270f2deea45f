package io.vstream.connect.coordinator.ddl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vstream.connect.coordinator.ddl.AlterRefusedException.Reason;
import io.vstream.connect.coordinator.ddl.AlterStatement.Rename;
import io.vstream.connect.coordinator.ddl.TableShape.Column;
import io.vstream.connect.coordinator.ddl.TableShape.KeyPart;
import io.vstream.connect.coordinator.ddl.TableShape.UniqueKey;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The comparison of a table with its ghost, on hand-built shapes (no server). */
class ShapeDiffTest {
    private static final String T = "`shop`.`orders`";

    private static Column col(String name, String type) {
        return new Column(name, type, null, false, true, false, false);
    }

    private static Column nullable(String name, String type) {
        return new Column(name, type, null, true, true, false, false);
    }

    private static Column noDefault(String name, String type) {
        return new Column(name, type, null, false, false, false, false);
    }

    private static Column generated(String name, String type) {
        return new Column(name, type, null, true, true, false, true);
    }

    private static UniqueKey key(String name, String... columns) {
        return new UniqueKey(name, Arrays.stream(columns).map(c -> new KeyPart(c, null)).toList());
    }

    private static TableShape shape(List<Column> columns, UniqueKey... keys) {
        return new TableShape(columns, List.of(keys));
    }

    private static ShapeDiff compare(TableShape o, TableShape g, List<Rename> renames) throws AlterRefusedException {
        return ShapeDiff.compare(T, o, g, renames, false, true);
    }

    private static AlterRefusedException refusal(TableShape o, TableShape g, List<Rename> renames, boolean allowNew,
                                                 boolean rows) {
        try {
            ShapeDiff.compare(T, o, g, renames, allowNew, rows);
        } catch (AlterRefusedException e) {
            return e;
        }
        throw new AssertionError("not refused");
    }

    private static final TableShape ORDERS = shape(List.of(col("id", "bigint(20)"), col("k", "int(11)"),
            nullable("amount", "decimal(10,2)"), nullable("v", "varchar(40)"), nullable("note", "text")),
            key("PRIMARY", "id"));

    @Test
    void namesTheColumnsThatChangeBetweenTimestampAndDatetime() throws Exception {
        TableShape original = shape(List.of(col("id", "bigint(20)"), nullable("at", "timestamp"),
                nullable("made", "datetime(6)"), nullable("seen", "timestamp(3)")), key("PRIMARY", "id"));
        TableShape ghost = shape(List.of(col("id", "bigint(20)"), nullable("at", "datetime"),
                nullable("made", "timestamp(6)"), nullable("seen", "timestamp(6)")), key("PRIMARY", "id"));
        ShapeDiff d = compare(original, ghost, List.of());
        assertThat(ShapeDiff.zoneConverted(original, ghost, d.mapping())).containsExactly(
                "`at` timestamp -> `at` datetime", "`made` datetime(6) -> `made` timestamp(6)");
        assertThat(ShapeDiff.zoneConverted(ORDERS, ORDERS, compare(ORDERS, ORDERS, List.of()).mapping())).isEmpty();
    }

    @Test
    void typeChangeRenameDropAndAdd() throws Exception {
        TableShape ghost = shape(List.of(col("id", "bigint(20)"), col("k", "int(11)"),
                nullable("amount", "decimal(14,2)"), nullable("v2", "varchar(80)"), nullable("created", "datetime")),
                key("PRIMARY", "id"));
        ShapeDiff d = compare(ORDERS, ghost, List.of(new Rename("v", "v2", "CHANGE COLUMN")));
        assertThat(d.mapping().shared()).containsExactly(Map.entry("id", "id"), Map.entry("k", "k"),
                Map.entry("amount", "amount"), Map.entry("v", "v2"));
        assertThat(d.mapping().renamed()).containsExactly(Map.entry("v", "v2"));
        assertThat(d.mapping().dropped()).containsExactly("note");
        assertThat(d.mapping().added()).containsExactly("created");
        assertThat(d.sharedKey()).containsExactly("id");
        assertThat(d.newUniqueKeys()).isEmpty();
        assertThat(d.notes()).anyMatch(n -> n.contains("`v` is renamed to `v2`"));
    }

    @Test
    void namesMatchIgnoringCaseAndTakeTheGhostsSpelling() throws Exception {
        TableShape ghost = shape(List.of(col("ID", "bigint(20)"), col("k", "int(11)"),
                nullable("Amount", "decimal(10,2)"), nullable("v", "varchar(40)"), nullable("note", "text")),
                key("PRIMARY", "ID"));
        ShapeDiff d = compare(ORDERS, ghost, List.of());
        assertThat(d.mapping().shared()).containsEntry("id", "ID").containsEntry("amount", "Amount");
        assertThat(d.sharedKey()).containsExactly("ID");
    }

    @Test
    void dropAndAddOfTheSameTypeIsSaidToBeNoRename() throws Exception {
        TableShape ghost = shape(List.of(col("id", "bigint(20)"), col("k", "int(11)"),
                nullable("amount", "decimal(10,2)"), nullable("v", "varchar(40)"), nullable("memo", "text")),
                key("PRIMARY", "id"));
        ShapeDiff d = compare(ORDERS, ghost, List.of());
        assertThat(d.mapping().dropped()).containsExactly("note");
        assertThat(d.mapping().added()).containsExactly("memo");
        assertThat(d.notes()).anyMatch(n -> n.contains("`note` is dropped and `memo` added")
                && n.contains("treated as a drop and an add"));
    }

    @Test
    void renameIntoTheKeyKeepsTheKeyShared() throws Exception {
        TableShape ghost = shape(List.of(col("order_id", "bigint(20)"), col("k", "int(11)"),
                nullable("amount", "decimal(10,2)"), nullable("v", "varchar(40)"), nullable("note", "text")),
                key("PRIMARY", "order_id"));
        ShapeDiff d = compare(ORDERS, ghost, List.of(new Rename("id", "order_id", "RENAME COLUMN")));
        assertThat(d.sharedKey()).containsExactly("order_id");
        assertThat(d.newUniqueKeys()).isEmpty();
    }

    @Test
    void unconfirmedRenamesAreRefused() {
        TableShape swapped = shape(List.of(col("id", "bigint(20)"), col("k", "int(11)"),
                nullable("amount", "decimal(10,2)"), nullable("v", "varchar(40)"), nullable("note", "text")),
                key("PRIMARY", "id"));
        AlterRefusedException e = refusal(ORDERS, swapped, List.of(new Rename("v", "note", "CHANGE COLUMN"),
                new Rename("note", "v", "CHANGE COLUMN")), false, true);
        assertThat(e.reason()).isEqualTo(Reason.UNCONFIRMED_RENAME);
        assertThat(e).hasMessageContaining("`v` is still a column of the new table")
                .hasMessageContaining("`note` is already a column of the table");

        AlterRefusedException missing = refusal(ORDERS, ORDERS, List.of(new Rename("nope", "zip", "CHANGE COLUMN")),
                false, true);
        assertThat(missing).hasMessageContaining("`nope` is not a column of the table")
                .hasMessageContaining("`zip` is not a column of the new table");
    }

    @Test
    void noSharedKeyWhenThePrimaryKeyIsDropped() {
        TableShape ghost = shape(ORDERS.columns());
        AlterRefusedException e = refusal(ORDERS, ghost, List.of(), false, true);
        assertThat(e.reason()).isEqualTo(Reason.NO_SHARED_UNIQUE_KEY);
        assertThat(e).hasMessageContaining("PRIMARY KEY (`id`)").hasMessageContaining("no unique key");
    }

    @Test
    void aPrimaryKeyThatGrowsKeepsTheOldKeyAsTheSharedOneAndWritesByDelete() throws Exception {
        TableShape ghost = shape(ORDERS.columns(), key("PRIMARY", "id", "k"));
        ShapeDiff d = compare(ORDERS, ghost, List.of());
        assertThat(d.sharedKey()).containsExactly("id");
        assertThat(d.keyGrows()).isTrue();
        assertThat(d.newUniqueKeys()).as("(id, k) is implied by (id)").isEmpty();
        assertThat(d.notes()).anyMatch(n -> n.contains("grows into PRIMARY KEY (`id`, `k`)"));
        assertThat(compare(ORDERS, ORDERS, List.of()).keyGrows()).isFalse();
    }

    @Test
    void aKeyThatDoesNotContainTheOldOneOrOverANullableColumnIsStillRefused() {
        TableShape other = shape(ORDERS.columns(), key("PRIMARY", "k", "amount"));
        assertThat(refusal(ORDERS, other, List.of(), true, true).reason()).isEqualTo(Reason.NO_SHARED_UNIQUE_KEY);
        TableShape nullable = shape(List.of(col("id", "bigint(20)"), col("k", "int(11)"),
                nullable("amount", "decimal(10,2)")), key("uk", "id", "amount"));
        assertThat(refusal(ORDERS, nullable, List.of(), true, true).reason())
                .isEqualTo(Reason.NO_SHARED_UNIQUE_KEY);
    }

    @Test
    void noSharedKeyWhenTheKeyColumnIsDropped() {
        TableShape ghost = shape(List.of(col("k", "int(11)"), nullable("amount", "decimal(10,2)")),
                key("PRIMARY", "k"));
        AlterRefusedException e = refusal(ORDERS, ghost, List.of(), true, true);
        assertThat(e.reason()).isEqualTo(Reason.NO_SHARED_UNIQUE_KEY);
    }

    @Test
    void aNotNullUniqueKeyCanStandInForADroppedPrimaryKey() throws Exception {
        TableShape original = shape(ORDERS.columns(), key("PRIMARY", "id"), key("uk", "k"));
        TableShape ghost = shape(ORDERS.columns(), key("uk", "k"));
        assertThat(compare(original, ghost, List.of()).sharedKey()).containsExactly("k");
    }

    @Test
    void nullableUniqueKeysDoNotCount() {
        TableShape original = shape(ORDERS.columns(), key("PRIMARY", "id"), key("uv", "v"));
        TableShape ghost = shape(ORDERS.columns(), key("uv", "v"));
        AlterRefusedException e = refusal(original, ghost, List.of(), false, true);
        assertThat(e.reason()).isEqualTo(Reason.NO_SHARED_UNIQUE_KEY);
        assertThat(e).hasMessageContaining("UNIQUE KEY `uv` (`v`) over NULL-able columns");
    }

    @Test
    void sharedKeyPrefersThePrimaryKeyAndTheGhostsColumnOrder() throws Exception {
        TableShape original = shape(ORDERS.columns(), key("PRIMARY", "id", "k"), key("uk", "k"));
        TableShape ghost = shape(ORDERS.columns(), key("PRIMARY", "k", "id"), key("uk", "k"));
        assertThat(compare(original, ghost, List.of()).sharedKey()).containsExactly("k", "id");
    }

    @Test
    void aNewUniqueKeyIsRefusedUnlessAccepted() throws Exception {
        TableShape ghost = shape(ORDERS.columns(), key("PRIMARY", "id"), key("uv", "v"));
        AlterRefusedException e = refusal(ORDERS, ghost, List.of(), false, true);
        assertThat(e.reason()).isEqualTo(Reason.NEW_UNIQUE_KEY);
        assertThat(e).hasMessageContaining("UNIQUE KEY `uv` (`v`)").hasMessageContaining("HAVING COUNT(*) > 1");

        ShapeDiff d = ShapeDiff.compare(T, ORDERS, ghost, List.of(), true, true);
        assertThat(d.newUniqueKeys()).containsExactly("UNIQUE KEY `uv` (`v`)");
        assertThat(d.notes()).anyMatch(n -> n.contains("(accepted)"));
    }

    @Test
    void aPrimaryKeyOverFewerColumnsIsANewUniqueness() throws Exception {
        List<Column> columns = List.of(col("id", "int(11)"), col("k", "int(11)"), col("order_no", "char(12)"));
        TableShape original = shape(columns, key("PRIMARY", "id", "k"), key("uo", "order_no"));
        TableShape ghost = shape(columns, key("PRIMARY", "id"), key("uo", "order_no"));
        AlterRefusedException e = refusal(original, ghost, List.of(), false, true);
        assertThat(e.reason()).isEqualTo(Reason.NEW_UNIQUE_KEY);
        assertThat(e).hasMessageContaining("PRIMARY KEY (`id`)");
        ShapeDiff accepted = ShapeDiff.compare(T, original, ghost, List.of(), true, true);
        assertThat(accepted.sharedKey()).containsExactly("order_no");
        assertThat(accepted.newUniqueKeys()).containsExactly("PRIMARY KEY (`id`)");
    }

    @Test
    void keysImpliedByTheOriginalAreNotNew() throws Exception {
        TableShape original = shape(ORDERS.columns(), key("PRIMARY", "id"),
                new UniqueKey("uv", List.of(new KeyPart("v", 10))));
        TableShape ghost = shape(ORDERS.columns(), key("PRIMARY", "id"), key("idk", "id", "k"), key("uv", "v"),
                new UniqueKey("uv2", List.of(new KeyPart("k", null), new KeyPart("v", 20))), key("x", "id", "v"));
        ShapeDiff d = compare(original, ghost, List.of());
        assertThat(d.newUniqueKeys()).isEmpty();
        assertThat(d.sharedKey()).containsExactly("id");
    }

    @Test
    void aShorterPrefixIsANewUniqueness() {
        TableShape original = shape(ORDERS.columns(), key("PRIMARY", "id"),
                new UniqueKey("uv", List.of(new KeyPart("v", 10))));
        TableShape ghost = shape(ORDERS.columns(), key("PRIMARY", "id"),
                new UniqueKey("uv", List.of(new KeyPart("v", 5))));
        assertThat(refusal(original, ghost, List.of(), false, true).reason()).isEqualTo(Reason.NEW_UNIQUE_KEY);
    }

    @Test
    void aKeyColumnChangingCollationIsNoted() throws Exception {
        Column cs = new Column("email", "varchar(80)", "utf8mb4_bin", false, true, false, false);
        Column ci = new Column("email", "varchar(80)", "utf8mb4_general_ci", false, true, false, false);
        TableShape original = shape(List.of(col("id", "int(11)"), cs), key("PRIMARY", "id"), key("ue", "email"));
        TableShape ghost = shape(List.of(col("id", "int(11)"), ci), key("PRIMARY", "id"), key("ue", "email"));
        ShapeDiff d = compare(original, ghost, List.of());
        assertThat(d.notes()).anyMatch(n -> n.contains("UNIQUE KEY `ue` (`email`) covers `email`")
                && n.contains("utf8mb4_general_ci"));
    }

    @Test
    void notNullWithoutDefaultIsRefusedOnATableWithRows() throws Exception {
        List<Column> columns = new ArrayList<>(ORDERS.columns());
        columns.add(noDefault("status", "int(11)"));
        TableShape ghost = shape(columns, key("PRIMARY", "id"));
        AlterRefusedException e = refusal(ORDERS, ghost, List.of(), false, true);
        assertThat(e.reason()).isEqualTo(Reason.NOT_NULL_WITHOUT_DEFAULT);
        assertThat(e).hasMessageContaining("`status`").hasMessageContaining("DEFAULT");

        ShapeDiff empty = ShapeDiff.compare(T, ORDERS, ghost, List.of(), false, false);
        assertThat(empty.mapping().added()).containsExactly("status");
        assertThat(empty.notes()).anyMatch(n -> n.contains("`status` is NOT NULL without a DEFAULT"));
    }

    @Test
    void autoIncrementAndGeneratedColumnsNeedNoDefault() throws Exception {
        List<Column> columns = new ArrayList<>(ORDERS.columns());
        columns.add(new Column("seq", "bigint(20)", null, false, false, true, false));
        columns.add(new Column("total", "decimal(12,2)", null, false, false, false, true));
        TableShape ghost = shape(columns, key("PRIMARY", "id"), key("useq", "seq"));
        ShapeDiff d = ShapeDiff.compare(T, ORDERS, ghost, List.of(), true, true);
        assertThat(d.mapping().added()).containsExactly("seq", "total");
    }

    @Test
    void aColumnThatBecomesGeneratedIsNotWritten() throws Exception {
        TableShape original = shape(List.of(col("id", "int(11)"), nullable("a", "int(11)"), nullable("b", "int(11)")),
                key("PRIMARY", "id"));
        TableShape ghost = shape(List.of(col("id", "int(11)"), nullable("a", "int(11)"), generated("b", "int(11)")),
                key("PRIMARY", "id"));
        ShapeDiff d = compare(original, ghost, List.of());
        assertThat(d.mapping().shared()).containsOnlyKeys("id", "a");
        assertThat(d.mapping().dropped()).containsExactly("b");
        assertThat(d.mapping().added()).containsExactly("b");
        assertThat(d.notes()).anyMatch(n -> n.contains("generated"));
    }

    @Test
    void aColumnDroppedAndAddedAgainIsNotCarriedOverByName() throws Exception {
        TableShape ghost = shape(List.of(col("id", "bigint(20)"), col("k", "int(11)"),
                nullable("amount", "decimal(10,2)"), nullable("v", "varchar(40)"), col("note", "int(11)")),
                key("PRIMARY", "id"));
        ShapeDiff d = ShapeDiff.compare(T, ORDERS, ghost, List.of(), java.util.Set.of("note"), false, true);
        assertThat(d.mapping().shared()).doesNotContainKey("note");
        assertThat(d.mapping().dropped()).containsExactly("note");
        assertThat(d.mapping().added()).containsExactly("note");
        assertThat(d.notes()).anySatisfy(n -> assertThat(n).contains("dropped and added again"));
        // the same shapes without the statement's word for it: carried over by name
        assertThat(compare(ORDERS, ghost, List.of()).mapping().shared()).containsEntry("note", "note");
    }
}
