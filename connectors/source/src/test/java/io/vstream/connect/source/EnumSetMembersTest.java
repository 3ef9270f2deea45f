package io.vstream.connect.source;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class EnumSetMembersTest {
    @Test
    void showsEachCharacterOutsideTheBmpAsAQuestionMark() {
        assertThat(EnumSetMembers.shown("a😀b🎉")).isEqualTo("a?b?");
        assertThat(EnumSetMembers.shown("ß✓")).isEqualTo("ß✓");
        assertThat(EnumSetMembers.mayBeLossy(new String[] {"a", "?"})).isTrue();
        assertThat(EnumSetMembers.mayBeLossy(new String[] {"a", "ß"})).isFalse();
        assertThat(EnumSetMembers.holdsCharactersOutsideTheBmp("utf8mb4")).isTrue();
        assertThat(EnumSetMembers.holdsCharactersOutsideTheBmp("utf8mb3")).isFalse();
        assertThat(EnumSetMembers.holdsCharactersOutsideTheBmp("latin1")).isFalse();
        assertThat(EnumSetMembers.holdsCharactersOutsideTheBmp(null)).isFalse();
    }

    @Test
    void realMembersMatchOnlyTheTextThatShowsThem() {
        String[] real = {"a", "😀", "?"};
        assertThat(EnumSetMembers.shownAs(real, new String[] {"a", "?", "?"})).isTrue();
        assertThat(EnumSetMembers.shownAs(real, new String[] {"a", "?"})).isFalse();
        assertThat(EnumSetMembers.shownAs(real, new String[] {"a", "b", "?"})).isFalse();
    }

    @Test
    void spellsAndParsesMembersWithQuotesAndBackslashes() {
        String[] members = {"it's", "a\\b", "", "c,d", "😀"};
        String type = EnumSetMembers.columnType(false, members);
        assertThat(type).isEqualTo("enum('it''s','a\\\\b','','c,d','😀')");
        assertThat(EnumSetMembers.members(type)).containsExactly(members);
        assertThat(EnumSetMembers.members("set('x','y')")).containsExactly("x", "y");
        assertThat(EnumSetMembers.members("int(11)")).isEmpty();
    }

    @Test
    void repairsTheColumnsTheTextShowsWithQuestionMarksOnly() {
        String shown = "CREATE TABLE `t` (\n  `id` int(11) NOT NULL,\n  `e` enum('a','?','c d','?') DEFAULT NULL,\n"
                + "  `s` set('ß','?') CHARACTER SET utf8mb4 DEFAULT 'ß',\n  `other` enum('x','?') NOT NULL,\n"
                + "  `e2` varchar(10) DEFAULT NULL,\n  PRIMARY KEY (`id`)\n) ENGINE=InnoDB";
        String repaired = EnumSetMembers.repair(shown, Map.of(
                "e", new String[] {"a", "😀", "c d", "?"},
                "s", new String[] {"ß", "😀"},
                "other", new String[] {"x", "y"}, // the table changed since: the text shows other members
                "missing", new String[] {"😀"}));
        assertThat(repaired).isEqualTo("CREATE TABLE `t` (\n  `id` int(11) NOT NULL,\n"
                + "  `e` enum('a','😀','c d','?') DEFAULT NULL,\n"
                + "  `s` set('ß','😀') CHARACTER SET utf8mb4 DEFAULT 'ß',\n  `other` enum('x','?') NOT NULL,\n"
                + "  `e2` varchar(10) DEFAULT NULL,\n  PRIMARY KEY (`id`)\n) ENGINE=InnoDB");
    }

    @Test
    void leavesADefinitionWithNothingLostAsItIs() {
        String text = "CREATE TABLE `t` (\n  `e` enum('a','b') DEFAULT NULL\n)";
        assertThat(EnumSetMembers.repair(text, Map.of("e", new String[] {"a", "b"}))).isSameAs(text);
    }
}
