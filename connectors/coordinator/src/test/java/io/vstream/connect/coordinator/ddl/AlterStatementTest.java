package io.vstream.connect.coordinator.ddl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vstream.connect.coordinator.ddl.AlterRefusedException.Reason;
import io.vstream.connect.coordinator.ddl.AlterStatement.Rename;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Scanning ALTER text: bodies, renames in many spellings, and what is refused before anything is created. */
class AlterStatementTest {

    private static AlterStatement parse(String text) throws AlterRefusedException {
        return AlterStatement.parse("shop", "orders", text);
    }

    private static Reason refusal(String text) {
        try {
            parse(text);
        } catch (AlterRefusedException e) {
            return e.reason();
        }
        throw new AssertionError("not refused: " + text);
    }

    @Test
    void bodyIsKeptAsWritten() throws Exception {
        String body = "MODIFY amount DECIMAL(14,2), ADD INDEX k2 (k), CHANGE COLUMN v v2 VARCHAR(80), DROP COLUMN note";
        AlterStatement s = parse(body);
        assertThat(s.body()).isEqualTo(body);
        assertThat(s.renames()).containsExactly(new Rename("v", "v2", "CHANGE COLUMN"));
        assertThat(s.ignore()).isFalse();
    }

    @Test
    void wholeStatementLosesItsHeadAndSemicolon() throws Exception {
        assertThat(parse("ALTER TABLE orders ADD INDEX k (v);").body()).isEqualTo("ADD INDEX k (v)");
        assertThat(parse("  alter table `orders`\n  drop column note ; ; ").body()).isEqualTo("drop column note");
        assertThat(parse("ALTER TABLE shop.orders ADD COLUMN x INT").body()).isEqualTo("ADD COLUMN x INT");
        assertThat(parse("ALTER TABLE `shop`.`ORDERS` ADD COLUMN x INT").body()).isEqualTo("ADD COLUMN x INT");
        assertThat(parse("ALTER ONLINE TABLE orders FORCE").body()).isEqualTo("FORCE");
        assertThat(parse("ALTER TABLE IF EXISTS orders FORCE").body()).isEqualTo("FORCE");
        AlterStatement ignore = parse("ALTER IGNORE TABLE orders ADD UNIQUE KEY u (v)");
        assertThat(ignore.ignore()).isTrue();
        assertThat(ignore.body()).isEqualTo("ADD UNIQUE KEY u (v)");
    }

    @Test
    void aBodyMayStartWithAlterColumn() throws Exception {
        assertThat(parse("ALTER COLUMN v SET DEFAULT 'x', ADD INDEX k (v)").body())
                .isEqualTo("ALTER COLUMN v SET DEFAULT 'x', ADD INDEX k (v)");
    }

    @Test
    void statementOfAnotherTableIsRefused() {
        assertThat(refusal("ALTER TABLE customers ADD INDEX k (v)")).isEqualTo(Reason.INVALID_STATEMENT);
        assertThat(refusal("ALTER TABLE other.orders ADD INDEX k (v)")).isEqualTo(Reason.INVALID_STATEMENT);
        assertThatThrownBy(() -> parse("ALTER TABLE customers ADD INDEX k (v)"))
                .hasMessageContaining("`customers`").hasMessageContaining("`shop`.`orders`");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "   ", ";", "ALTER TABLE orders", "ALTER TABLE orders ;", "-- only a comment\n"})
    void emptyAltersAreRefused(String text) {
        assertThat(refusal(text)).isEqualTo(Reason.INVALID_STATEMENT);
    }

    @Test
    void renamesInManySpellings() throws Exception {
        assertThat(parse("CHANGE v v2 VARCHAR(80)").renames()).containsExactly(new Rename("v", "v2", "CHANGE COLUMN"));
        assertThat(parse("change column `v` `v2` varchar(80) not null").renames())
                .containsExactly(new Rename("v", "v2", "CHANGE COLUMN"));
        assertThat(parse("CHANGE COLUMN IF EXISTS v v2 INT").renames())
                .containsExactly(new Rename("v", "v2", "CHANGE COLUMN"));
        assertThat(parse("RENAME COLUMN v TO v2").renames()).containsExactly(new Rename("v", "v2", "RENAME COLUMN"));
        assertThat(parse("rename column `my col` to `your col`").renames())
                .containsExactly(new Rename("my col", "your col", "RENAME COLUMN"));
        assertThat(parse("CHANGE `a``b` `c, d` INT").renames())
                .containsExactly(new Rename("a`b", "c, d", "CHANGE COLUMN"));
        assertThat(parse("CHANGE \"x\" \"y\" INT").renames()).containsExactly(new Rename("x", "y", "CHANGE COLUMN"));
        assertThat(parse("ALTER TABLE orders WAIT 5 CHANGE a b INT").renames())
                .containsExactly(new Rename("a", "b", "CHANGE COLUMN"));
        assertThat(parse("NOWAIT RENAME COLUMN a TO b").renames())
                .containsExactly(new Rename("a", "b", "RENAME COLUMN"));
        assertThat(parse("CHANGE été summer INT").renames())
                .containsExactly(new Rename("été", "summer", "CHANGE COLUMN"));
    }

    @Test
    void severalRenamesInOrderAmongOtherClauses() throws Exception {
        AlterStatement s = parse("ADD COLUMN c ENUM('CHANGE a b', 'x,y') NOT NULL DEFAULT 'x,y',"
                + " CHANGE a b DECIMAL(10, 2) COMMENT 'RENAME COLUMN p TO q, CHANGE d e',\n"
                + "  /* CHANGE f g INT, */ MODIFY k INT, -- CHANGE h i INT\n"
                + "  RENAME COLUMN `d` TO e, RENAME INDEX k1 TO k2, RENAME KEY k3 TO k4");
        assertThat(s.renames()).containsExactly(new Rename("a", "b", "CHANGE COLUMN"),
                new Rename("d", "e", "RENAME COLUMN"));
    }

    @Test
    void sameNameOrCaseOnlyIsNotARename() throws Exception {
        assertThat(parse("CHANGE v v VARCHAR(80)").renames()).isEmpty();
        assertThat(parse("CHANGE COLUMN v V VARCHAR(80)").renames()).isEmpty();
        assertThat(parse("MODIFY v VARCHAR(80), ALTER COLUMN w DROP DEFAULT").renames()).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"RENAME TO orders2", "rename as orders2", "RENAME orders2", "RENAME `shop`.`x`",
            "ADD COLUMN x INT, RENAME TO y", "ENGINE=InnoDB RENAME TO y", "RENAME", "RENAME \"x\""})
    void tableRenamesAreRefused(String text) {
        assertThat(refusal(text)).isEqualTo(Reason.RENAMES_TABLE);
    }

    @Test
    void tableRenameMessageSaysTheFix() {
        assertThatThrownBy(() -> parse("ALTER TABLE orders ADD COLUMN x INT, RENAME TO orders_v2"))
                .isInstanceOf(AlterRefusedException.class).hasMessageContaining("RENAME TABLE")
                .hasMessageContaining("keeps the table's name");
    }

    @Test
    void renameWordsInStringsAndCommentsAreNotRenames() throws Exception {
        assertThat(parse("ADD COLUMN x VARCHAR(20) DEFAULT 'RENAME TO y'").renames()).isEmpty();
        assertThat(parse("ADD COLUMN x INT COMMENT \"it's RENAME TO\"").body()).contains("RENAME TO");
        assertThat(parse("ADD COLUMN x INT # RENAME TO y\n").body()).isEqualTo("ADD COLUMN x INT");
        assertThat(parse("ADD COLUMN `rename` INT").renames()).isEmpty();
        assertThat(parse("ADD COLUMN x INT DEFAULT '\\' RENAME TO y'").body()).endsWith("'");
    }

    @ParameterizedTest
    @ValueSource(strings = {"ADD FOREIGN KEY (c) REFERENCES customers (id)",
            "ADD CONSTRAINT fk FOREIGN KEY (c) REFERENCES customers (id)",
            "ADD COLUMN c INT REFERENCES customers (id)", "add constraint `fk` foreign   key (c) references p(id)"})
    void foreignKeysAreRefused(String text) {
        assertThat(refusal(text)).isEqualTo(Reason.FOREIGN_KEY);
    }

    @ParameterizedTest
    @ValueSource(strings = {"EXCHANGE PARTITION p0 WITH TABLE other", "DISCARD TABLESPACE", "IMPORT TABLESPACE",
            "CONVERT TABLE other TO PARTITION p9 VALUES LESS THAN (100)", "CONVERT PARTITION p0 TO TABLE other",
            "ADD COLUMN x INT /*!50100 , RENAME TO y */", "ADD COLUMN x INT /*M!100100 , RENAME TO y */"})
    void operationsAGhostCannotStandInForAreRefused(String text) {
        assertThat(refusal(text)).isEqualTo(Reason.UNSUPPORTED_OPERATION);
    }

    @Test
    void wordsThatOnlyLookDangerousAreFine() throws Exception {
        assertThat(parse("ADD COLUMN import INT, ADD COLUMN exchange INT, ADD COLUMN discard INT").renames()).isEmpty();
        assertThat(parse("CONVERT TO CHARACTER SET utf8mb4").body()).isEqualTo("CONVERT TO CHARACTER SET utf8mb4");
    }

    @ParameterizedTest
    @ValueSource(strings = {"ADD INDEX k (v); DROP TABLE customers", "ADD COLUMN x VARCHAR(10) DEFAULT 'open",
            "ADD COLUMN `x INT", "ADD INDEX k (v", "ADD INDEX k v)", "ADD COLUMN x INT /* open comment",
            "ALTER ONLINE INDEX k", "ALTER TABLE"})
    void malformedStatementsAreRefused(String text) {
        assertThat(refusal(text)).isEqualTo(Reason.INVALID_STATEMENT);
    }

    @Test
    void secondStatementIsNamedInTheMessage() {
        assertThatThrownBy(() -> parse("ADD INDEX k (v); DROP TABLE customers"))
                .hasMessageContaining("more than one statement");
    }

    @Test
    void findsTheColumnsDroppedAndAddedAgain() throws Exception {
        assertThat(parse("drop column c1, add column c1 int not null default 47").replaced()).containsExactly("c1");
        assertThat(parse("DROP `C1`, ADD `c1` INT").replaced()).containsExactly("c1");
        assertThat(parse("DROP COLUMN IF EXISTS c1, ADD COLUMN IF NOT EXISTS (x INT, c1 INT)").replaced())
                .containsExactly("c1");
        assertThat(parse("DROP INDEX c1, ADD INDEX c1 (v)").replaced()).isEmpty();
        assertThat(parse("DROP PRIMARY KEY, ADD PRIMARY KEY (id, i)").replaced()).isEmpty();
        assertThat(parse("DROP COLUMN c1, ADD COLUMN c2 INT").replaced()).isEmpty();
        assertThat(parse("ADD COLUMN c1 INT").replaced()).isEmpty();
    }
}
